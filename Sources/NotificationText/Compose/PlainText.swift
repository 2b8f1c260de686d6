/// Titles, subtitles and names: plain text, one line, at most 256 units.
public enum PlainText {
    /// Titles and subtitles are capped at this many UTF-16 units (the body cap rule).
    public static let titleMaxUnits = 256

    /// Every run of `White_Space` scalars becomes one space, leading and
    /// trailing space is removed; `nil` when nothing is left (or `text` is `nil`).
    public static func normalised(_ text: String?) -> String? {
        guard let text else { return nil }
        var scalars = String.UnicodeScalarView()
        var spacePending = false
        for scalar in text.unicodeScalars {
            // ASCII needs no property lookup: its White_Space scalars are TAB…CR and SPACE.
            let isWhiteSpace = scalar.isASCII ? (scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value)) : scalar.properties.isWhitespace
            if isWhiteSpace {
                spacePending = !scalars.isEmpty
            } else {
                if spacePending {
                    scalars.append(" ")
                    spacePending = false
                }
                scalars.append(scalar)
            }
        }
        return scalars.isEmpty ? nil : String(scalars)
    }

    /// `text` capped at `titleMaxUnits` by the body cap rule (`BodyCap.apply`).
    public static func capped(_ text: String) -> String {
        BodyCap.apply(text, maxUnits: titleMaxUnits, inputCut: false).body
    }

    /// Distinct names in the order given: `A`, `A and B`, `A, B and C`, or
    /// `A, B and N others` (N = count − 2); `nil` for no names.
    /// - Precondition: `names` are distinct (the caller dedupes by code points).
    public static func senderList(_ names: [String]) -> String? {
        switch names.count {
        case 0: return nil
        case 1: return names[0]
        case 2: return "\(names[0]) and \(names[1])"
        case 3: return "\(names[0]), \(names[1]) and \(names[2])"
        default: return "\(names[0]), \(names[1]) and \(names.count - 2) others"
        }
    }
}
