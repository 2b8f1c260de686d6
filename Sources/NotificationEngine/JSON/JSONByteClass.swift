import EnginePrimitives

/// Byte tests on 8 or 16 bytes at once, for the runs of plain bytes that
/// make up nearly all of a JSON string.
enum JSONByteClass {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of every byte of `word` (little-endian: lowest byte
    /// first) that is below 0x20, a quote or a backslash: the bytes a JSON
    /// string escapes. Bits above the lowest may be spurious (a borrow
    /// carries into the next byte), so only the lowest is exact:
    /// `trailingZeroBitCount >> 3` is the index of the first such byte.
    @inline(__always)
    static func escapeMask(_ word: UInt64) -> UInt64 {
        let control = (word &- ones &* 0x20) & ~word
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let quoteZero = (quote &- ones) & ~quote
        let backslashZero = (backslash &- ones) & ~backslash
        return (control | quoteZero | backslashZero) & highs
    }

    /// The high bit of every backslash of `word`; as in `escapeMask`, only
    /// the lowest is exact.
    @inline(__always)
    static func backslashMask(_ word: UInt64) -> UInt64 {
        let backslash = word ^ (ones &* 0x5C)
        return (backslash &- ones) & ~backslash & highs
    }

    /// The lanes of `bytes` that are a backslash, with their high bit set;
    /// the other lanes' high bits are clear.
    @inline(__always)
    static func backslashLanes(_ bytes: SIMD16<UInt8>) -> SIMD16<UInt8> {
        LaneBits.equalLanes(bytes, 0x5C)
    }

    /// The index of the first byte among the 16 at `pointer` that is below
    /// 0x20, a quote or a backslash; 16 when there is none.
    @inline(__always)
    /// Exact: each byte is tested in its own lane of one vector, so no
    /// borrow crosses bytes.
    static func firstEscapeIndex(in16 pointer: UnsafeRawPointer) -> Int {
        LaneBits.firstHighLane(escapeLanes(pointer.loadUnaligned(as: SIMD16<UInt8>.self)))
    }

    /// The lanes of `bytes` that are below 0x20, a quote or a backslash,
    /// with their high bit set; the other lanes' high bits are clear.
    /// Three lane comparisons joined (`LaneBits`: on x86-64 two `pcmpeqb`
    /// and a `pminub`, where arithmetic on the lanes took eight steps and
    /// three copies).
    @inline(__always)
    static func escapeLanes(_ bytes: SIMD16<UInt8>) -> SIMD16<UInt8> {
        LaneBits.lanesBelow(bytes, 0x20) | LaneBits.equalLanes(bytes, 0x22) | LaneBits.equalLanes(bytes, 0x5C)
    }

    /// Where the bytes of a JSON string end.
    enum StringEnd {
        /// At its closing quote; `hasEscape` when a backslash came before.
        case quote(end: Int, hasEscape: Bool)
        /// At a control byte, which a string must escape.
        case controlByte(at: Int)
        /// The text ends first.
        case unterminated
    }

    /// Scans a string from `start` (just past its opening quote) to its
    /// end: 16 bytes at a time to the first quote, backslash or control
    /// byte, the last 15 bytes of the text one by one. The byte after a
    /// backslash is stepped over unread: it cannot end the string, and
    /// decoding the escape checks it. Shared by the parser and the direct
    /// compose decoder, so both accept exactly the same strings.
    @inline(__always)
    static func stringEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> StringEnd {
        var doubtful = false
        return stringEnd(in: bytes, from: start, checksEscapes: false, doubtful: &doubtful)
    }

    /// `stringEnd(in:from:)`, and with `checksEscapes` (the parser, which
    /// decodes only the strings a decoder reads) each escape checked where
    /// it is found (`validEscapeLength`) and stepped over whole, so that a
    /// string need not be decoded to be known good: `doubtful` is set when
    /// the check did not vouch for one, which decoding them then names.
    @inline(__always)
    static func stringEnd(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int, checksEscapes: Bool, doubtful: inout Bool
    ) -> StringEnd {
        var cursor = start
        var hasEscape = false
        while true {
            let byte: UInt8
            if bytes.count &- cursor >= 16 {
                let base = bytes.baseAddress.unsafelyUnwrapped
                let lanes = escapeLanes(UnsafeRawPointer(base + cursor).loadUnaligned(as: SIMD16<UInt8>.self))
                #if arch(x86_64)
                // A step that finds nothing costs one test; one that finds a byte, its index too.
                guard LaneBits.anyHighLane(lanes) else {
                    cursor &+= 16
                    continue
                }
                cursor &+= LaneBits.firstHighLane(lanes)
                #else
                // Without a lane mask the index is the test (and the smaller code).
                let flagged = LaneBits.firstHighLane(lanes)
                cursor &+= flagged
                if flagged == 16 { continue }
                #endif
                // Within the 16 bytes just tested: no bounds test to repeat.
                byte = base[cursor]
            } else {
                guard cursor < bytes.count else { return .unterminated }
                byte = bytes[cursor]
            }
            if byte == UInt8(ascii: "\"") { return .quote(end: cursor, hasEscape: hasEscape) }
            if byte == UInt8(ascii: "\\") {
                hasEscape = true
                // Stepping over a whole escape finds the same end as over
                // its first two bytes: the rest are hexadecimal digits or
                // the next escape's backslash.
                let length = checksEscapes ? validEscapeLength(in: bytes, at: cursor) : 2
                if length == 0 { doubtful = true }
                cursor &+= length == 0 ? 2 : length
            } else if byte < 0x20 {
                return .controlByte(at: cursor)
            } else {
                cursor &+= 1
            }
        }
    }

    /// The length of the escape whose backslash is at `offset` when it is
    /// valid: 2 for a one-character escape, 6 for `\u` and four hexadecimal
    /// digits that are no surrogate, 12 for a high and a low surrogate
    /// escaped one after the other; 0 for any other (invalid, or a lone
    /// surrogate, which `JSONParser.unescape` then names).
    @inline(__always)
    static func validEscapeLength(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int {
        guard bytes.count &- offset > 1 else { return 0 }
        switch bytes[offset &+ 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return 2
        case UInt8(ascii: "u"): return unicodeEscapeLength(in: bytes, at: offset)
        default: return 0
        }
    }

    /// `validEscapeLength` of a `\u` escape.
    @inline(never)
    private static func unicodeEscapeLength(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int {
        guard let first = hexScalar(in: bytes, at: offset &+ 2) else { return 0 }
        if first < 0xD800 || first > 0xDFFF { return 6 }
        guard first <= 0xDBFF, bytes.count &- offset >= 8, bytes[offset &+ 6] == UInt8(ascii: "\\"),
            bytes[offset &+ 7] == UInt8(ascii: "u"), let second = hexScalar(in: bytes, at: offset &+ 8),
            second >= 0xDC00 && second <= 0xDFFF
        else { return 0 }
        return 12
    }

    /// The value of the four hexadecimal digits at `offset`, nil when they are not four such digits.
    private static func hexScalar(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32? {
        guard bytes.count &- offset >= 4 else { return nil }
        var value: UInt32 = 0
        for index in offset..<(offset &+ 4) {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
            default: return nil
            }
            value = value &<< 4 | UInt32(digit)
        }
        return value
    }
}
