import NotificationEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    package func timestamp() -> Timestamp {
        let text = UTCTime.rfc3339(nanosecondsSinceEpoch: nanosecondsSinceEpoch(), fractionDigits: 9)
        // Our own formatting always parses; the fallback keeps this total.
        return Timestamp(rfc3339: text) ?? Timestamp(rfc3339: "1970-01-01T00:00:00Z")!
    }
}

/// RFC 3339 formatting in UTC, without Foundation.
enum UTCTime {
    /// `YYYY-MM-DDTHH:MM:SS[.fff…]Z` with `fractionDigits` (0…9) fraction digits.
    static func rfc3339(nanosecondsSinceEpoch: Int64, fractionDigits: Int) -> String {
        withRFC3339(nanosecondsSinceEpoch: nanosecondsSinceEpoch, fractionDigits: fractionDigits) {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// Calls `body` with the `rfc3339` text's bytes, formatted on the stack:
    /// this runs for every access-log line.
    static func withRFC3339<Result>(
        nanosecondsSinceEpoch: Int64, fractionDigits: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        var seconds = nanosecondsSinceEpoch / 1_000_000_000
        var nanoseconds = nanosecondsSinceEpoch % 1_000_000_000
        if nanoseconds < 0 {
            seconds -= 1
            nanoseconds += 1_000_000_000
        }
        let days = floorDivide(seconds, 86_400)
        let (year, month, day) = Timestamp.civil(daysSinceEpoch: Int(days))
        let secondOfDay = Int(seconds - days * 86_400)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            var n = 0
            func put(_ byte: UInt8) {
                buffer[n] = byte
                n += 1
            }
            // Two digits at a time: one division by a constant, no loop.
            func store(pair value: Int, at index: Int) {
                let tens = value / 10
                buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: tens)
                buffer[index + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value &- tens &* 10)
            }
            func pair(_ value: Int) {
                store(pair: value, at: n)
                n += 2
            }
            // The last `count` decimal digits of `value` (not negative), pairs from the right.
            func digits(_ value: Int, _ count: Int) {
                var rest = value
                var index = n + count
                while index - n >= 2 {
                    index -= 2
                    let quotient = rest / 100
                    store(pair: rest &- quotient &* 100, at: index)
                    rest = quotient
                }
                if index > n { buffer[n] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10) }
                n += count
            }
            if (0...9999).contains(year) {
                pair(year / 100)
                pair(year % 100)
            } else {
                var rest = year
                for k in stride(from: 3, through: 0, by: -1) {
                    buffer[n + k] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                    rest /= 10
                }
                n += 4
            }
            put(UInt8(ascii: "-"))
            pair(month)
            put(UInt8(ascii: "-"))
            pair(day)
            put(UInt8(ascii: "T"))
            pair(secondOfDay / 3600)
            put(UInt8(ascii: ":"))
            pair(secondOfDay / 60 % 60)
            put(UInt8(ascii: ":"))
            pair(secondOfDay % 60)
            if fractionDigits > 0 {
                put(UInt8(ascii: "."))
                var fraction = Int(nanoseconds)
                for _ in min(fractionDigits, 9)..<9 { fraction /= 10 }
                digits(fraction, min(fractionDigits, 9))
            }
            put(UInt8(ascii: "Z"))
            return body(UnsafeBufferPointer(rebasing: buffer[..<n]))
        }
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : (a - b + 1) / b
    }
}
