/// The notification body of one message, as `POST /body` returns it.
package struct BodyRendering: Equatable, Sendable {
    /// The text a notification shows: at most `maxUnits` UTF-16 units.
    package var body: String
    /// `body.utf16.count`.
    package var units: Int
    /// Whether "…" was appended (by the cap, or because the input was cut).
    package var truncated: Bool
    /// Whether the input was longer than 4096 UTF-16 units and cut before rendering.
    package var inputCut: Bool

    package init(body: String, units: Int, truncated: Bool, inputCut: Bool) {
        self.body = body
        self.units = units
        self.truncated = truncated
        self.inputCut = inputCut
    }
}

/// A rendering as bytes, from `BodyRenderer.withRendering(utf8:maxUnits:_:)`;
/// `text` is valid only during the call that receives it.
package struct RenderedBytes {
    /// The body's UTF-8, without the ellipsis.
    package let text: UnsafeBufferPointer<UInt8>
    /// Whether "…" (U+2026) follows `text`: the body was capped.
    package let ellipsis: Bool
    /// Length of the whole body (ellipsis included) in UTF-16 code units.
    package let units: Int
    /// The input was longer than 4096 units and was cut before rendering.
    package let inputCut: Bool

    /// Whether the body was capped (the `truncated` of `BodyRendering`).
    package var truncated: Bool { ellipsis }

    /// The body's UTF-8 with its ellipsis, as `BodyRenderer.render` returns it.
    package var body: [UInt8] {
        var bytes = Array(text)
        if ellipsis { bytes += BodyCap.ellipsis }
        return bytes
    }
}
