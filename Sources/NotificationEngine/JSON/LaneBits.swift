/// The high bit of each of sixteen byte lanes, gathered into the low sixteen
/// bits of a word (lane 0 in bit 0): what a vector byte test needs to say
/// where its first hit is, in one step.
///
/// Each half is gathered with a multiply (`gatheredHighBits`): the engine
/// imports nothing but the standard library, whose `SIMD` types have no
/// movemask operation (SSE2's `pmovmskb` would need the toolchain's clang
/// intrinsics module; docs/adr/0027-engine-module.md has the figures).
enum LaneBits {
    /// Bit k set when lane k of `lanes` has its high bit set.
    @inline(__always)
    static func highBits(_ lanes: SIMD16<UInt8>) -> UInt32 {
        gatheredHighBits(lanes)
    }

    /// `highBits` without vector instructions: the high bit of byte k of a
    /// half, shifted down to bit 8k and multiplied, lands in bit 56 + k, and
    /// no two of the products share a bit, so nothing carries.
    @inline(__always)
    static func gatheredHighBits(_ lanes: SIMD16<UInt8>) -> UInt32 {
        let halves = unsafeBitCast(lanes & SIMD16(repeating: 0x80), to: SIMD2<UInt64>.self)
        let gather: UInt64 = 0x0102_0408_1020_4080
        let low = ((halves[0] &>> 7) &* gather) &>> 56
        let high = ((halves[1] &>> 7) &* gather) &>> 56
        return UInt32(truncatingIfNeeded: low | high &<< 8)
    }
}
