/// Turns a chat message's Markdown into notification body text, exactly as
/// `shared/spec/body-rules.md` defines it. Pure: no I/O, no globals.
public enum BodyRenderer {
    /// The default and smallest body cap, in UTF-16 units (iOS shows 256).
    public static let defaultMaxUnits = 256
    /// The largest cap a caller may ask for, in UTF-16 units.
    public static let largestMaxUnits = 4096
    /// The input is cut to this many UTF-16 units (whole characters) before rendering.
    public static let inputMaxUnits = 4096
    /// Allowed values of `maxUnits`.
    public static let maxUnitsRange = defaultMaxUnits...largestMaxUnits

    /// Renders `text` and applies the cap (sections 1 to 7).
    /// - Precondition: `maxUnits` is in `maxUnitsRange` (callers validate it).
    /// - Important: never throws; markup it cannot match is literal text.
    public static func render(_ text: String, maxUnits: Int = defaultMaxUnits) -> BodyRendering {
        let uncapped = renderUncapped(text)
        return BodyCap.apply(uncapped.text, maxUnits: maxUnits, inputCut: uncapped.inputCut)
    }

    /// Sections 1 to 6: the rendered text before the cap, and whether the input was cut.
    public static func renderUncapped(_ text: String) -> (text: String, inputCut: Bool) {
        // Placeholder until the renderer lands: the input cut only.
        let cut = InputCut.apply(text)
        return (cut.text, cut.inputCut)
    }
}
