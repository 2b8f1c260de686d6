import Testing

@testable import NotificationEngine

@Suite struct JSONWriterTests {
    /// What `build` writes, written twice: into an array that is large enough,
    /// and into one that is too small (so the writer counts, then writes again).
    private func written(_ build: (inout JSONWriter) -> Void) -> String {
        let roomy = JSONWriter.bytes(capacity: 1 << 20, build)
        let tight = JSONWriter.bytes(capacity: 1, build)
        #expect(tight == roomy, "the second run into an exactly sized array writes the same bytes")
        return String(decoding: roomy, as: UTF8.self)
    }

    @Test func string_escapesQuoteBackslashAndControls() {
        #expect(
            written { $0.string("a\"b\\c\nd\re\tf\u{08}g\u{0C}h\u{0}i\u{1F}j") }
                == #""a\"b\\c\nd\re\tf\bg\fh\u0000i\u001fj""#)
    }

    @Test func string_copiesNonASCIIAndSlashAsIs() {
        #expect(written { $0.string("é/😀\u{2028}\u{7F}") } == "\"é/😀\u{2028}\u{7F}\"")
    }

    @Test func string_longRunWithoutEscapes_isCopiedWhole() {
        let text = String(repeating: "abc ", count: 10_000)
        #expect(written { $0.string(text) } == "\"" + text + "\"")
    }

    /// A byte-by-byte reference for the word-at-a-time escaper (ASCII text).
    private func referenceEscaped(_ text: String) -> String {
        var out = "\""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += "\\\""
            case UInt8(ascii: "\\"): out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0..<0x20: out += "\\u00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
            default: out.unicodeScalars.append(Unicode.Scalar(byte))  // ASCII inputs only
            }
        }
        return out + "\""
    }

    @Test func string_escapesAtEveryPositionOfAWord() {
        for special in ["\"", "\\", "\n", "\u{1}", "\u{1F}"] {
            for position in 0..<40 {
                let text =
                    String(repeating: "a", count: position) + special + String(repeating: "b", count: 39 - position)
                #expect(
                    written { $0.string(text) } == referenceEscaped(text), "\(special.debugDescription) at \(position)")
            }
        }
    }

    @Test func string_atEveryShortLength_escapesAtEveryPositionAndCopiesPlainText() {
        // Plain words are stored as they are tested: an escape found late must overwrite them.
        for length in 0...24 {
            let plain = String(repeating: "p", count: length)
            #expect(written { $0.string(plain) } == referenceEscaped(plain), "plain, length \(length)")
            for position in 0..<length {
                for special in ["\"", "\u{1}"] {
                    let text =
                        String(repeating: "a", count: position) + special
                        + String(repeating: "b", count: length - 1 - position)
                    #expect(
                        written { $0.string(text) } == referenceEscaped(text),
                        "length \(length), \(special.debugDescription) at \(position)")
                    #expect(
                        written { json in text.utf8.withContiguousStorageIfAvailable { json.escaped($0) } }
                            == String(referenceEscaped(text).dropFirst().dropLast()),
                        "escaped, length \(length), \(special.debugDescription) at \(position)")
                }
            }
        }
    }

    @Test func raw_atEveryLengthAfterEveryShortPrefix_copiesTheBytesInOrder() {
        // Distinct bytes, so a word stored at a wrong offset shows.
        let source = (0..<48).map { UInt8(ascii: "A") + UInt8($0) }
        for length in 0...40 {
            for prefix in 0..<3 {
                let json = written { w in
                    for _ in 0..<prefix { w.raw("-") }
                    source.withUnsafeBufferPointer { w.raw(UnsafeBufferPointer(rebasing: $0[3..<(3 + length)])) }
                    w.raw("|")
                }
                let expected =
                    String(repeating: "-", count: prefix) + String(decoding: source[3..<(3 + length)], as: UTF8.self)
                    + "|"
                #expect(json == expected, "length \(length) after \(prefix)")
            }
        }
    }

    @Test func needsNoEscape_findsAnEscapeAtEveryPositionOfEveryShortLength() {
        for length in 0..<40 {
            let plain = Array(repeating: UInt8(ascii: "a"), count: length)
            #expect(plain.withUnsafeBufferPointer { JSONWriter.needsNoEscape($0) }, "length \(length)")
            for position in 0..<length {
                for special in [UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x00, 0x1F] {
                    var bytes = plain
                    bytes[position] = special
                    #expect(
                        !bytes.withUnsafeBufferPointer { JSONWriter.needsNoEscape($0) },
                        "\(special) at \(position) of \(length)")
                }
            }
        }
    }

    @Test func needsNoEscape_bytesFromSpaceUpExceptQuoteAndBackslash_needNone() {
        let plain = (0x20...0xFF).map(UInt8.init).filter { $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        for length in 0..<40 {
            for start in stride(from: 0, to: plain.count - length, by: 7) {
                let bytes = Array(plain[start..<start + length])
                #expect(
                    bytes.withUnsafeBufferPointer { JSONWriter.needsNoEscape($0) }, "length \(length) from \(start)")
            }
        }
    }

    @Test func string_highBytesNeverLookLikeEscapes() {
        // U+00A2 (C2 A2), U+5C5C-ish lead bytes, U+22xx: bytes with 0x22/0x5C in the low 7 bits.
        let text = "\u{A2}\u{DC}\u{E2}\u{2222}\u{5C5C}\u{1F5C}é😀" + String(repeating: "\u{A2}", count: 9)
        #expect(written { $0.string(text) } == "\"" + text + "\"")
    }

    @Test func writer_writesLiteralsAndValuesInOrder() {
        let json = written { w in
            w.raw(#"{"a":["#)
            w.integer(1)
            w.raw(",")
            w.null()
            w.raw(",true,false")
            w.raw(#"],"b":"#)
            w.string(nil as String?)
            w.raw(#","c":"x"#)
            Array("\"\n".utf8).withUnsafeBufferPointer { w.escaped($0) }
            w.raw(#""}"#)
        }
        #expect(json == #"{"a":[1,null,true,false],"b":null,"c":"x\"\n"}"#)
    }

    @Test(arguments: [0, 1, 5, 6, 7, 100, 1_024, 1_025, 4_000])
    func bytes_atAnyCapacity_areExactlyTheBytesWritten(_ capacity: Int) {
        let bytes = JSONWriter.bytes(capacity: capacity) { $0.string("abcd") }
        #expect(bytes == Array(#""abcd""#.utf8), "capacity \(capacity)")
        #expect(JSONWriter.bytes(capacity: capacity) { _ in } == [], "capacity \(capacity)")
        // Longer than the stack's 1 KiB and than most of these estimates.
        let long = String(repeating: "ab\"c", count: 500)
        let longBytes = JSONWriter.bytes(capacity: capacity) { $0.string(long) }
        let escaped = String(repeating: #"ab\"c"#, count: 500)
        #expect(longBytes == Array(("\"" + escaped + "\"").utf8), "capacity \(capacity)")
    }

    @Test(arguments: [0, 7, -7, 9, 10, 11, 99, 100, 101, 200, 999, 1000, 1001, 4096, Int.max, Int.min])
    func integer_writesDecimal(_ value: Int) {
        #expect(written { $0.integer(value) } == String(value))
    }

    @Test(arguments: [
        "", "plain", "\u{0}\u{1}\u{1F} \"\\/", "é\u{301}😀", String(repeating: "\u{7}x", count: 300),
    ])
    func string_roundTripsThroughTheParser(_ text: String) throws {
        let bytes = written { $0.string(text) }
        let parsed = try JSONParser.parse(Array(bytes.utf8))
        #expect(parsed == .string(text))
    }

    @Test func value_writesParsedDocumentBackCompactly() throws {
        let text = #"{ "a" : [ 1.50 , -0, 2e3, "x\u00e9" ], "b": { "c": null, "d": false } }"#
        let value = try JSONParser.parse(Array(text.utf8))
        #expect(written { $0.value(value) } == #"{"a":[1.50,-0,2e3,"xé"],"b":{"c":null,"d":false}}"#)
    }
}
