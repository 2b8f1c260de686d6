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
