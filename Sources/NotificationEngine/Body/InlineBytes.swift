/// The skips of the inline scan over bytes that cannot matter to it: sixteen
/// bytes at a time, each in its own lane of one vector (SSE2 on x86-64), so a
/// plain run costs a few instructions per sixteen bytes, not several a byte.
///
/// A vector is read only where the source has sixteen bytes from the position
/// on; what lies past the context end is read but not used. The last fifteen
/// bytes of the source are tested one by one.
enum InlineBytes {
    /// `\\`, `` ` ``, `[`, `!`, `*` and `~`, as a bit set over ASCII.
    private static let constructStartsBelow64: UInt64 = 1 << 0x21 | 1 << 0x2A
    private static let constructStartsAbove64: UInt64 =
        1 << (0x5B - 64) | 1 << (0x5C - 64) | 1 << (0x60 - 64) | 1 << (0x7E - 64)

    /// Whether `byte` can start an inline construct (or an escape).
    @inline(__always)
    static func startsConstruct(_ byte: UInt8) -> Bool {
        if byte < 64 { return constructStartsBelow64 >> UInt64(byte) & 1 != 0 }
        if byte < 128 { return constructStartsAbove64 >> UInt64(byte - 64) & 1 != 0 }
        return false
    }

    /// The first position from `start` before `end` whose byte can start a
    /// construct; `end` when there is none. The first four bytes one by one,
    /// the rest out of line: hostile paragraphs (`**a` or `~~a ` repeated)
    /// skip a byte or two at a time, and the vector code inlined in the scan
    /// loop costs them more in saved registers than it spares.
    @inline(__always)
    static func nextConstructStart(in source: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) -> Int {
        var position = start
        let scalarEnd = min(end, start &+ 4)
        while position < scalarEnd {
            if startsConstruct(source[position]) { return position }
            position &+= 1
        }
        return position < end ? constructStart(in: source, from: position, end: end) : end
    }

    @inline(never)
    private static func constructStart(in source: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) -> Int {
        var position = start
        while position < end && source.count &- position >= 16 {
            let bytes = load(source, position)
            let flagged =
                (zeroLanes(bytes ^ lanes(ASCII.backslash)) | zeroLanes(bytes ^ lanes(ASCII.backtick))
                    | zeroLanes(bytes ^ lanes(ASCII.leftBracket)) | zeroLanes(bytes ^ lanes(ASCII.exclamationMark))
                    | zeroLanes(bytes ^ lanes(ASCII.asterisk)) | zeroLanes(bytes ^ lanes(ASCII.tilde))) & ~bytes
            let skip = firstFlagged(flagged)
            if skip < 16 { return min(position &+ skip, end) }
            position &+= 16
        }
        while position < end && !startsConstruct(source[position]) { position &+= 1 }
        return min(position, end)
    }

    @inline(__always)
    private static func load(_ source: UnsafeBufferPointer<UInt8>, _ position: Int) -> SIMD16<UInt8> {
        UnsafeRawPointer(source.baseAddress.unsafelyUnwrapped + position).loadUnaligned(as: SIMD16<UInt8>.self)
    }

    @inline(__always)
    private static func lanes(_ byte: UInt8) -> SIMD16<UInt8> { SIMD16(repeating: byte) }

    /// Each lane minus one: the high bit is set where the lane was zero, and
    /// where it was 0x81 or more, which `& ~bytes` rules out for ASCII needles
    /// (their XOR with a byte below 0x80 stays below 0x80). Wrapping
    /// arithmetic, as lane comparisons compile badly here.
    @inline(__always)
    private static func zeroLanes(_ lanes: SIMD16<UInt8>) -> SIMD16<UInt8> { lanes &- SIMD16(repeating: 1) }

    /// The first lane whose high bit is set; 16 when there is none.
    @inline(__always)
    private static func firstFlagged(_ flagged: SIMD16<UInt8>) -> Int {
        let halves = unsafeBitCast(flagged & SIMD16(repeating: 0x80), to: SIMD2<UInt64>.self)
        if halves[0] != 0 { return halves[0].trailingZeroBitCount &>> 3 }
        if halves[1] != 0 { return 8 &+ halves[1].trailingZeroBitCount &>> 3 }
        return 16
    }
}
