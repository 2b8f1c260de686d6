/// An RFC 3339 date-time as a caller wrote it, and the instant it denotes.
///
/// Accepted: `full-date "T" full-time` of RFC 3339 section 5.6, that is
/// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` with any number (one or more) of
/// fraction digits.
/// - `t` and `z` may be lower case (RFC 3339's note to section 5.6); a space
///   instead of `T` is rejected (it is only mentioned as a readability option).
/// - Every field must be in range: month 01–12, day within its month
///   (Gregorian leap years, so `02-29` only in leap years, `02-30` never),
///   hour 00–23, minute 00–59, second 00–59, offset hours 00–23, offset minutes
///   00–59. `-00:00` is accepted and means UTC.
/// - Second `60` (a leap second) is accepted only where RFC 3339 allows one: at
///   23:59:60 UTC on the last day of a month (after applying the offset). Like
///   POSIX `timegm`, it denotes the same instant as the next day's 00:00:00 UTC
///   (plus its fraction), since the instant scale has no leap seconds.
///
/// `raw` keeps the text exactly as written, so compose echoes it unchanged.
/// Two timestamps are `==` only when written identically; compare `instant`
/// to compare times.
public struct Timestamp: Hashable, Sendable, CustomStringConvertible {
    /// The text exactly as the caller wrote it.
    package let raw: String
    /// The instant it denotes.
    package let instant: Instant

    /// The text as written.
    public var rfc3339: String { raw }

    /// `rfc3339`.
    public var description: String { raw }

    /// The timestamp `rfc3339` writes, or nil when it is not an RFC 3339
    /// date-time with an offset (`POST /compose` answers `invalid-timestamp`).
    public init?(rfc3339: String) {
        var text = rfc3339
        let instant = text.withUTF8 { utf8 -> Instant? in
            guard let parts = Self.parse(utf8) else { return nil }
            let extra =
                parts.extraDigits.isEmpty
                ? "" : String(decoding: UnsafeBufferPointer(rebasing: utf8[parts.extraDigits]), as: UTF8.self)
            return Instant(epochSeconds: parts.epochSeconds, nanoseconds: parts.nanoseconds, subnanosecondDigits: extra)
        }
        guard let instant else { return nil }
        self.raw = text
        self.instant = instant
    }

    /// What a date-time denotes: whole seconds, nanoseconds, and where its
    /// digits after the ninth are (trailing zeros excluded; usually none).
    struct Parts {
        let epochSeconds: Int64
        let nanoseconds: Int32
        let extraDigits: Range<Int>
    }

    /// Parses the RFC 3339 date-time `utf8` (the type's rules); nil when it is not one, or absent.
    static func parse(_ utf8: UnsafeBufferPointer<UInt8>?) -> Parts? {
        guard let utf8 else { return nil }
        var parser = Parser(bytes: utf8)
        return parser.parse()
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        mutating func parse() -> Parts? {
            // `YYYY-MM-DDTHH:MM:SS` sits at fixed offsets, and the shortest
            // date-time (`…SSZ`) is 20 bytes: the head is read in place, a
            // negative pair meaning a non-digit.
            guard bytes.count >= 20 else { return nil }
            let (century, yearOfCentury) = (pair(0), pair(2))
            let (month, day, hour, minute, second) = (pair(5), pair(8), pair(11), pair(14), pair(17))
            guard century >= 0, yearOfCentury >= 0, month >= 0, day >= 0, hour >= 0, minute >= 0, second >= 0,
                bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
                bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
                bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
            else { return nil }
            let year = century * 100 + yearOfCentury
            index = 19
            guard (1...12).contains(month), (1...Timestamp.daysIn(month: month, year: year)).contains(day),
                (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
            else { return nil }

            var nanoseconds: Int32 = 0
            var extraDigits = 0..<0
            if expect(UInt8(ascii: ".")) {
                let start = index
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
                guard index > start else { return nil }
                let fractionCount = index - start
                for position in 0..<9 {
                    let digit = position < fractionCount ? Int32(bytes[start + position] - UInt8(ascii: "0")) : 0
                    nanoseconds = nanoseconds * 10 + digit
                }
                var extraEnd = index
                while extraEnd > start + 9 && bytes[extraEnd - 1] == UInt8(ascii: "0") { extraEnd -= 1 }
                if extraEnd > start + 9 { extraDigits = (start + 9)..<extraEnd }
            }

            var offsetSeconds = 0
            if expect(UInt8(ascii: "Z")) || expect(UInt8(ascii: "z")) {
                offsetSeconds = 0
            } else {
                let sign: Int
                if expect(UInt8(ascii: "+")) {
                    sign = 1
                } else if expect(UInt8(ascii: "-")) {
                    sign = -1
                } else {
                    return nil
                }
                guard let offsetHours = digits(2), expect(UInt8(ascii: ":")), let offsetMinutes = digits(2),
                    (0...23).contains(offsetHours), (0...59).contains(offsetMinutes)
                else { return nil }
                offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
            }
            guard index == bytes.count else { return nil }

            let days = Timestamp.daysSinceEpoch(year: year, month: month, day: day)
            // Local time minus the offset is UTC.
            let epochSeconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
            if second == 60 {
                // RFC 3339 5.7: a leap second ends a month, at 23:59:60 UTC. Seen as
                // UTC, the instant is then exactly midnight starting the 1st of a month.
                let nextMidnight = epochSeconds
                guard nextMidnight % 86_400 == 0 else { return nil }
                let (_, _, utcDay) = Timestamp.civil(daysSinceEpoch: Int(nextMidnight / 86_400))
                guard utcDay == 1 else { return nil }
            }
            return Parts(epochSeconds: epochSeconds, nanoseconds: nanoseconds, extraDigits: extraDigits)
        }

        @inline(__always)
        mutating func expect(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// The two digits at `offset` as a number; negative when either is not a digit.
        /// - Precondition: `offset + 1 < bytes.count`.
        @inline(__always)
        func pair(_ offset: Int) -> Int {
            let tens = UInt(bytes[offset]) &- UInt(UInt8(ascii: "0"))
            let ones = UInt(bytes[offset + 1]) &- UInt(UInt8(ascii: "0"))
            return tens < 10 && ones < 10 ? Int(tens * 10 + ones) : -1
        }

        @inline(__always)
        mutating func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for position in index..<(index + count) {
                let byte = bytes[position]
                guard isDigit(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += count
            return value
        }

        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    }

    static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's
    /// days_from_civil, integer-only so every year 0000–9999 is exact).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of `daysSinceEpoch` (civil_from_days): the proleptic
    /// Gregorian date of a day count from 1970-01-01, by integer arithmetic on
    /// 400-year eras. The service's log clock uses it too (no libc time zone
    /// machinery, whose gmtime_r takes a lock, on the logging path).
    package static func civil(daysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
