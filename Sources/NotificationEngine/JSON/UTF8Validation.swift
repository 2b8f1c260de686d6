/// Well-formed UTF-8 as RFC 3629 (and Unicode table 3-7) defines it: no
/// overlong forms, no encoded surrogates, nothing above U+10FFFF.
enum UTF8Validation {
    /// The offset of the first byte that starts an ill-formed sequence, or nil
    /// when all of `bytes` is well-formed.
    static func firstInvalidOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var i = 0
        while i < count {
            // ASCII runs, 128, 32, then 8 bytes at a time: the common case
            // for JSON. 128 bytes are eight vector loads joined by OR, and one
            // test of the high bits.
            while count &- i >= 128 {
                let block = UnsafeRawPointer(base + i)
                var joined = block.loadUnaligned(as: SIMD16<UInt8>.self)
                for offset in stride(from: 16, to: 128, by: 16) {
                    joined |= block.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
                }
                let halves = unsafeBitCast(joined, to: SIMD2<UInt64>.self)
                if (halves[0] | halves[1]) & 0x8080_8080_8080_8080 != 0 { break }
                i &+= 128
            }
            while count &- i >= 32 {
                let words = UnsafeRawPointer(base + i)
                let any =
                    words.loadUnaligned(as: UInt64.self) | words.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                    | words.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
                    | words.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
                if any & 0x8080_8080_8080_8080 != 0 { break }
                i &+= 32
            }
            while i + 8 <= count {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { break }
                i += 8
            }
            guard i < count else { return nil }
            let lead = base[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            // The allowed range of the second byte depends on the lead byte.
            let length: Int
            var secondLow: UInt8 = 0x80
            var secondHigh: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                secondLow = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                secondHigh = 0x9F
            case 0xF0:
                length = 4
                secondLow = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                secondHigh = 0x8F
            default: return i
            }
            guard i + length <= count else { return i }
            let second = base[i + 1]
            guard second >= secondLow && second <= secondHigh else { return i }
            for k in 2..<max(2, length) where base[i + k] & 0xC0 != 0x80 {
                return i
            }
            i += length
        }
        return nil
    }
}
