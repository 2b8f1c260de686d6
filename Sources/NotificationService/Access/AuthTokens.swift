/// The bearer tokens a request may present (`serve --auth-token-file`): the
/// file holds one a line, so a rotation can put the next token beside the
/// current one, reload (SIGHUP), move the callers over, and drop the old one.
///
/// - Important: never printed: `description` is redacted, and the load
///   errors name a line and an offset, never the file's text.
public struct AuthTokens: Sendable, Equatable, CustomStringConvertible {
    private let tokens: [BearerToken]

    /// More would be a mistake (the wrong file): a rotation needs two.
    public static let maxCount = 16

    /// Why a token file was refused. The message never quotes the file.
    public enum LoadError: Error, Equatable, CustomStringConvertible {
        case empty
        case tooMany(count: Int)
        /// `line` counts from 1; `offset` is the byte within the line.
        case invalidCharacter(line: Int, offset: Int)

        public var description: String {
            switch self {
            case .empty:
                "the token file is empty"
            case .tooMany(let count):
                "the token file holds \(count) tokens; at most \(AuthTokens.maxCount) are accepted"
            case .invalidCharacter(let line, let offset):
                "line \(line) of the token file has a character a bearer token cannot hold at byte \(offset); "
                    + "use A-Z a-z 0-9 - . _ ~ + / with optional trailing ="
            }
        }
    }

    public init(_ tokens: [BearerToken]) {
        self.tokens = tokens
    }

    /// One token a line (CR LF or LF); blank lines are skipped.
    public init(fileContents: [UInt8]) throws(LoadError) {
        var tokens: [BearerToken] = []
        for (index, line) in fileContents.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            var bytes = Array(line)
            if bytes.last == 0x0D { bytes.removeLast() }
            if bytes.isEmpty { continue }
            do {
                tokens.append(try BearerToken(fileContents: bytes))
            } catch {
                switch error {
                case .empty: continue
                case .invalidCharacter(let offset): throw .invalidCharacter(line: index + 1, offset: offset)
                }
            }
        }
        guard !tokens.isEmpty else { throw .empty }
        guard tokens.count <= Self.maxCount else { throw .tooMany(count: tokens.count) }
        self.tokens = tokens
    }

    public var count: Int { tokens.count }

    public var description: String { "AuthTokens(\(tokens.count), redacted)" }

    /// As `BearerToken.verdict`, authorized when the token presented is any
    /// of these; every token is compared, whichever matches.
    public func verdict(authorizationValues values: [String]) -> BearerToken.Verdict {
        switch BearerToken.presented(in: values) {
        case .missing: return .missing
        case .invalid: return .invalid
        case .token(let presented):
            var matched = false
            for token in tokens {
                matched = token.matches(presented) || matched
            }
            return matched ? .authorized : .invalid
        }
    }
}
