/// A response's `X-Request-Id` value: a caller's own, or 32 ASCII bytes held
/// inline (a generated id), which a response carries without an allocation.
///
/// A plain pair of fields rather than an enum with payloads, whose copies
/// are out-of-line calls. HTTPCore holds no raw memory (docs/adr/0032): the
/// adapter's reply head reads the bytes in place with its `withUTF8`, and
/// the service's access log writes them with the engine's JSON writer
/// (docs/adr/0053).
public struct HTTPRequestID: Sendable, Equatable {
    /// A caller's id; nil for an inline one.
    public let ownText: String?
    /// An inline id's 32 ASCII bytes: the bytes of the four words, in memory
    /// order; zeros for a caller's id.
    public let inlineWords: (UInt64, UInt64, UInt64, UInt64)

    /// A caller's id as it came.
    @inlinable
    public init(_ text: String) {
        ownText = text
        inlineWords = (0, 0, 0, 0)
    }

    /// 32 ASCII bytes: the bytes of the four words, in memory order.
    @inlinable
    public init(inlineBytes words: (UInt64, UInt64, UInt64, UInt64)) {
        ownText = nil
        inlineWords = words
    }

    /// The value's length in bytes.
    @inlinable
    public var utf8Count: Int {
        ownText?.utf8.count ?? 32
    }

    /// The value's bytes, in an array of their own (not for the request path).
    public var bytes: [UInt8] {
        if let ownText { return Array(ownText.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for word in [inlineWords.0, inlineWords.1, inlineWords.2, inlineWords.3] {
            // Byte k in memory is bits 8k… of the little-endian form, on either byte order.
            let littleEndian = word.littleEndian
            for k in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: littleEndian &>> (8 * k))) }
        }
        return bytes
    }

    /// The value as a `String`.
    public var text: String {
        ownText ?? String(decoding: bytes, as: UTF8.self)
    }

    /// The same bytes, whichever way each is held.
    public static func == (left: HTTPRequestID, right: HTTPRequestID) -> Bool {
        switch (left.ownText, right.ownText) {
        case (let leftText?, let rightText?): leftText.utf8.elementsEqual(rightText.utf8)
        case (nil, nil): left.inlineWords == right.inlineWords
        default: left.bytes == right.bytes
        }
    }
}
