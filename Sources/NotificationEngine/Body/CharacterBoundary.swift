/// Character (extended grapheme cluster) boundaries for the two cuts, found
/// locally: the cost depends on the clusters around the cut, not on the text.
enum CharacterBoundary {
    /// The UTF-8 offset of the longest prefix of `bytes` that holds at most
    /// `maxUnits` UTF-16 units and ends on a scalar boundary; `nil` when the
    /// whole of `bytes` fits.
    static func scalarPrefix(_ bytes: UnsafeBufferPointer<UInt8>, maxUnits: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var units = 0
        var offset = 0
        while offset < bytes.count {
            // Eight bytes at a time while every scalar that starts in them fits.
            // One that starts in them and ends after them is counted whole, so
            // its remaining continuation bytes are stepped over.
            if offset + 8 <= bytes.count {
                let wordUnits = ByteScan.utf16Count(word: ByteScan.load(base, offset))
                if units + wordUnits <= maxUnits {
                    units += wordUnits
                    offset += 8
                    while offset < bytes.count && base[offset] & 0xC0 == 0x80 { offset += 1 }
                    continue
                }
            }
            let lead = base[offset]
            let scalarUnits = lead >= 0xF0 ? 2 : 1
            if units + scalarUnits > maxUnits { return offset }
            units += scalarUnits
            offset += ASCII.sequenceLength(leadByte: lead)
        }
        return nil
    }

    /// The largest Character boundary of `text` at or before UTF-8 `offset`
    /// (a scalar boundary of `bytes`, which are `text`'s UTF-8).
    /// - Important: boundaries are those of the whole text: a flag pair or a
    ///   ZWJ sequence that straddles `offset` is dropped whole.
    static func roundDown(_ bytes: UnsafeBufferPointer<UInt8>, offset: Int, text: () -> String) -> Int {
        var offset = offset
        while offset > 0 && offset < bytes.count {
            let before = bytes[offset - 1]
            let after = bytes[offset]
            // Between two ASCII scalars every rule of UAX #29 breaks, except CR × LF.
            if before < 0x80 && after < 0x80 && !(before == ASCII.carriageReturn && after == ASCII.lineFeed) {
                return offset
            }
            // A common combining mark never starts a cluster after a printable
            // ASCII character or another such mark (GB9), so step back over it
            // here instead of in the standard library, which costs hundreds of
            // instructions per scalar on a cluster of thousands of marks.
            guard isCommonExtender(bytes, at: offset) else { break }
            // Four marks U+0300–U+033F (0xCC and a continuation byte) at a
            // time: each is an extender after an extender. Stops short of the
            // start so that `previous` below stays in the text.
            while offset > 8
                && ByteScan.load(bytes.baseAddress!, offset - 8) & 0xC0FF_C0FF_C0FF_C0FF == 0x80CC_80CC_80CC_80CC
            {
                offset -= 8
            }
            var previous = offset - 1
            while previous > 0 && bytes[previous] & 0xC0 == 0x80 { previous -= 1 }
            let previousByte = bytes[previous]
            guard (0x20...0x7E).contains(previousByte) || isCommonExtender(bytes, at: previous) else { break }
            offset = previous
        }
        if offset <= 0 || offset >= bytes.count { return max(offset, 0) }
        let string = text()
        let utf8 = string.utf8
        let index = utf8.index(utf8.startIndex, offsetBy: offset)
        // `index(before:)` rounds an unaligned index down to a Character boundary
        // before stepping back, so stepping forward again lands on that boundary.
        // It cannot step back from inside the first Character: unless a boundary
        // is known to lie before `offset`, find where the first Character ends.
        if !hasASCIIBoundary(bytes, before: offset) && index < string.index(after: string.startIndex) { return 0 }
        let boundary = string.index(after: string.index(before: index))
        return utf8.distance(from: utf8.startIndex, to: boundary)
    }

    /// Whether a boundary between two ASCII scalars (not CR LF) lies in the
    /// 256 bytes before `offset`; a cheap proof that the text's first Character
    /// ends before it.
    private static func hasASCIIBoundary(_ bytes: UnsafeBufferPointer<UInt8>, before offset: Int) -> Bool {
        var index = offset - 1
        while index > 0 && index >= offset - 256 {
            let before = bytes[index - 1]
            let after = bytes[index]
            if before < 0x80 && after < 0x80 && !(before == ASCII.carriageReturn && after == ASCII.lineFeed) {
                return true
            }
            index -= 1
        }
        return false
    }

    /// Whether the scalar at `offset` is a combining mark or joiner that
    /// always has Grapheme_Cluster_Break Extend or ZWJ, in ranges fully
    /// assigned since Unicode 8: U+0300–U+036F, U+20D0–U+20F0, U+FE00–U+FE0F,
    /// U+FE20–U+FE2F and U+200D.
    private static func isCommonExtender(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        let lead = bytes[offset]
        if lead == 0xCC { return offset + 1 < bytes.count }  // U+0300–U+033F
        if lead == 0xCD { return offset + 1 < bytes.count && bytes[offset + 1] <= 0xAF }  // U+0340–U+036F
        guard offset + 2 < bytes.count else { return false }
        let second = bytes[offset + 1]
        let third = bytes[offset + 2]
        if lead == 0xE2 && second == 0x80 { return third == 0x8D }  // U+200D
        if lead == 0xE2 && second == 0x83 { return (0x90...0xB0).contains(third) }  // U+20D0–U+20F0
        // U+FE00–U+FE0F, U+FE20–U+FE2F
        if lead == 0xEF && second == 0xB8 { return third <= 0x8F || (0xA0...0xAF).contains(third) }
        return false
    }
}
