/// Titles, subtitles and names: plain text, one line, at most 256 units.
public enum PlainText {
    /// Titles and subtitles are capped at this many UTF-16 units (the body cap rule).
    public static let titleMaxUnits = 256

    /// Every run of `White_Space` scalars becomes one space, leading and
    /// trailing space is removed; `nil` when nothing is left (or `text` is `nil`).
    public static func normalised(_ text: String?) -> String? {
        guard let text else { return nil }
        // Most names are already normal (single inner spaces only): return them as they are.
        var previousWasSpace = true
        var alreadyNormal = true
        for scalar in text.unicodeScalars {
            if isWhiteSpace(scalar) {
                if previousWasSpace || scalar != " " { alreadyNormal = false; break }
                previousWasSpace = true
            } else {
                previousWasSpace = false
            }
        }
        if alreadyNormal && !previousWasSpace { return text }

        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var spacePending = false
        for scalar in text.unicodeScalars {
            if isWhiteSpace(scalar) {
                spacePending = !bytes.isEmpty
            } else {
                if spacePending {
                    bytes.append(UInt8(ascii: " "))
                    spacePending = false
                }
                bytes.append(contentsOf: UTF8.encode(scalar)!)
            }
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// The `White_Space` property; ASCII needs no table lookup (TAB…CR and SPACE).
    static func isWhiteSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? (scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value)) : scalar.properties.isWhitespace
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
