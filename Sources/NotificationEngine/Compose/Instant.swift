/// A point in time, exact to any number of fractional-second digits.
///
/// Compose compares times only as instants (`now − timestamp > maxAgeSeconds`,
/// newest first), so an instant keeps what RFC 3339 wrote without rounding:
/// whole seconds since 1970-01-01T00:00:00Z, nanoseconds, and (rarely) the
/// digits after the ninth with trailing zeros removed. No `Double` is involved.
package struct Instant: Hashable, Comparable, Sendable {
    /// Whole seconds since 1970-01-01T00:00:00Z (negative before).
    package let epochSeconds: Int64
    /// The first nine fractional digits, 0..<1_000_000_000.
    package let nanoseconds: Int32
    /// The fractional digits after the ninth, ASCII `0`…`9`, without trailing
    /// zeros (empty for nearly every real timestamp). Digit strings of this
    /// shape compare byte-wise exactly as the fractions they denote.
    package let subnanosecondDigits: String

    package init(epochSeconds: Int64, nanoseconds: Int32 = 0, subnanosecondDigits: String = "") {
        precondition((0..<1_000_000_000).contains(nanoseconds), "nanoseconds out of range")
        self.epochSeconds = epochSeconds
        self.nanoseconds = nanoseconds
        // Nearly always empty: then there is nothing to trim or copy.
        let utf8 = subnanosecondDigits.utf8
        var trailingZeros = 0
        for byte in utf8.reversed() {
            guard byte == UInt8(ascii: "0") else { break }
            trailingZeros += 1
        }
        self.subnanosecondDigits =
            trailingZeros == 0
            ? subnanosecondDigits
            : String(decoding: utf8.dropLast(trailingZeros), as: UTF8.self)
    }

    /// This instant shifted by a whole number of seconds (fractions unchanged).
    package func adding(seconds: Int64) -> Instant {
        Instant(
            epochSeconds: epochSeconds + seconds, nanoseconds: nanoseconds, subnanosecondDigits: subnanosecondDigits)
    }

    package static func < (lhs: Instant, rhs: Instant) -> Bool {
        if lhs.epochSeconds != rhs.epochSeconds { return lhs.epochSeconds < rhs.epochSeconds }
        if lhs.nanoseconds != rhs.nanoseconds { return lhs.nanoseconds < rhs.nanoseconds }
        if lhs.subnanosecondDigits.isEmpty { return !rhs.subnanosecondDigits.isEmpty }
        return CodePoints.less(lhs.subnanosecondDigits, rhs.subnanosecondDigits)
    }

    package static func == (lhs: Instant, rhs: Instant) -> Bool {
        lhs.epochSeconds == rhs.epochSeconds && lhs.nanoseconds == rhs.nanoseconds
            && CodePoints.equal(lhs.subnanosecondDigits, rhs.subnanosecondDigits)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(epochSeconds)
        hasher.combine(nanoseconds)
        hasher.combine(subnanosecondDigits.utf8.count)
    }
}
