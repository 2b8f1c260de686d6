/// Where the first of sixteen byte lanes with its high bit set is: what the
/// JSON code's 16-byte byte tests (a string's end, the writer's escapes,
/// unescaping) need, in the standard library alone.
///
/// The standard library's `SIMD` types have no movemask operation, and the
/// engine imports nothing (SSE2's `pmovmskb` would need the toolchain's
/// clang intrinsics module; reached from a module of its own it is not
/// inlined). So the lanes are read as two words: the first hit is the
/// lowest set bit of the first word that has one. docs/adr/0027 has the
/// figures.
@usableFromInline
enum LaneBits {
    /// The index of the first lane of `lanes` whose high bit is set; 16 when
    /// there is none: lane k's high bit is bit 8k + 7 of its half, so its
    /// trailing zeros, divided by 8, are k; a high half of zero has 64, so
    /// 8 + 8 is 16.
    @inline(__always)
    static func firstHighLane(_ lanes: SIMD16<UInt8>) -> Int {
        let halves = unsafeBitCast(lanes & SIMD16(repeating: 0x80), to: SIMD2<UInt64>.self)
        let low = halves[0]
        if low != 0 { return low.trailingZeroBitCount &>> 3 }
        return 8 &+ halves[1].trailingZeroBitCount &>> 3
    }

    /// Whether any lane of `lanes` has its high bit set.
    @inlinable @inline(__always)
    static func anyHighLane(_ lanes: SIMD16<UInt8>) -> Bool {
        let halves = unsafeBitCast(lanes & SIMD16(repeating: 0x80), to: SIMD2<UInt64>.self)
        return halves[0] | halves[1] != 0
    }

    /// Bit k set when lane k of `lanes` has its high bit set, gathered with a
    /// multiply per half: the high bit of byte k, shifted down to bit 8k and
    /// multiplied, lands in bit 56 + k, and no two products share a bit, so
    /// nothing carries. (The reference the tests read every hit with.)
    @inline(__always)
    static func highBits(_ lanes: SIMD16<UInt8>) -> UInt32 {
        let halves = unsafeBitCast(lanes & SIMD16(repeating: 0x80), to: SIMD2<UInt64>.self)
        let gather: UInt64 = 0x0102_0408_1020_4080
        let low = ((halves[0] &>> 7) &* gather) &>> 56
        let high = ((halves[1] &>> 7) &* gather) &>> 56
        return UInt32(truncatingIfNeeded: low | high &<< 8)
    }
}
