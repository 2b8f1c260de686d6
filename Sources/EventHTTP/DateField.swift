#if canImport(Glibc)
import Glibc
#endif

/// The `Date` field value (RFC 9110 section 5.6.7, IMF-fixdate), formatted
/// once per second rather than for every reply (a gmtime_r and an snprintf
/// each time: bench/README.md, "What each decision is worth").
/// One per event-loop thread.
struct DateField {
    /// "Sun, 06 Nov 1994 08:49:37 GMT" and a NUL (a C string for `strlen`).
    private var text = [CChar](repeating: 0, count: 30)
    private var formattedSecond = time_t(-1)

    private static let dayNames: [StaticString] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let monthNames: [StaticString] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    /// Calls `body` with the value for the current second, NUL-terminated
    /// (nil in the unlikely case the clock cannot be read as a date).
    mutating func withCurrentValue<Result>(_ body: (UnsafePointer<CChar>?) -> Result) -> Result {
        let now = time(nil)
        if now != formattedSecond {
            format(now)
            formattedSecond = now
        }
        return text.withUnsafeBufferPointer { body($0[0] == 0 ? nil : $0.baseAddress) }
    }

    /// The value for `second` (seconds since the epoch), for tests.
    static func value(at second: time_t) -> String {
        var field = DateField()
        field.format(second)
        return field.text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    private mutating func format(_ second: time_t) {
        var seconds = second
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil, (0...9999).contains(parts.tm_year + 1900) else {
            text[0] = 0
            return
        }
        text.withUnsafeMutableBufferPointer { output in
            var index = 0
            func append(_ name: StaticString) {
                for byte in UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount) {
                    output[index] = CChar(bitPattern: byte)
                    index += 1
                }
            }
            func append(_ number: Int32, digits: Int) {
                var remaining = max(0, number)
                var position = index + digits
                while position > index {
                    position -= 1
                    output[position] = CChar(0x30 + remaining % 10)
                    remaining /= 10
                }
                index += digits
            }
            append(Self.dayNames[Int(parts.tm_wday) % 7])
            append(", ")
            append(parts.tm_mday, digits: 2)
            append(" ")
            append(Self.monthNames[Int(parts.tm_mon) % 12])
            append(" ")
            append(parts.tm_year + 1900, digits: 4)
            append(" ")
            append(parts.tm_hour, digits: 2)
            append(":")
            append(parts.tm_min, digits: 2)
            append(":")
            append(parts.tm_sec, digits: 2)
            append(" GMT")
            output[index] = 0
        }
    }
}
