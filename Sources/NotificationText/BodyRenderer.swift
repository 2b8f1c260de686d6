import NotificationEngine

/// Turns a chat message's Markdown into notification body text, exactly as
/// `docs/spec/body.md` defines it and `POST /body` serves it. Pure: no I/O,
/// no clocks, no globals.
public enum BodyRenderer {
    /// The default and smallest body cap, in UTF-16 units (iOS shows 256).
    public static let defaultMaxUnits = NotificationEngine.BodyRenderer.defaultMaxUnits
    /// The largest cap a caller may ask for, in UTF-16 units.
    public static let largestMaxUnits = NotificationEngine.BodyRenderer.largestMaxUnits
    /// The input is cut to this many UTF-16 units (whole characters) before rendering.
    public static let inputMaxUnits = NotificationEngine.BodyRenderer.inputMaxUnits
    /// Allowed values of `maxUnits`.
    public static let maxUnitsRange = defaultMaxUnits...largestMaxUnits

    /// Renders `text` and applies the cap (sections 1 to 7 of the spec).
    /// - Parameter maxUnits: the cap in UTF-16 units; a value outside
    ///   `maxUnitsRange` is clamped into it (`POST /body` refuses it instead).
    /// - Important: never fails; markup it cannot match is literal text, and
    ///   the body is cut only at `Character` boundaries.
    public static func render(_ text: String, maxUnits: Int = defaultMaxUnits) -> BodyRendering {
        let units = min(max(maxUnits, maxUnitsRange.lowerBound), maxUnitsRange.upperBound)
        let rendering = NotificationEngine.BodyRenderer.render(text, maxUnits: units)
        return BodyRendering(
            body: rendering.body, units: rendering.units, truncated: rendering.truncated, inputCut: rendering.inputCut)
    }
}

/// The notification body of one message, as `POST /body` returns it.
public struct BodyRendering: Hashable, Sendable {
    /// The text a notification shows: at most `maxUnits` UTF-16 units.
    public var body: String
    /// `body.utf16.count`.
    public var units: Int
    /// Whether "…" was appended (by the cap, or because the input was cut).
    public var truncated: Bool
    /// Whether the input was longer than `BodyRenderer.inputMaxUnits` UTF-16
    /// units and cut before rendering.
    public var inputCut: Bool

    /// A rendering with these values (tests and callers that store one).
    public init(body: String, units: Int, truncated: Bool, inputCut: Bool) {
        self.body = body
        self.units = units
        self.truncated = truncated
        self.inputCut = inputCut
    }
}
