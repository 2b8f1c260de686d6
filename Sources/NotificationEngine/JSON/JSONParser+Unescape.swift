import EnginePrimitives

/// A string's escapes, decoded: by the parser's check of every string with
/// escapes, by the tape when a decoder reads one, and by the compose reader.
extension JSONParser {
    /// Decodes the escapes of a string's raw bytes into `output`; returns
    /// the length written. `output` holds at least `raw.count` bytes, or,
    /// with a `limit`, at least `limit + 16`: decoding then stops once it
    /// has written `limit` bytes or more (a prefix of the decoded string,
    /// which may end inside a scalar), and checks nothing after them.
    static func unescape(
        _ raw: UnsafeBufferPointer<UInt8>, baseOffset: Int, into output: UnsafeMutableBufferPointer<UInt8>,
        limit: Int = .max
    ) throws(JSONParseError) -> Int {
        var read = 0
        var written = 0
        while read < raw.count {
            // Plain runs 16, then 8 bytes at a time, each copied whole:
            // bytes past a backslash are overwritten after it. Writing never
            // passes reading and the output is as long as the input (or
            // stops 16 bytes short of its end), so what is copied fits.
            var found = false
            while raw.count &- read >= 16 && written < limit {
                let lanes = UnsafeRawPointer(raw.baseAddress.unsafelyUnwrapped + read).loadUnaligned(
                    as: SIMD16<UInt8>.self)
                UnsafeMutableRawPointer(output.baseAddress.unsafelyUnwrapped + written).storeBytes(
                    of: lanes, as: SIMD16<UInt8>.self)
                let plain = LaneBits.firstHighLane(JSONByteClass.backslashLanes(lanes))
                if plain < 16 {
                    read &+= plain
                    written &+= plain
                    found = true
                    break
                }
                read &+= 16
                written &+= 16
            }
            // Words only for what is left past the last 16 (the backslash
            // just found would stop the first word at once).
            while !found && raw.count &- read >= 8 && written < limit {
                let word = UnsafeRawPointer(raw.baseAddress.unsafelyUnwrapped + read).loadUnaligned(as: UInt64.self)
                UnsafeMutableRawPointer(output.baseAddress.unsafelyUnwrapped + written).storeBytes(
                    of: word, as: UInt64.self)
                let mask = JSONByteClass.backslashMask(word)
                if mask != 0 {
                    let plain = mask.trailingZeroBitCount &>> 3
                    read &+= plain
                    written &+= plain
                    break
                }
                read &+= 8
                written &+= 8
            }
            guard read < raw.count && written < limit else { break }
            let byte = raw[read]
            if byte != UInt8(ascii: "\\") {
                output[written] = byte
                written += 1
                read += 1
                continue
            }
            let escapeOffset = baseOffset + read
            guard read + 1 < raw.count else {
                throw JSONParseError(.syntax, offset: escapeOffset, "unterminated string")
            }
            let kind = raw[read + 1]
            read += 2
            let simple: UInt8
            switch kind {
            case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
            case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
            case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
            case UInt8(ascii: "b"): simple = 0x08
            case UInt8(ascii: "f"): simple = 0x0C
            case UInt8(ascii: "n"): simple = 0x0A
            case UInt8(ascii: "r"): simple = 0x0D
            case UInt8(ascii: "t"): simple = 0x09
            case UInt8(ascii: "u"):
                var scalar = try hex4(raw, at: read, baseOffset: baseOffset, escapeOffset: escapeOffset)
                read += 4
                if scalar >= 0xD800 && scalar <= 0xDBFF {
                    // A high surrogate must be followed at once by a `\u` low surrogate.
                    guard read + 6 <= raw.count, raw[read] == UInt8(ascii: "\\"), raw[read + 1] == UInt8(ascii: "u")
                    else {
                        throw JSONParseError(
                            .loneSurrogate, offset: escapeOffset,
                            "lone surrogate escape \\u\(hex4String(scalar)) (a high surrogate not followed by a low one)"
                        )
                    }
                    let low = try hex4(raw, at: read + 2, baseOffset: baseOffset, escapeOffset: baseOffset + read)
                    guard low >= 0xDC00 && low <= 0xDFFF else {
                        throw JSONParseError(
                            .loneSurrogate, offset: escapeOffset,
                            "lone surrogate escape \\u\(hex4String(scalar)) (a high surrogate not followed by a low one)"
                        )
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    read += 6
                } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                    throw JSONParseError(
                        .loneSurrogate, offset: escapeOffset,
                        "lone surrogate escape \\u\(hex4String(scalar)) (a low surrogate without a high one)")
                }
                written += encodeUTF8(scalar, into: output, at: written)
                continue
            default:
                throw JSONParseError(.syntax, offset: escapeOffset, "invalid escape sequence '\\\(printable(kind))'")
            }
            output[written] = simple
            written += 1
        }
        return written
    }

    private static func hex4(_ raw: UnsafeBufferPointer<UInt8>, at position: Int, baseOffset: Int, escapeOffset: Int)
        throws(JSONParseError) -> UInt32
    {
        guard position + 4 <= raw.count else {
            throw JSONParseError(.syntax, offset: escapeOffset, "a \\u escape needs 4 hexadecimal digits")
        }
        var value: UInt32 = 0
        for i in position..<(position + 4) {
            let byte = raw[i]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default:
                throw JSONParseError(.syntax, offset: escapeOffset, "a \\u escape needs 4 hexadecimal digits")
            }
            value = value << 4 | digit
        }
        return value
    }

    private static func encodeUTF8(_ scalar: UInt32, into output: UnsafeMutableBufferPointer<UInt8>, at position: Int)
        -> Int
    {
        // Every escape is 6 raw bytes (12 for a pair), more than its UTF-8 (≤ 4), so this fits.
        switch scalar {
        case 0..<0x80:
            output[position] = UInt8(scalar)
            return 1
        case 0x80..<0x800:
            output[position] = UInt8(0xC0 | scalar >> 6)
            output[position + 1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case 0x800..<0x10000:
            output[position] = UInt8(0xE0 | scalar >> 12)
            output[position + 1] = UInt8(0x80 | (scalar >> 6) & 0x3F)
            output[position + 2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            output[position] = UInt8(0xF0 | scalar >> 18)
            output[position + 1] = UInt8(0x80 | (scalar >> 12) & 0x3F)
            output[position + 2] = UInt8(0x80 | (scalar >> 6) & 0x3F)
            output[position + 3] = UInt8(0x80 | scalar & 0x3F)
            return 4
        }
    }

    /// A byte as it may be shown in a message: itself when visible ASCII, else `\\xNN`.
    static func printable(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? String(Character(Unicode.Scalar(byte))) : "\\x\(hex2(byte))"
    }

    /// Four upper-case hexadecimal digits.
    static func hex4String(_ value: UInt32) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return String(decoding: [12, 8, 4, 0].map { digits[Int((value >> UInt32($0)) & 0xF)] }, as: UTF8.self)
    }
}
