/// The bytes the body rules look at. Every one is ASCII, so scanning UTF-8
/// bytes is scanning Unicode scalars: no byte of a multi-byte scalar can equal
/// one of them, and a combining mark after a backtick leaves it a backtick.
enum ASCII {
    static let tab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let exclamationMark: UInt8 = 0x21
    static let leftParenthesis: UInt8 = 0x28
    static let rightParenthesis: UInt8 = 0x29
    static let asterisk: UInt8 = 0x2A
    static let leftBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let rightBracket: UInt8 = 0x5D
    static let backtick: UInt8 = 0x60
    static let tilde: UInt8 = 0x7E

    /// U+0020 SPACE and U+0009 TAB.
    @inline(__always)
    static func isHorizontalSpace(_ byte: UInt8) -> Bool { byte == space || byte == tab }

    /// Horizontal space plus U+000A LINE FEED: nothing else counts (not NBSP, not U+2028).
    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool { byte == space || byte == tab || byte == lineFeed }

    /// ASCII punctuation as CommonMark defines it for backslash escapes.
    @inline(__always)
    static func isPunctuation(_ byte: UInt8) -> Bool {
        (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte)
            || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
    }

    /// UTF-16 units of the scalar whose UTF-8 sequence starts with `byte`
    /// (0 for a continuation byte, so summing over all bytes counts units).
    @inline(__always)
    static func utf16Units(leadByte byte: UInt8) -> Int {
        if byte & 0xC0 == 0x80 { return 0 }
        return byte >= 0xF0 ? 2 : 1
    }

    /// Length in bytes of the UTF-8 sequence that starts with `byte`.
    @inline(__always)
    static func sequenceLength(leadByte byte: UInt8) -> Int {
        byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
    }
}
