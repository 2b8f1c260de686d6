#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Where the first of sixteen byte lanes with its high bit set is: what the
/// engine's 16-byte byte tests (a JSON string's end, the writer's escapes,
/// unescaping) need, in one step.
///
/// On x86-64 it is SSE2's `pmovmskb`, from the toolchain's clang intrinsics
/// module: the standard library's `SIMD` types have no movemask operation.
/// That import is why this is a module of its own, the engine's one
/// dependency, and why its functions are `public` `@inlinable`: the
/// toolchain inlines those across modules, `package` ones not even when
/// `@inlinable` (docs/adr/0031-engine-module.md has the figures). The
/// module is no product: only this package's targets see it. Elsewhere
/// (arm64: every iPhone) the standard library's two-word path runs, with
/// the same answers.
public enum LaneBits {
    /// The index of the first lane of `lanes` whose high bit is set; 16 when
    /// there is none.
    @inlinable @inline(__always)
    public static func firstHighLane(_ lanes: SIMD16<UInt8>) -> Int {
        #if arch(x86_64)
        // 0 through 0xFFFF: bit 16 stops the count at 16.
        let bits = UInt32(truncatingIfNeeded: _mm_movemask_epi8(unsafeBitCast(lanes, to: __m128i.self)))
        return (bits | 0x1_0000).trailingZeroBitCount
        #else
        return firstHighLaneByWords(lanes)
        #endif
    }

    /// Whether any lane of `lanes` has its high bit set.
    @inlinable @inline(__always)
    public static func anyHighLane(_ lanes: SIMD16<UInt8>) -> Bool {
        #if arch(x86_64)
        return _mm_movemask_epi8(unsafeBitCast(lanes, to: __m128i.self)) != 0
        #else
        let halves = unsafeBitCast(lanes & SIMD16(repeating: 0x80), to: SIMD2<UInt64>.self)
        return halves[0] | halves[1] != 0
        #endif
    }

    /// The lanes of `lanes` equal to `value`'s with their high bit set, the
    /// others' clear (their low bits are unspecified).
    ///
    /// On x86-64 it is `pcmpeqb`: the standard library's `.==` on
    /// `SIMD16<UInt8>` is compiled there to a loop over the lanes.
    @inlinable @inline(__always)
    public static func equalLanes(_ lanes: SIMD16<UInt8>, _ value: UInt8) -> SIMD16<UInt8> {
        #if arch(x86_64)
        let equal = _mm_cmpeq_epi8(
            unsafeBitCast(lanes, to: __m128i.self), unsafeBitCast(SIMD16(repeating: value), to: __m128i.self))
        return unsafeBitCast(equal, to: SIMD16<UInt8>.self)
        #else
        return equalLanesByArithmetic(lanes, value)
        #endif
    }

    /// The lanes of `lanes` below `bound` (at most 0x80) with their high
    /// bit set, the others' clear (their low bits are unspecified).
    ///
    /// On x86-64 it is `pminub` and `pcmpeqb` (a lane is below when the
    /// lesser of it and `bound` - 1 is itself).
    @inlinable @inline(__always)
    public static func lanesBelow(_ lanes: SIMD16<UInt8>, _ bound: UInt8) -> SIMD16<UInt8> {
        #if arch(x86_64)
        let raw = unsafeBitCast(lanes, to: __m128i.self)
        let least = _mm_min_epu8(raw, unsafeBitCast(SIMD16(repeating: bound &- 1), to: __m128i.self))
        return unsafeBitCast(_mm_cmpeq_epi8(least, raw), to: SIMD16<UInt8>.self)
        #else
        return lanesBelowByArithmetic(lanes, bound)
        #endif
    }

    /// `equalLanes` with the standard library alone (tested on all
    /// architectures): a lane is equal when its XOR with `value` is zero,
    /// the one byte whose high bit is set after subtracting 1 and clear
    /// before.
    @inlinable @inline(__always)
    public static func equalLanesByArithmetic(_ lanes: SIMD16<UInt8>, _ value: UInt8) -> SIMD16<UInt8> {
        let difference = lanes ^ SIMD16(repeating: value)
        return (difference &- SIMD16(repeating: 1)) & ~difference
    }

    /// `lanesBelow` with the standard library alone (tested on all
    /// architectures): below `bound`, subtracting it wraps past zero and
    /// sets the high bit; a lane of 0x80 or more has it set already, and is
    /// masked out.
    @inlinable @inline(__always)
    public static func lanesBelowByArithmetic(_ lanes: SIMD16<UInt8>, _ bound: UInt8) -> SIMD16<UInt8> {
        (lanes &- SIMD16(repeating: bound)) & ~lanes
    }

    /// `firstHighLane` with the standard library alone (the path of every
    /// architecture but x86-64; tested on all): lane k's high bit is bit
    /// 8k + 7 of its half, so its trailing zeros, divided by 8, are k; a high
    /// half of zero has 64, so 8 + 8 is 16.
    @inlinable @inline(__always)
    public static func firstHighLaneByWords(_ lanes: SIMD16<UInt8>) -> Int {
        let halves = unsafeBitCast(lanes & SIMD16(repeating: 0x80), to: SIMD2<UInt64>.self)
        let low = halves[0]
        if low != 0 { return low.trailingZeroBitCount &>> 3 }
        return 8 &+ halves[1].trailingZeroBitCount &>> 3
    }
}
