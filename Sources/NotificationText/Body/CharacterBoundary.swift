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
            // Eight ASCII bytes at a time while they cannot reach the limit.
            if offset + 8 <= bytes.count && units + 8 <= maxUnits
                && UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                units += 8
                offset += 8
                continue
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
        if offset <= 0 || offset >= bytes.count { return offset }
        let before = bytes[offset - 1]
        let after = bytes[offset]
        // Between two ASCII scalars every rule of UAX #29 breaks, except CR × LF.
        if before < 0x80 && after < 0x80 && !(before == ASCII.carriageReturn && after == ASCII.lineFeed) {
            return offset
        }
        let string = text()
        let utf8 = string.utf8
        let index = utf8.index(utf8.startIndex, offsetBy: offset)
        // `index(before:)` rounds an unaligned index down to a Character boundary
        // before stepping back, so stepping forward again lands on that boundary.
        // It cannot step back from inside the first Character, hence this check.
        let firstEnd = string.index(after: string.startIndex)
        if index < firstEnd { return 0 }
        let boundary = string.index(after: string.index(before: index))
        return utf8.distance(from: utf8.startIndex, to: boundary)
    }
}
