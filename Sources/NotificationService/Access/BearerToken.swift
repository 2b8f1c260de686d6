/// The shared secret callers present as `Authorization: Bearer <token>` when
/// access control is on (`serve --auth-token-file`).
///
/// - Important: the token is never printed: `description` is redacted, and
///   the service never writes request headers to its logs or metrics.
public struct BearerToken: Sendable, Equatable, CustomStringConvertible {
    private let bytes: [UInt8]

    /// Why a token file was refused at start. The message never quotes the file.
    public enum LoadError: Error, Equatable, CustomStringConvertible {
        case empty
        case invalidCharacter(offset: Int)

        public var description: String {
            switch self {
            case .empty:
                "the token file is empty"
            case .invalidCharacter(let offset):
                "the token has a character a bearer token cannot hold at byte \(offset); "
                    + "use A-Z a-z 0-9 - . _ ~ + / with optional trailing ="
            }
        }
    }

    /// Reads a token from a token file's contents: trailing CR and LF are
    /// removed (editors add a final newline); what is left must be a non-empty
    /// `b64token` (RFC 6750 section 2.1), so it survives any HTTP client as typed.
    public init(fileContents: [UInt8]) throws(LoadError) {
        var end = fileContents.count
        while end > 0 && (fileContents[end - 1] == 0x0A || fileContents[end - 1] == 0x0D) { end -= 1 }
        let token = Array(fileContents[..<end])
        guard !token.isEmpty else { throw .empty }
        if let offset = Self.firstInvalidOffset(token) { throw .invalidCharacter(offset: offset) }
        bytes = token
    }

    public var description: String { "BearerToken(redacted)" }

    public static func == (lhs: BearerToken, rhs: BearerToken) -> Bool { lhs.matches(rhs.bytes) }

    /// What a request's `Authorization` header fields say about this token.
    public enum Verdict: Equatable, Sendable {
        /// Exactly one `Authorization: Bearer <this token>`.
        case authorized
        /// No `Authorization` field, or one with another scheme.
        case missing
        /// A bearer token that is not this one (or several `Authorization` fields).
        case invalid
    }

    /// Judges the `Authorization` field values of one request (every field of
    /// that name, in order). The scheme is matched case-insensitively (RFC 9110
    /// section 11.1); the token is compared in time that depends only on its
    /// own length, never on where a guess first differs.
    public func verdict(authorizationValues values: [String]) -> Verdict {
        switch Self.presented(in: values) {
        case .missing: .missing
        case .invalid: .invalid
        case .token(let presented): matches(presented) ? .authorized : .invalid
        }
    }

    /// What a request's `Authorization` fields present.
    enum Presented {
        case missing, invalid
        case token([UInt8])
    }

    /// The bearer token of exactly one `Authorization: Bearer <token>` field.
    static func presented(in values: [String]) -> Presented {
        guard let value = values.first else { return .missing }
        guard values.count == 1 else { return .invalid }
        let field = Array(value.utf8)
        let scheme = Array("bearer".utf8)
        guard field.count > scheme.count,
            zip(field, scheme).allSatisfy({ lowercased($0) == $1 }),
            isSpace(field[scheme.count])
        else { return .missing }
        var start = scheme.count
        var end = field.count
        while start < end, isSpace(field[start]) { start += 1 }
        while end > start, isSpace(field[end - 1]) { end -= 1 }
        return .token(Array(field[start..<end]))
    }

    /// Constant-time equality: every byte of the expected token is looked at
    /// whatever `presented` holds, and no branch depends on the bytes.
    func matches(_ presented: [UInt8]) -> Bool {
        var difference: UInt8 = presented.count == bytes.count ? 0 : 1
        for index in bytes.indices {
            let other = index < presented.count ? presented[index] : 0
            difference |= bytes[index] ^ other
        }
        return difference == 0
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    /// b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
    private static func firstInvalidOffset(_ token: [UInt8]) -> Int? {
        var index = 0
        while index < token.count, isTokenCharacter(token[index]) { index += 1 }
        if index == 0 { return 0 }
        while index < token.count, token[index] == UInt8(ascii: "=") { index += 1 }
        return index == token.count ? nil : index
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
            UInt8(ascii: "+"), UInt8(ascii: "/"):
            true
        default:
            false
        }
    }
}
