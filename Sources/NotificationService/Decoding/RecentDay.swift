/// The day of the last timestamp of the form `YYYY-MM-DDTHH:MM:SSZ` the
/// decoder parsed in full, so that the next one of the same day, the usual
/// case within one request, costs a comparison and three two-digit numbers.
///
/// Exact: a timestamp it reads is one `Timestamp` accepts, with the instant
/// `Timestamp` gives it (whole seconds, no fraction, UTC); any other form, day
/// or second 60 (a leap second, which only some days allow) is not read here
/// and goes to the full parser.
struct RecentDay {
    /// The timestamp's first 8 bytes and its next 3 (`YYYY-MM-` and `DDT`), as read.
    private var head: UInt64 = 0
    private var tail: UInt32 = 0
    /// The instant of that day's midnight, UTC; nil before any.
    private var midnight: Int64? = nil

    /// The seconds since the epoch of `bytes` when they are a timestamp of
    /// the recent day in the form above; nil when they are not.
    @inline(__always)
    func epochSeconds(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard let midnight, bytes.count == 20, let base = UnsafeRawPointer(bytes.baseAddress),
            base.loadUnaligned(as: UInt64.self) == head, Self.tail(base) == tail,
            let secondOfDay = Self.secondOfDay(base)
        else { return nil }
        return midnight &+ Int64(secondOfDay)
    }

    /// Notes the day of `bytes`, a timestamp `Timestamp` accepted at
    /// `epochSeconds`, when it has the form above.
    mutating func remember(_ bytes: UnsafeBufferPointer<UInt8>, epochSeconds: Int64) {
        guard bytes.count == 20, let base = UnsafeRawPointer(bytes.baseAddress),
            let secondOfDay = Self.secondOfDay(base)
        else { return }
        head = base.loadUnaligned(as: UInt64.self)
        tail = Self.tail(base)
        midnight = epochSeconds - Int64(secondOfDay)
    }

    /// Bytes 8–10 (`DDT`).
    @inline(__always)
    private static func tail(_ base: UnsafeRawPointer) -> UInt32 {
        base.loadUnaligned(fromByteOffset: 7, as: UInt32.self) >> 8
    }

    /// `HH:MM:SSZ` from byte 11 to the end, as seconds since midnight: hours
    /// 00–23, minutes and seconds 00–59, then `Z` or `z`; nil otherwise.
    @inline(__always)
    private static func secondOfDay(_ base: UnsafeRawPointer) -> Int? {
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        guard bytes[10] | 0x20 == UInt8(ascii: "t"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes[19] | 0x20 == UInt8(ascii: "z")
        else { return nil }
        let hour = pair(bytes + 11)
        let minute = pair(bytes + 14)
        let second = pair(bytes + 17)
        guard hour < 24, minute < 60, second < 60 else { return nil }
        return hour &* 3600 &+ minute &* 60 &+ second
    }

    /// Two decimal digits as a number; 100 or more when either is not a digit.
    @inline(__always)
    private static func pair(_ digits: UnsafePointer<UInt8>) -> Int {
        let tens = UInt(digits[0]) &- UInt(UInt8(ascii: "0"))
        let ones = UInt(digits[1]) &- UInt(UInt8(ascii: "0"))
        return tens < 10 && ones < 10 ? Int(tens &* 10 &+ ones) : 100
    }
}
