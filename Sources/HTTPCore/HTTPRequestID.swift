/// A response's `X-Request-Id` value: a caller's own, or 32 ASCII bytes held
/// inline (a generated id), which a response carries without an allocation.
///
/// Inlinable: the adapter and the access log read it for every reply, and a
/// call through the generic entry points costs more than the copy itself.
/// A plain pair of fields rather than an enum with payloads, whose copies
/// are out-of-line calls.
public struct HTTPRequestID: Sendable, Equatable {
    /// A caller's id; nil for an inline one.
    @usableFromInline
    let ownText: String?
    @usableFromInline
    let inlineWords: (UInt64, UInt64, UInt64, UInt64)

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

    /// The value's bytes.
    @inlinable
    public func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let ownText {
            if let result = ownText.utf8.withContiguousStorageIfAvailable(body) { return result }
            return Array(ownText.utf8).withUnsafeBufferPointer(body)
        }
        var words = inlineWords
        return withUnsafeBytes(of: &words) { body($0.bindMemory(to: UInt8.self)) }
    }

    /// The value's length in bytes.
    @inlinable
    public var utf8Count: Int {
        ownText?.utf8.count ?? 32
    }

    /// The value as a `String`.
    public var text: String {
        ownText ?? withUTF8 { String(decoding: $0, as: UTF8.self) }
    }

    public static func == (left: HTTPRequestID, right: HTTPRequestID) -> Bool {
        left.withUTF8 { leftBytes in right.withUTF8 { leftBytes.elementsEqual($0) } }
    }
}
