/// The byte scans that every request line and field line passes through,
/// eight bytes at a time: control characters in a value, visible ASCII in a
/// target or a name, and a name or value compared with a lowercase constant
/// ignoring ASCII case.
extension RequestHead {
    /// Whether `bytes` hold a control character other than HTAB, or DEL:
    /// eight bytes at a time (any byte below 0x20 or equal to 0x7F flags a
    /// word, which is then looked at byte by byte for a tab; the last word
    /// overlaps the one before it rather than leaving a tail).
    static func hasControlCharacter(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard count >= 8 else {
            for index in 0..<count where isControl(bytes[index]) { return true }
            return false
        }
        var index = 0
        while true {
            let word = UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)
            let below0x20 = (word &- ones &* 0x20) & ~word & highBits
            let delete = word ^ (ones &* 0x7F)
            let isDelete = (delete &- ones) & ~delete & highBits
            if below0x20 | isDelete != 0 {
                for offset in index..<(index + 8) where isControl(bytes[offset]) { return true }
            }
            if index + 8 == count { return false }
            index = min(index + 8, count - 8)
        }
    }

    /// Whether every byte is in 0x21...0x7E, eight at a time (the last word
    /// overlaps the one before it rather than leaving a tail).
    static func isVisibleASCII(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard count >= 8 else {
            for index in 0..<count where bytes[index] <= 0x20 || bytes[index] >= 0x7F { return false }
            return true
        }
        var index = 0
        while true {
            let word = UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)
            // High bit set, below 0x21, or 0x7F (which adding 1 carries into the high bit).
            let below0x21 = (word &- ones &* 0x21) & ~word & highBits
            let delete = ((word & ~highBits) &+ ones) & highBits
            if (word & highBits) | below0x21 | delete != 0 { return false }
            if index + 8 == count { return true }
            index = min(index + 8, count - 8)
        }
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    @inline(__always)
    private static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09) || byte == 0x7F
    }

    /// `name` (visible ASCII, or a value without control characters) equals
    /// `lowercase` (letters, digits and "-") ignoring ASCII case: the bytes
    /// that fold onto a digit or "-" are all control characters. Eight bytes
    /// at a time, the last word overlapping the one before it.
    static func foldedEquals(_ name: UnsafePointer<UInt8>, _ count: Int, _ lowercase: StaticString) -> Bool {
        guard count == lowercase.utf8CodeUnitCount else { return false }
        let expected = UnsafeRawPointer(lowercase.utf8Start)
        let bytes = UnsafeRawPointer(name)
        guard count >= 8 else {
            for index in 0..<count where name[index] | 0x20 != lowercase.utf8Start[index] { return false }
            return true
        }
        let fold: UInt64 = 0x2020_2020_2020_2020
        var index = 0
        while true {
            // Digits and "-" already have the 0x20 bit; folding leaves them be.
            let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if word | fold != expected.loadUnaligned(fromByteOffset: index, as: UInt64.self) { return false }
            if index + 8 == count { return true }
            index = min(index + 8, count - 8)
        }
    }
}
