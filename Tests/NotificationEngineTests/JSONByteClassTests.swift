import Testing

@testable import NotificationEngine

/// The vector byte tests that find where a JSON string ends and that copy
/// plain runs while decoding escapes, against a byte-by-byte reading, with
/// the byte that matters at every offset around the 16-byte steps.
@Suite struct JSONByteClassTests {
    /// Where a byte-by-byte reading of RFC 8259 ends the string from `start`.
    private static func expectedEnd(_ bytes: [UInt8], from start: Int) -> String {
        var cursor = start
        var hasEscape = false
        while cursor < bytes.count {
            switch bytes[cursor] {
            case UInt8(ascii: "\""): return "quote \(cursor) \(hasEscape)"
            case UInt8(ascii: "\\"):
                hasEscape = true
                cursor += 2
            case 0..<0x20: return "control \(cursor)"
            default: cursor += 1
            }
        }
        return "unterminated"
    }

    private static func end(_ bytes: [UInt8], from start: Int) -> String {
        switch bytes.withUnsafeBufferPointer({ JSONByteClass.stringEnd(in: $0, from: start) }) {
        case .quote(let end, let hasEscape): "quote \(end) \(hasEscape)"
        case .controlByte(let offset): "control \(offset)"
        case .unterminated: "unterminated"
        }
    }

    @Test func eachByteThatEndsOrEscapesAString_isFoundAtEveryOffset() {
        // A quote, a backslash (escaping the byte after it), control bytes,
        // and bytes a borrowing word test could mistake for them.
        let specials: [UInt8] = [0x22, 0x5C, 0x00, 0x1F, 0x0A, 0x20, 0x21, 0x5B, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xFF]
        for length in [1, 15, 16, 17, 31, 32, 33, 47, 70] {
            for offset in 0..<length {
                for special in specials {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[offset] = special
                    bytes.append(UInt8(ascii: "\""))
                    bytes += [UInt8](repeating: UInt8(ascii: "b"), count: 20)
                    #expect(
                        Self.end(bytes, from: 0) == Self.expectedEnd(bytes, from: 0),
                        "length \(length), byte \(special) at \(offset)")
                }
            }
        }
    }

    @Test func randomStrings_endWhereAByteReadingEnds() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x22, 0x5C, 0x01, 0x1F, 0x20, 0x41, 0x61, 0x7E, 0xC3, 0xA9, 0xFF]
        for _ in 0..<3_000 {
            let count = Int.random(in: 0...80, using: &generator)
            let bytes = (0..<count).map { _ in
                Bool.random(using: &generator) ? UInt8(ascii: "x") : alphabet.randomElement(using: &generator)!
            }
            let start = count == 0 ? 0 : Int.random(in: 0..<count, using: &generator)
            #expect(Self.end(bytes, from: start) == Self.expectedEnd(bytes, from: start), "\(bytes) from \(start)")
        }
    }

    @Test func firstEscapeIndex_isTheFirstFlaggedByteOr16() {
        for offset in 0..<16 {
            for special: UInt8 in [0x22, 0x5C, 0x00, 0x1F] {
                var bytes = [UInt8](repeating: UInt8(ascii: "z"), count: 16)
                bytes[offset] = special
                if offset < 15 { bytes[15] = 0x22 }
                let index = bytes.withUnsafeBytes { JSONByteClass.firstEscapeIndex(in16: $0.baseAddress!) }
                #expect(index == offset)
            }
        }
        let plain = [UInt8](repeating: 0x7F, count: 16)
        #expect(plain.withUnsafeBytes { JSONByteClass.firstEscapeIndex(in16: $0.baseAddress!) } == 16)
    }

    /// Escapes at every offset of strings longer than one 16-byte step:
    /// decoding gives back the text that was escaped.
    @Test func unescape_decodesAnEscapeAtEveryOffset() throws {
        let escapes: [(raw: String, decoded: String)] = [
            (#"\n"#, "\n"), (#"\""#, "\""), (#"\\"#, "\\"), (#"\/"#, "/"), (#"\u00e9"#, "é"),
            (#"\ud83d\ude00"#, "😀"),
        ]
        for length in [15, 16, 17, 33, 50] {
            for offset in 0...length {
                for escape in escapes {
                    let plain = String(repeating: "p", count: length)
                    let index = plain.index(plain.startIndex, offsetBy: offset)
                    let raw = Array((plain[..<index] + escape.raw + plain[index...]).utf8)
                    let decoded = Array((plain[..<index] + escape.decoded + plain[index...]).utf8)
                    let written = try raw.withUnsafeBufferPointer { raw in
                        try [UInt8](unsafeUninitializedCapacity: raw.count) { output, count in
                            count = try JSONParser.unescape(raw, baseOffset: 0, into: output)
                        }
                    }
                    #expect(written == decoded, "length \(length), \(escape.raw) at \(offset)")
                }
            }
        }
    }
}
