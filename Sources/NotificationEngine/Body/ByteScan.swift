/// Word-at-a-time helpers for the hot loops over UTF-8 bytes: eight bytes per
/// step where a byte-by-byte loop would cost several instructions each.
enum ByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    @inline(__always)
    static func load(_ base: UnsafePointer<UInt8>, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
    }

    /// Whether `bytes` contains `needle`.
    static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: UInt8) -> Bool {
        firstIndex(of: needle, in: bytes, from: 0) < bytes.count
    }

    /// The high bit of each byte of `word` that is zero. Only the lowest is
    /// exact: a borrow can mark the byte above a zero byte too.
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- ones) & ~word & highs
    }

    /// Whether any of the eight bytes of `word` is a tab or a line feed.
    @inline(__always)
    static func containsTabOrLineFeed(_ word: UInt64) -> Bool {
        zeroBytes(word ^ ones &* 0x09) | zeroBytes(word ^ ones &* 0x0A) != 0
    }

    /// The high bit of each byte of `word` that is a space, exactly (no borrow
    /// from byte to byte, unlike `zeroBytes`).
    @inline(__always)
    static func spaceBytes(_ word: UInt64) -> UInt64 {
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let difference = word ^ ones &* 0x20
        return ~(((difference & lows) &+ lows) | difference) & highs
    }

    /// The index of the first `needle` in `bytes` at or after `start`;
    /// `bytes.count` when there is none.
    static func firstIndex(of needle: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return bytes.count }
        let pattern = ones &* UInt64(needle)
        var offset = start
        while offset + 8 <= bytes.count {
            let found = zeroBytes(load(base, offset) ^ pattern)
            if found != 0 { return offset + found.trailingZeroBitCount >> 3 }
            offset += 8
        }
        while offset < bytes.count && base[offset] != needle { offset += 1 }
        return offset
    }

    /// The UTF-16 units of the scalars whose lead byte is in the eight bytes
    /// of `word`: one per byte that is not a continuation byte, plus one per
    /// four-byte lead.
    @inline(__always)
    static func utf16Count(word: UInt64) -> Int {
        if word & highs == 0 { return 8 }
        let bit7 = (word >> 7) & ones
        let bit6 = (word >> 6) & ones
        let bit5 = (word >> 5) & ones
        let bit4 = (word >> 4) & ones
        let continuation = bit7 & ~bit6 & ones
        let fourByteLead = bit7 & bit6 & bit5 & bit4
        // Each byte of both is 0 or 1: multiplying by `ones` sums them into the
        // top byte, cheaper than a population count emulated without POPCNT.
        return 8 - Int((continuation &* ones) >> 56) + Int((fourByteLead &* ones) >> 56)
    }

    /// The number of UTF-16 code units that the valid UTF-8 `bytes` encode:
    /// one per scalar, two for each four-byte scalar.
    static func utf16Count(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var units = 0
        var offset = 0
        while offset + 8 <= bytes.count {
            units &+= utf16Count(word: load(base, offset))
            offset += 8
        }
        while offset < bytes.count {
            units &+= ASCII.utf16Units(leadByte: base[offset])
            offset += 1
        }
        return units
    }
}
