/// Section 7: the cap. Also used by compose for titles, subtitles and bundle bodies.
public enum BodyCap {
    /// Caps `text` at `maxUnits` UTF-16 units: a text that fits (and was not cut)
    /// is returned as is; otherwise the longest prefix of whole characters of at
    /// most `maxUnits − 1` units, without trailing whitespace, followed by "…".
    /// - Important: cuts only at Character boundaries of `text`.
    public static func apply(_ text: String, maxUnits: Int, inputCut: Bool) -> BodyRendering {
        let units = text.utf16.count
        if units <= maxUnits && !inputCut {
            return BodyRendering(body: text, units: units, truncated: false, inputCut: false)
        }
        var kept = ""
        var keptUnits = 0
        for character in text {
            let n = character.utf16.count
            if keptUnits + n > maxUnits - 1 { break }
            kept.append(character)
            keptUnits += n
        }
        while let last = kept.unicodeScalars.last, last == " " || last == "\t" || last == "\n" {
            kept.unicodeScalars.removeLast()
        }
        kept.append("\u{2026}")
        return BodyRendering(body: kept, units: kept.utf16.count, truncated: true, inputCut: inputCut)
    }
}

/// Section 1: the input cut, at 4096 UTF-16 units, on Character boundaries of the whole text.
enum InputCut {
    static func apply(_ text: String) -> (text: String, inputCut: Bool) {
        guard text.utf16.count > BodyRenderer.inputMaxUnits else { return (text, false) }
        var kept = ""
        var keptUnits = 0
        for character in text {
            let n = character.utf16.count
            if keptUnits + n > BodyRenderer.inputMaxUnits { break }
            kept.append(character)
            keptUnits += n
        }
        return (kept, true)
    }
}
