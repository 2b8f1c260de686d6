#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NotificationText

/// The service's only source of time, injected so tests are deterministic.
public struct WallClock: Sendable {
    /// Nanoseconds since 1970-01-01T00:00:00Z.
    public var nanosecondsSinceEpoch: @Sendable () -> Int64

    public init(nanosecondsSinceEpoch: @escaping @Sendable () -> Int64) {
        self.nanosecondsSinceEpoch = nanosecondsSinceEpoch
    }

    /// The real clock (CLOCK_REALTIME).
    public static let system = WallClock {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// A clock stopped at one instant, for tests.
    public static func fixed(nanosecondsSinceEpoch: Int64) -> WallClock {
        WallClock { nanosecondsSinceEpoch }
    }

    /// The current time as a compose `Timestamp` (UTC, nanosecond digits).
    public func timestamp() -> Timestamp {
        let text = UTCTime.rfc3339(nanosecondsSinceEpoch: nanosecondsSinceEpoch(), fractionDigits: 9)
        // Our own formatting always parses; the fallback keeps this total.
        return Timestamp(rfc3339: text) ?? Timestamp(rfc3339: "1970-01-01T00:00:00Z")!
    }
}

/// RFC 3339 formatting in UTC, without Foundation.
enum UTCTime {
    /// `YYYY-MM-DDTHH:MM:SS[.fff…]Z` with `fractionDigits` (0…9) fraction digits.
    static func rfc3339(nanosecondsSinceEpoch: Int64, fractionDigits: Int) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        append(nanosecondsSinceEpoch: nanosecondsSinceEpoch, fractionDigits: fractionDigits, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func append(nanosecondsSinceEpoch: Int64, fractionDigits: Int, to bytes: inout [UInt8]) {
        var seconds = nanosecondsSinceEpoch / 1_000_000_000
        var nanoseconds = nanosecondsSinceEpoch % 1_000_000_000
        if nanoseconds < 0 {
            seconds -= 1
            nanoseconds += 1_000_000_000
        }
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        appendDigits(Int(parts.tm_year) + 1900, count: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(Int(parts.tm_mon) + 1, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(Int(parts.tm_mday), count: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(Int(parts.tm_hour), count: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(Int(parts.tm_min), count: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(Int(parts.tm_sec), count: 2, to: &bytes)
        if fractionDigits > 0 {
            bytes.append(UInt8(ascii: "."))
            var fraction = Int(nanoseconds)
            for _ in fractionDigits..<9 { fraction /= 10 }
            appendDigits(fraction, count: fractionDigits, to: &bytes)
        }
        bytes.append(UInt8(ascii: "Z"))
    }

    /// Exactly `count` decimal digits, zero-padded (values are non-negative and fit).
    private static func appendDigits(_ value: Int, count: Int, to bytes: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<count { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8((rest / divisor) % 10))
            rest %= divisor
            divisor /= 10
        }
    }
}
