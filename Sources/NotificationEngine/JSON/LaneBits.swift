#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// The high bit of each of sixteen byte lanes, gathered into the low sixteen
/// bits of a word (lane 0 in bit 0): what a vector byte test needs to say
/// where its first hit is, in one step.
///
/// On x86-64 it is SSE2's `pmovmskb`, through the toolchain's own clang
/// intrinsics module (the standard library's `SIMD` types have no such
/// operation: a lane comparison there compiles to a loop over the lanes).
/// Elsewhere each half is gathered with a multiply (`gatheredHighBits`),
/// with the same result. It lives in the service: the rules module
/// (`NotificationText`) imports nothing but the standard library, so its
/// renderer keeps a test of two words.
enum LaneBits {
    /// Bit k set when lane k of `lanes` has its high bit set.
    @inline(__always)
    static func highBits(_ lanes: SIMD16<UInt8>) -> UInt32 {
        #if arch(x86_64)
        // 0 through 0xFFFF: the Int32 is never negative.
        return UInt32(truncatingIfNeeded: _mm_movemask_epi8(unsafeBitCast(lanes, to: __m128i.self)))
        #else
        return gatheredHighBits(lanes)
        #endif
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
