/// The notification body of one message, as `POST /body` returns it.
public struct BodyRendering: Equatable, Sendable {
    /// The text a notification shows: at most `maxUnits` UTF-16 units.
    public var body: String
    /// `body.utf16.count`.
    public var units: Int
    /// Whether "…" was appended (by the cap, or because the input was cut).
    public var truncated: Bool
    /// Whether the input was longer than 4096 UTF-16 units and cut before rendering.
    public var inputCut: Bool

    public init(body: String, units: Int, truncated: Bool, inputCut: Bool) {
        self.body = body
        self.units = units
        self.truncated = truncated
        self.inputCut = inputCut
    }
}

/// A rendering as bytes, from `BodyRenderer.withRendering(utf8:maxUnits:_:)`;
/// `text` is valid only during the call that receives it.
@_spi(Engine) public struct RenderedBytes {
    /// The body's UTF-8, without the ellipsis.
    @_spi(Engine) public let text: UnsafeBufferPointer<UInt8>
    /// Whether "…" (U+2026) follows `text`: the body was capped.
    @_spi(Engine) public let ellipsis: Bool
    /// Length of the whole body (ellipsis included) in UTF-16 code units.
    @_spi(Engine) public let units: Int
    /// The input was longer than 4096 units and was cut before rendering.
    @_spi(Engine) public let inputCut: Bool

    /// Whether the body was capped (the `truncated` of `BodyRendering`).
    @_spi(Engine) public var truncated: Bool { ellipsis }

    /// The body's UTF-8 with its ellipsis, as `BodyRenderer.render` returns it.
    @_spi(Engine) public var body: [UInt8] {
        var bytes = Array(text)
        if ellipsis { bytes += BodyCap.ellipsis }
        return bytes
    }
}
