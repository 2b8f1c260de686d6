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
        // Byte 10's `T` is checked as part of the tail (the remembered one had it).
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
            bytes[10] | 0x20 == UInt8(ascii: "t"), let secondOfDay = Self.secondOfDay(base)
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

    /// `HH:MM:SSZ` from byte 11 to byte 19, the last, as seconds since
    /// midnight: hours 00–23, minutes and seconds 00–59, then `Z` or `z`;
    /// nil otherwise. Bytes 11–18 are read as one word (little-endian:
    /// byte 11 lowest) and checked and combined eight at a time.
    @inline(__always)
    private static func secondOfDay(_ base: UnsafeRawPointer) -> Int? {
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 11, as: UInt64.self))
        // Each digit's value in its byte (0–9 when it is a digit); a colon's byte is 0x0A.
        let values = word ^ 0x3030_3030_3030_3030
        // Bytes 2 and 5 the colons; the others digits: a value above 9 sets
        // its byte's high bit when 0x76 is added (or has it set already).
        let digits: UInt64 = 0x8080_0080_8000_8080
        guard base.load(fromByteOffset: 19, as: UInt8.self) | 0x20 == UInt8(ascii: "z"),
            word & 0x0000_FF00_00FF_0000 == 0x0000_3A00_003A_0000,
            (values &+ 0x7676_7676_7676_7676 | values) & digits == 0
        else { return nil }
        // Each pair's tens times ten plus its ones, in the pair's first byte (at most 99).
        let pairs: UInt64 = 0x00FF_0000_FF00_00FF
        let numbers = (values & pairs) &* 10 &+ (values >> 8) & pairs
        let hour = Int(truncatingIfNeeded: numbers & 0xFF)
        let minute = Int(truncatingIfNeeded: (numbers >> 24) & 0xFF)
        let second = Int(truncatingIfNeeded: (numbers >> 48) & 0xFF)
        guard hour < 24, minute < 60, second < 60 else { return nil }
        return hour &* 3600 &+ minute &* 60 &+ second
    }
}
