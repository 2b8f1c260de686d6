import EngineTestSupport
import Testing

@testable import NotificationEngine

/// The text primitives compose is built on: white-space normalisation and
/// the cap, code-point order and equality, the distinct-strings table and
/// the key hash.
@Suite struct TextPrimitiveTests {
    // MARK: plain text

    @Test func normalised_turnsEveryWhiteSpaceRunIntoOneSpace() {
        let whiteSpace: [Unicode.Scalar] = [
            "\u{9}", "\u{A}", "\u{B}", "\u{C}", "\u{D}", "\u{20}", "\u{85}", "\u{A0}", "\u{1680}",
            "\u{2000}", "\u{2005}", "\u{200A}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}",
        ]
        for scalar in whiteSpace {
            let text = "\(scalar)\(scalar)a\(scalar)\(scalar)b\(scalar)"
            #expect(PlainText.normalised(text) == "a b", "U+\(String(scalar.value, radix: 16))")
        }
        #expect(PlainText.normalised("a \r\n\t\u{A0}\u{3000} b") == "a b")
    }

    @Test func normalised_asciiFastPathAgreesWithTheWhiteSpaceProperty() {
        for value in UInt8(0)..<0x80 {
            let scalar = Unicode.Scalar(value)
            let expected = scalar.properties.isWhitespace ? nil : String(scalar)
            #expect(PlainText.normalised(String(scalar)) == expected, "U+\(String(value, radix: 16))")
        }
    }

    /// The byte-level scan decodes only four lead bytes: every other scalar must not be white space.
    @Test func whiteSpaceLength_agreesWithTheWhiteSpacePropertyForEveryScalar() {
        var mismatches: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let utf8 = Array(String(scalar).utf8)
            let length = utf8.withUnsafeBufferPointer { PlainText.whiteSpaceLength($0, at: 0) }
            if length != (scalar.properties.isWhitespace ? utf8.count : 0) { mismatches.append(value) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10).map { String($0, radix: 16) })")
    }

    @Test func normalised_fastAndCopyingPathsAgreeAroundNonASCII() {
        // Already normal (returned as is), and needing a copy, with neighbours
        // of the decoded lead bytes that are not white space.
        #expect(PlainText.normalised("\u{A9} \u{1681}\u{2010}\u{3001}") == "\u{A9} \u{1681}\u{2010}\u{3001}")
        #expect(PlainText.normalised("\u{A9}\u{A0}\u{1681}\u{2028} \u{3001}\u{3000}") == "\u{A9} \u{1681} \u{3001}")
        #expect(PlainText.normalised("Eve\u{A0}Park") == "Eve Park")
        #expect(PlainText.normalised("caf\u{E9}  \u{1F600}") == "caf\u{E9} \u{1F600}")
    }

    @Test func normalised_whenOnlyWhiteSpaceOrNil_isNil() {
        #expect(PlainText.normalised(nil) == nil)
        #expect(PlainText.normalised("") == nil)
        #expect(PlainText.normalised(" \u{A0}\n\u{2003}") == nil)
    }

    @Test func normalised_keepsInvisiblesThatAreNotWhiteSpace() {
        for scalar: Unicode.Scalar in ["\u{200B}", "\u{FEFF}", "\u{180E}", "\u{200D}"] {
            #expect(PlainText.normalised(" \(scalar) ")?.unicodeScalars.elementsEqual([scalar]) == true)
        }
    }

    @Test func capped_whenLongerThan256Units_keeps255AndEllipsis() {
        #expect(PlainText.capped(String(repeating: "a", count: 256)) == String(repeating: "a", count: 256))
        #expect(PlainText.capped(String(repeating: "a", count: 257)) == String(repeating: "a", count: 255) + "…")
    }

    // MARK: code points

    @Test func codePointOrder_differsFromSwiftStringOrder() {
        // Swift orders OHM SIGN as its NFC form U+03A9; code-point order does not.
        #expect("\u{2126}" < "\u{03AA}")
        #expect(CodePoints.less("\u{03AA}", "\u{2126}"))
        #expect(!CodePoints.less("\u{2126}", "\u{03AA}"))
        // And not UTF-16 order either: U+FF01 < U+1F600.
        #expect(CodePoints.less("\u{FF01}", "\u{1F600}"))
        #expect(CodePoints.less("e\u{301}", "\u{E9}"))
        #expect(!CodePoints.equal("e\u{301}", "\u{E9}"))
        #expect(CodePoints.equal("\u{E9}", "\u{E9}"))
    }

    @Test func codePointsEqual_findsADifferenceAtEveryPositionOfEveryShortLength() {
        for length in 0..<40 {
            let plain = String(repeating: "a", count: length)
            #expect(CodePoints.equal(plain, String(repeating: "a", count: length)), "length \(length)")
            #expect(!CodePoints.equal(plain, plain + "a"))
            for position in 0..<length {
                var bytes = Array(plain.utf8)
                bytes[position] = UInt8(ascii: "b")
                #expect(!CodePoints.equal(plain, String(decoding: bytes, as: UTF8.self)), "at \(position) of \(length)")
            }
        }
    }

    /// Inserts `values` into a `DistinctStrings` (views of one joined buffer);
    /// what each insert returned, what `contains` said before it, and the values kept.
    private func distinct(_ values: [String]) -> (inserted: [Bool], contained: [Bool], kept: [String]) {
        let joined = Array(values.joined().utf8)
        return joined.withUnsafeBufferPointer { all in
            DistinctStrings.with(capacity: values.count) { strings in
                var offset = 0
                var inserted: [Bool] = []
                var contained: [Bool] = []
                for value in values {
                    let count = value.utf8.count
                    let view = UnsafeBufferPointer(rebasing: all[offset..<(offset + count)])
                    contained.append(strings.contains(view))
                    inserted.append(strings.insert(view))
                    offset += count
                }
                return (inserted, contained, strings.values.map { String(decoding: $0, as: UTF8.self) })
            }
        }
    }

    @Test func distinctStrings_canonicallyEquivalentStringsAreDistinct() {
        let (inserted, contained, kept) = distinct(["caf\u{E9}", "cafe\u{301}", "caf\u{E9}"])
        #expect(inserted == [true, true, false])
        #expect(contained == [false, false, true])
        #expect(kept.map { Array($0.utf8) } == ["caf\u{E9}", "cafe\u{301}"].map { Array($0.utf8) })
    }

    @Test func distinctStrings_beyondTheDirectlyComparedFew_hashesAndKeepsInsertionOrder() {
        let names = (0..<100).map { "n\($0)" }
        let (inserted, contained, kept) = distinct(names + names)
        #expect(inserted == Array(repeating: true, count: 100) + Array(repeating: false, count: 100))
        #expect(contained == inserted.map { !$0 })
        #expect(kept == names)
    }

    @Test func distinctStrings_atEveryShortLength_tellsApartTextsThatDifferInOneByte() {
        // Few enough per set to be compared directly, by length and word.
        for length in 0...20 {
            let plain = String(repeating: "a", count: length)
            for position in 0..<max(length, 1) {
                var bytes = Array(plain.utf8)
                if length > 0 { bytes[position] = UInt8(ascii: "b") }
                let other = String(decoding: bytes, as: UTF8.self)
                let shorter = String(plain.dropLast())
                let values = [plain, other, shorter, plain + "a", other, plain, shorter]
                let (inserted, contained, kept) = distinct(values)
                let expected =
                    length == 0
                    ? [true, false, false, true, false, false, false]
                    : [true, true, true, true, false, false, false]
                #expect(inserted == expected, "at \(position) of \(length)")
                #expect(contained == inserted.map { !$0 }, "at \(position) of \(length)")
                #expect(kept.count == expected.filter { $0 }.count, "at \(position) of \(length)")
            }
        }
    }

    @Test func keyHash_matchesSipHashReferenceVectors() {
        // SipHash-2-4 vectors of the reference implementation (key 00…0f,
        // message 00 01 02 … of each length): the same code runs 1-3 rounds.
        let hash = KeyHash(k0: 0x0706_0504_0302_0100, k1: 0x0f0e_0d0c_0b0a_0908)
        let message: [UInt8] = Array(0..<15)
        let expected: [Int: UInt64] = [
            0: 0x726f_db47_dd0e_0e31, 1: 0x74f8_39c5_93dc_67fd, 7: 0xab02_00f5_8b01_d137,
            8: 0x93f5_f579_9a93_2462, 15: 0xa129_ca61_49be_45e5,
        ]
        for (length, value) in expected {
            let actual = message.prefix(length).withUnsafeBufferPointer {
                hash.sipHash($0, compressionRounds: 2, finalizationRounds: 4)
            }
            #expect(actual == value, "length \(length)")
        }
    }

    @Test func keyHash_atEveryLengthUpTo40_matchesAByteAtATimeSipHash() {
        // The last block is read with overlapping loads; the reference reads it byte by byte.
        let message: [UInt8] = (0..<40).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 200) }
        for (k0, k1) in [(UInt64(0x0706_0504_0302_0100), UInt64(0x0f0e_0d0c_0b0a_0908)), (.max, 0x1234_5678)] {
            let hash = KeyHash(k0: k0, k1: k1)
            for length in 0...message.count {
                let bytes = Array(message.prefix(length))
                let actual = bytes.withUnsafeBufferPointer { hash.hash($0) }
                #expect(actual == referenceSipHash13(bytes, k0: k0, k1: k1), "length \(length)")
            }
        }
    }

    /// SipHash-1-3 as the paper writes it: whole words, then the last bytes one at a time.
    private func referenceSipHash13(_ bytes: [UInt8], k0: UInt64, k1: UInt64) -> UInt64 {
        func rotl(_ x: UInt64, _ b: UInt64) -> UInt64 { (x << b) | (x >> (64 - b)) }
        var v0 = k0 ^ 0x736f_6d65_7073_6575, v1 = k1 ^ 0x646f_7261_6e64_6f6d
        var v2 = k0 ^ 0x6c79_6765_6e65_7261, v3 = k1 ^ 0x7465_6462_7974_6573
        func round() {
            v0 &+= v1
            v1 = rotl(v1, 13)
            v1 ^= v0
            v0 = rotl(v0, 32)
            v2 &+= v3
            v3 = rotl(v3, 16)
            v3 ^= v2
            v0 &+= v3
            v3 = rotl(v3, 21)
            v3 ^= v0
            v2 &+= v1
            v1 = rotl(v1, 17)
            v1 ^= v2
            v2 = rotl(v2, 32)
        }
        let whole = bytes.count / 8 * 8
        var words = (0..<whole / 8).map { i in (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[8 * i + $1]) << (8 * $1) }
        }
        words.append(
            (whole..<bytes.count).reduce(UInt64(bytes.count & 0xff) << 56) {
                $0 | UInt64(bytes[$1]) << (8 * ($1 - whole))
            })
        for m in words {
            v3 ^= m
            round()
            v0 ^= m
        }
        v2 ^= 0xff
        for _ in 0..<3 { round() }
        return v0 ^ v1 ^ v2 ^ v3
    }
}
