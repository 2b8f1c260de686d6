/// The direction of a catalog's text (compose-l10n.md section 4).
package enum TextDirection: String, Sendable {
    case ltr, rtl
}

/// Whether a code point has a strong bidirectional class (UAX #9), from the
/// Unicode Character Database of the toolchain's version (`BidiStrongClasses`,
/// unassigned code points with their default class). RLM, ALM and LRM are strong.
enum BidiStrongClass: UInt8 {
    /// Any class but L, R and AL.
    case neutral = 0
    /// Bidi_Class L.
    case leftToRight = 1
    /// Bidi_Class R or AL.
    case rightToLeft = 2

    /// The class of `value`; `neutral` for a value that is no code point.
    static func of(_ value: UInt32) -> BidiStrongClass {
        if value < 0x80 {
            // ASCII letters are L; nothing else in ASCII is strong.
            return (value | 0x20) &- 0x61 < 26 ? .leftToRight : .neutral
        }
        return run(of: value).strong
    }

    /// The run of the table that holds `value`: its class and its code
    /// points `low..<high`.
    static func run(of value: UInt32) -> (strong: BidiStrongClass, low: UInt32, high: UInt32) {
        guard value <= 0x10FFFF else { return (.neutral, value, value &+ 1) }
        let runs = Tables.bidiRuns.elements
        // The last run that starts at or before `value`.
        var low = 0
        var high = runs.count
        let key = value << 2 | 3
        while low < high {
            let middle = (low + high) / 2
            if runs[middle] <= key { low = middle + 1 } else { high = middle }
        }
        let entry = runs[low - 1]
        let end = low < runs.count ? runs[low] >> 2 : 0x110000
        return (BidiStrongClass(rawValue: UInt8(entry & 3)) ?? .neutral, entry >> 2, end)
    }

    /// Whether the UTF-8 text contains a code point of the strong direction
    /// opposite to `direction` (R or AL for `ltr`, L for `rtl`): the test for
    /// wrapping an inserted value in FSI … PDI (section 5). ASCII takes no
    /// lookup, and neither does a code point in the run of the one before it.
    static func containsOpposite(of direction: TextDirection, in utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let opposite: BidiStrongClass = direction == .ltr ? .rightToLeft : .leftToRight
        let belowAnyOpposite: UInt32 = direction == .ltr ? Tables.firstRightToLeft : 0
        var runLow: UInt32 = 1
        var runHigh: UInt32 = 0
        var index = 0
        let count = utf8.count
        while index < count {
            let byte = utf8[index]
            if byte < 0x80 {
                // ASCII letters are L, and nothing in ASCII is R or AL.
                if direction == .rtl, (byte | 0x20) &- 0x61 < 26 { return true }
                index += 1
                continue
            }
            let (value, length) = decode(utf8, at: index)
            index += length
            if value < belowAnyOpposite || (value >= runLow && value < runHigh) { continue }
            let run = run(of: value)
            if run.strong == opposite { return true }
            runLow = run.low
            runHigh = run.high
        }
        return false
    }

    /// The scalar whose UTF-8 sequence starts at `index` (a lead byte ≥ 0x80)
    /// and its length; a malformed or cut sequence reads as one byte that is
    /// no code point.
    @inline(__always)
    static func decode(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> (value: UInt32, length: Int) {
        let lead = utf8[index]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        guard length > 1, index + length <= utf8.count else { return (UInt32.max, 1) }
        var value = UInt32(lead) & (0x7F >> length)
        for offset in 1..<length {
            let byte = utf8[index + offset]
            guard byte & 0xC0 == 0x80 else { return (UInt32.max, 1) }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        return (value, length)
    }
}
