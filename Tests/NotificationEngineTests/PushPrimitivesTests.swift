import Testing

@testable import NotificationEngine

/// The pieces of push.md with vectors of their own: SHA-256, the digest and
/// group key of P4 and P5, the costs of P20 and the cut of P16.
@Suite struct PushPrimitivesTests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            .joined()
    }

    /// FIPS 180-4 and NIST CAVP vectors, including the 55/56/64-byte padding edges.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
        (String(repeating: "a", count: 55), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (String(repeating: "a", count: 56), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (String(repeating: "a", count: 64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
    ])
    func sha256_matchesKnownVectors(_ vector: (String, String)) {
        #expect(Self.hex(SHA256.digest(vector.0.utf8)) == vector.1, "\(vector.0.prefix(16))")
    }

    @Test func sha256_ofAMillionAs_matchesTheFIPSVector() {
        let digest = SHA256.digest(repeatElement(UInt8(ascii: "a"), count: 1_000_000))
        #expect(Self.hex(digest) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func digest_isThirtyTwoBase64URLCharacters_asPushMdGives() {
        #expect(PushBuilder.digest("t1") == "YotJ2W3N6XpDDdT1l3BYmeCalo95NJHk")
        #expect(PushBuilder.digest(String(repeating: "k", count: 65)) == "85zcJYR1jJnPgcH0HSVy9U4XBmr__J0Y")
    }

    @Test func groupKey_keepsShortVisibleASCII_hashesTheRest() {
        for plain in ["t1", "summary", "fallback", "chat:42", "!abc:example.org", String(repeating: "k", count: 64)] {
            #expect(PushBuilder.groupKey(of: plain) == plain)
        }
        for hashed in ["", "café", "a b", "a\"b", "a\\b", String(repeating: "k", count: 65), "a\u{7F}"] {
            #expect(PushBuilder.groupKey(of: hashed) == PushBuilder.digest(hashed), "\(hashed.debugDescription)")
        }
    }

    @Test func base64URL_padsNothing() {
        func encoded(_ bytes: [UInt8]) -> String { bytes.withUnsafeBufferPointer(PushBuilder.base64URL) }
        #expect(encoded(Array("f".utf8)) == "Zg")
        #expect(encoded(Array("fo".utf8)) == "Zm8")
        #expect(encoded(Array("foo".utf8)) == "Zm9v")
        #expect(encoded([0xFB, 0xFF]) == "-_8")
        #expect(encoded([]) == "")
    }

    /// A text's cost is the sum of its bytes' (P20): what the writer writes
    /// for the text, without the quotes. The fit cuts by it cluster by cluster.
    @Test func costOfByte_summedOverAText_isTheWrittenLengthWithoutQuotes() {
        func cost(_ text: String) -> Int { text.utf8.reduce(0) { $0 + PushFit.cost(ofByte: $1) } }
        func written(_ text: String) -> Int { JSONWriter.bytes(capacity: 0) { $0.string(text) }.count - 2 }
        #expect(cost("abc") == 3)
        #expect(cost("\"\\\n\t\r\u{8}\u{C}") == 14)
        #expect(cost("\u{1}\u{1F}") == 12)
        #expect(cost("\u{7F}/\u{2028}中👍") == 1 + 1 + 3 + 3 + 4)
        for scalar in (UInt8(0)..<0x80).map(Unicode.Scalar.init) {
            #expect(cost(String(scalar)) == written(String(scalar)), "U+\(String(scalar.value, radix: 16))")
        }
        for text in ["é", "中", "👍", "\u{2028}", "a\u{0}b\"c\\d"] {
            #expect(cost(text) == written(text), "\(text.unicodeScalars.map(\.value))")
        }
    }

    @Test func cut_whenClusterStraddlesRoom_dropsWholeCluster() {
        let family = "👨‍👩‍👧"  // 18 bytes, one cluster
        #expect(PushFit.cut("ab" + family, toRoom: 2 + 17 + 3) == "ab…")
        #expect(PushFit.cut("ab" + family + "c", toRoom: 2 + 18 + 3) == "ab" + family + "…")
    }

    @Test func cut_removesTrailingSpacesTabsAndLineFeeds_notCarriageReturnLineFeed() {
        #expect(PushFit.cut("abc \t\n defgh", toRoom: 10) == "abc…")
        #expect(PushFit.cut("ab\r\nxyz", toRoom: 2 + 2 + 2 + 3).unicodeScalars.elementsEqual("ab\r\n…".unicodeScalars))
    }

    @Test func cut_keepsCombiningMarksWithTheirBase() {
        let text = String(repeating: "e\u{301}", count: 10)  // 3 bytes a cluster
        let cut = PushFit.cut(text, toRoom: 3 * 4 + 2 + 3)
        #expect(cut.unicodeScalars.elementsEqual((String(repeating: "e\u{301}", count: 4) + "…").unicodeScalars))
    }
}
