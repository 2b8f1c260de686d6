import EngineTestSupport
import Testing

@testable import NotificationEngine

/// Unit tests for the pieces of the body rules; the fixture covers whole renders.
@Suite struct InputCutTests {
    private func keptText(_ text: String) -> (String, Bool) {
        let bytes = Array(text.utf8)
        let kept = bytes.withUnsafeBufferPointer { InputCut.keptByteCount($0, text: { text }) }
        return (String(decoding: bytes[0..<kept.count], as: UTF8.self), kept.inputCut)
    }

    @Test func cut_whenTextFits_keepsEverything() {
        let text = String(repeating: "é", count: 4096)  // 8192 bytes, 4096 units
        let (kept, cut) = keptText(text)
        #expect(kept == text)
        #expect(!cut)
    }

    @Test func cut_whenFlagStraddlesLimit_dropsWholeFlag() {
        let text = String(repeating: "x", count: 4094) + "\u{1F1EB}\u{1F1F7}\u{1F1E9}\u{1F1EA}"
        let (kept, cut) = keptText(text)
        #expect(kept == String(repeating: "x", count: 4094))
        #expect(cut)
    }

    @Test func cut_whenFlagPairsPrecedeLimit_countsRegionalIndicatorParityFromTheStart() {
        // 1023 flags end at unit 4092; the 1024th flag (units 4093-4096) fits whole.
        let flags = String(repeating: "\u{1F1EB}\u{1F1F7}", count: 1024)
        let (kept, cut) = keptText(flags + "\u{1F1E9}\u{1F1EA}")
        #expect(kept == flags)
        #expect(cut)
    }

    @Test func cut_whenCombiningMarksStraddleLimit_dropsWholeCluster() {
        let text = String(repeating: "x", count: 4000) + "a" + String(repeating: "\u{0301}", count: 200)
        let (kept, _) = keptText(text)
        #expect(kept == String(repeating: "x", count: 4000))
    }

    @Test func cut_whenCRLFStraddlesLimit_dropsBoth() {
        let (kept, cut) = keptText(String(repeating: "x", count: 4095) + "\r\nmore")
        #expect(kept.utf8.count == 4095)
        #expect(cut)
    }
}

@Suite struct BodyCapTests {
    @Test func cap_whenTextFits_keepsItWhole() {
        #expect(
            BodyCap.apply("hello", maxUnits: 256, inputCut: false)
                == BodyRendering(body: "hello", units: 5, truncated: false, inputCut: false))
    }

    @Test func cap_whenInputWasCut_appendsEllipsisEvenIfShort() {
        #expect(
            BodyCap.apply("hello", maxUnits: 256, inputCut: true)
                == BodyRendering(body: "hello\u{2026}", units: 6, truncated: true, inputCut: true))
    }

    @Test func cap_whenEmptyAndCut_isOnlyTheEllipsis() {
        #expect(BodyCap.apply("", maxUnits: 256, inputCut: true).body == "\u{2026}")
    }

    @Test func cap_whenClusterStraddlesLimit_dropsWholeCluster() {
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
        let capped = BodyCap.apply(String(repeating: "x", count: 250) + family, maxUnits: 256, inputCut: false)
        #expect(capped.body == String(repeating: "x", count: 250) + "\u{2026}")
        #expect(capped.units == 251)
    }

    @Test func cap_neverExceedsMaxUnits_forEveryCapOfAMixedText() {
        let text = String(repeating: "a\u{1F600}e\u{0301} \u{1F1EB}\u{1F1F7}\n", count: 400)
        for maxUnits in stride(from: 256, through: 4096, by: 97) {
            let capped = BodyCap.apply(text, maxUnits: maxUnits, inputCut: false)
            #expect(capped.units <= maxUnits)
            #expect(capped.units == capped.body.utf16.count)
            #expect(capped.body.hasSuffix("\u{2026}"))
            #expect(text.hasPrefix(String(capped.body.dropLast())), "cap cut inside a character at \(maxUnits)")
        }
    }

    @Test func cap_removesTrailingWhitespaceBeforeEllipsis() {
        let capped = BodyCap.apply(String(repeating: "x", count: 253) + " \t\n" + "y", maxUnits: 256, inputCut: false)
        #expect(capped.body == String(repeating: "x", count: 253) + "\u{2026}")
    }
}

@Suite struct FenceTests {
    private func fence(_ line: String) -> Fence? {
        let bytes = Array(line.utf8)
        return bytes.withUnsafeBufferPointer { Fence.opening(0..<bytes.count, in: $0) }
    }

    private func closes(_ open: String, _ close: String) -> Bool {
        guard let fence = fence(open) else { return false }
        let bytes = Array(close.utf8)
        return bytes.withUnsafeBufferPointer { fence.isClosed(by: 0..<bytes.count, in: $0) }
    }

    @Test func opening_acceptsThreeOrMoreBackticksOrTildes() {
        #expect(fence("```")?.runLength == 3)
        #expect(fence("~~~~ info")?.runLength == 4)
        #expect(fence("   ```swift")?.indentSpaces == 3)
        #expect(fence("``") == nil)
        #expect(fence("    ```") == nil)
        #expect(fence("\t```") == nil)
        #expect(fence("```a`") == nil)
        #expect(fence("~~~a`") != nil)
    }

    @Test func closing_needsSameCharacterAtLeastAsLongThenOnlySpace() {
        #expect(closes("```", "```"))
        #expect(closes("```", "`````  \t"))
        #expect(!closes("````", "```"))
        #expect(!closes("```", "~~~"))
        #expect(!closes("```", "``` x"))
        #expect(closes("```", "   ```"))
        #expect(!closes("```", "    ```"))
    }
}

@Suite struct InlineRuleTests {
    private func body(_ text: String) -> String { BodyRenderer.render(text, maxUnits: 4096).body }

    /// A short text's scratch starts on the stack, with room for fewer
    /// tokens than a dense paragraph makes; a long text's is allocated to fit.
    /// A dense paragraph renders the same either way (its tokens grow out of
    /// the stack): followed by a long plain paragraph, its rendering is unchanged.
    @Test func denseShortParagraph_rendersAsInALongText() {
        let long = String(repeating: "x", count: 1_200)
        for unit in ["**a", "*a", "~~a", "`a", "[a", "_a*", "**a~~", "a  "] {
            for length in stride(from: 30, through: 110, by: 7) {
                let dense = String(String(repeating: unit, count: length / unit.count + 1).prefix(length))
                let alone = body(dense)
                let followed = body(dense + "\n\n" + long)
                #expect(followed.hasPrefix(alone), "\(unit) × \(length)")
                #expect(followed.hasSuffix(long), "\(unit) × \(length)")
                #expect(followed.count > alone.count + long.count, "\(unit) × \(length)")
            }
        }
    }

    @Test func codeSpan_closerMustBeExactlyTheSameLength() {
        #expect(body("``a`b``") == "a`b")
        #expect(body("`a``") == "`a``")
        #expect(body("```a``b```x") == "a``bx")
    }

    @Test func codeSpan_stripsOneSpaceOnlyWhenBothEndsHaveOne() {
        #expect(body("x ` a ` y") == "x a y")
        #expect(body("x `  a  ` y") == "x  a  y")
        #expect(body("x ` a` y") == "x  a y")
    }

    @Test func link_matchingBracketSkipsCodeSpansAndEscapes() {
        #expect(body("[a \\] b](u)") == "a \\] b")
        #expect(body("[a `]` b](u)") == "a ] b")
        #expect(body("[a [b] c](u)") == "a [b] c")
    }

    @Test func link_destinationParenthesesBalanceAndStopAtLineFeed() {
        #expect(body("[a](b(c)) d") == "a d")
        #expect(body("[a](b(c) d") == "[a](b(c) d")
        #expect(body("[a](b\\)) d") == "a d")
        #expect(body("[a](\n) d") == "[a](\n) d")
    }

    @Test func delimiters_pairWithNearestOpenerOfSameCharacter() {
        #expect(body("**a ~~b** c~~") == "a ~~b c~~")
        #expect(body("~~a **b~~ c**") == "a **b c**")
        #expect(body("**a **b** c**") == "a b c")
    }

    @Test func delimiters_eachRunPairsAtMostOnce() {
        #expect(body("**a****b**") == "a**b**")
        #expect(body("***x***") == "*x*")
    }

    @Test func hostileInput_rendersAsLiteralText() {
        let brackets = String(repeating: "[", count: 5000)
        #expect(body(brackets) == String(repeating: "[", count: 4095) + "\u{2026}")
        let parens = String(repeating: "[a](", count: 1000)
        #expect(body(parens).hasPrefix("[a]([a]("))
        var ticks = ""
        for length in 1...80 { ticks += String(repeating: "`", count: length) + "x" }
        #expect(body(ticks) == ticks)
    }

    @Test func hostileInput_deeplyNestedLinksRenderInnermostLabel() {
        let depth = 800
        let text = String(repeating: "[", count: depth) + "a" + String(repeating: "](u)", count: depth)
        #expect(body(text) == "a")
    }
}

@Suite struct CharacterBoundaryTests {
    /// The largest Character boundary at or before each scalar offset, by walking Characters.
    private func expectedBoundaries(_ text: String) -> [Int: Int] {
        var boundaries = [0]
        var offset = 0
        for character in text {
            offset += character.utf8.count
            boundaries.append(offset)
        }
        var expected: [Int: Int] = [:]
        var scalarOffset = 0
        for scalar in text.unicodeScalars {
            expected[scalarOffset] = boundaries.last { $0 <= scalarOffset }!
            scalarOffset += String(scalar).utf8.count
        }
        expected[scalarOffset] = scalarOffset
        return expected
    }

    /// `roundDown` at every scalar offset of `text` against a walk by Characters.
    private func checkRoundDown(_ text: String, round: Int) {
        let bytes = Array(text.utf8)
        let expected = expectedBoundaries(text)
        bytes.withUnsafeBufferPointer { buffer in
            for (offset, boundary) in expected {
                let actual = CharacterBoundary.roundDown(buffer, offset: offset) { text }
                #expect(
                    actual == boundary,
                    "round \(round): \(text.unicodeScalars.map { String($0.value, radix: 16) }) at \(offset)")
            }
        }
    }

    @Test func roundDown_agreesWithCharacterWalk_onMixedTexts() {
        let pieces = [
            "a", " ", "\u{0301}", "\u{0308}", "\u{200D}", "\u{FE0F}", "\u{20DD}", "\r", "\n", "\r\n", "\t",
            "\u{1F468}", "\u{1F469}", "\u{1F1EB}", "\u{1F1F7}", "\u{1F3FD}", "é", "\u{200B}", "\u{0600}", "\u{05B0}",
            "x",
        ]
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            var text = ""
            for _ in 0..<Int.random(in: 1...24, using: &generator) { text += pieces.randomElement(using: &generator)! }
            checkRoundDown(text, round: round)
        }
    }

    /// Runs of marks U+0300–U+033F long enough for the eight-byte steps, broken
    /// by other marks, ASCII and scalars of every length, at every offset.
    @Test func roundDown_agreesWithCharacterWalk_onLongRunsOfMarks() {
        let pieces = [
            "\u{0300}", "\u{0301}", "\u{033F}", "\u{0340}", "\u{036F}", "\u{0370}", "\u{20DD}", "\u{200D}",
            "a", " ", "\n", "é", "\u{1F3FD}", "\u{0600}",
        ]
        var generator = SplitMix64(seed: 301)  // seeded: a failure reproduces
        for round in 0..<200 {
            var text = ""
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let piece = pieces.randomElement(using: &generator)!
                let repeats = piece.unicodeScalars.first!.value < 0x0340 ? Int.random(in: 1...20, using: &generator) : 1
                text += String(repeating: piece, count: repeats)
            }
            checkRoundDown(text, round: round)
        }
    }

    /// The eight-byte steps of `scalarPrefix` agree with counting scalar by
    /// scalar, for every limit, whatever lengths of scalars straddle a word.
    @Test func scalarPrefix_agreesWithScalarCount_forEveryLimit() {
        let pieces = ["a", "é", "\u{0301}", "€", "\u{1F3FD}", "\u{10FFFF}", "\n"]
        var generator = SplitMix64(seed: 302)  // seeded: a failure reproduces
        for round in 0..<200 {
            var text = ""
            for _ in 0..<Int.random(in: 0...40, using: &generator) { text += pieces.randomElement(using: &generator)! }
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { buffer in
                for maxUnits in 0...(text.utf16.count + 1) {
                    var units = 0
                    var offset = 0
                    var expected: Int? = nil
                    for scalar in text.unicodeScalars {
                        units += scalar.utf16.count
                        if units > maxUnits {
                            expected = offset
                            break
                        }
                        offset += scalar.utf8.count
                    }
                    let actual = CharacterBoundary.scalarPrefix(buffer, maxUnits: maxUnits)
                    #expect(
                        actual == expected,
                        "round \(round): \(text.unicodeScalars.map { String($0.value, radix: 16) }) at \(maxUnits)")
                }
            }
        }
    }

    @Test func roundDown_insideLongRunOfMarks_fallsBackToTheBase() {
        let text = "xy" + String(repeating: "\u{0301}", count: 3000)
        let bytes = Array(text.utf8)
        let boundary = bytes.withUnsafeBufferPointer { CharacterBoundary.roundDown($0, offset: 4000) { text } }
        #expect(boundary == 1)
    }
}

/// The word-at-a-time scans agree with a byte loop wherever the byte sits
/// (inside a word, across words, in the tail) and whatever precedes it.
@Suite struct ByteScanTests {
    @Test func spaceBytesAndTabOrLineFeed_agreeWithAByteLoop() {
        let bytes: [UInt8] = [0x20, 0x09, 0x0A, 0x00, 0x1F, 0x21, 0x60, 0xA0, 0xFF, 0x61]
        var generator = SplitMix64(seed: 303)  // seeded: a failure reproduces
        for _ in 0..<5000 {
            let word = (0..<8).map { _ in bytes.randomElement(using: &generator)! }
            let value = word.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
            let spaces = word.enumerated().reduce(UInt64(0)) {
                $0 | ($1.element == 0x20 ? 0x80 << (8 * UInt64($1.offset)) : 0)
            }
            #expect(ByteScan.spaceBytes(value) == spaces, "\(word)")
            #expect(ByteScan.containsTabOrLineFeed(value) == word.contains { $0 == 0x09 || $0 == 0x0A }, "\(word)")
        }
    }

    @Test func utf16Count_agreesWithString_forScalarsOfEveryLengthAcrossWords() {
        let pieces = [
            "a", "é", "\u{0301}", "€", "\u{1F3FD}", "\u{10FFFF}", "\n", "\u{7F}", "\u{80}", "\u{7FF}", "\u{800}",
        ]
        var generator = SplitMix64(seed: 304)  // seeded: a failure reproduces
        for _ in 0..<500 {
            var text = ""
            for _ in 0..<Int.random(in: 0...40, using: &generator) { text += pieces.randomElement(using: &generator)! }
            let units = Array(text.utf8).withUnsafeBufferPointer { ByteScan.utf16Count($0) }
            #expect(units == text.utf16.count, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func firstIndex_findsTheFirstMatchFromEveryStart() {
        for length in 0...20 {
            for position in 0...length {
                // `position == length` means no line feed; a second one follows the first.
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                if position < length { bytes[position] = 0x0A }
                if position + 3 < length { bytes[position + 3] = 0x0A }
                // High bytes and a byte just above the needle must not match.
                if position > 1 {
                    bytes[position - 2] = 0xCA
                    bytes[position - 1] = 0x0B
                }
                bytes.withUnsafeBufferPointer { buffer in
                    for start in 0...length {
                        let expected = (start..<length).first { bytes[$0] == 0x0A } ?? length
                        #expect(
                            ByteScan.firstIndex(of: 0x0A, in: buffer, from: start) == expected, "\(bytes) from \(start)"
                        )
                    }
                    #expect(ByteScan.contains(buffer, 0x0A) == (position < length))
                }
            }
        }
    }
}

/// The writer's ways of appending text agree: a text appended whole, in
/// pieces (as the renderer merges or splits runs) or through the
/// eight-bytes-at-a-time path for long texts writes the same bytes.
@Suite struct BodyWriterTests {
    private func written(
        _ text: [UInt8], trimsEdges: Bool, _ append: (inout BodyWriter, UnsafeBufferPointer<UInt8>) -> Void
    ) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: text.count + 8)
        return output.withUnsafeMutableBufferPointer { buffer in
            var writer = BodyWriter(buffer: buffer)
            writer.beginLine(trimsEdges: trimsEdges)
            text.withUnsafeBufferPointer { append(&writer, $0) }
            writer.endLine()
            return Array(buffer[0..<writer.count])
        }
    }

    @Test func appendLongTextAndPieces_agreeWithAppendText() {
        let alphabet: [UInt8] = Array("aaaaaaaa****[[[[      \t\n".utf8) + [0xC3, 0xA9]
        var generator = SplitMix64(seed: 305)  // seeded: a failure reproduces
        for _ in 0..<2000 {
            var text: [UInt8] = []
            for _ in 0..<Int.random(in: 0...100, using: &generator) {
                // Long runs without whitespace, so that whole words are copied.
                let byte = alphabet.randomElement(using: &generator)!
                text += [UInt8](
                    repeating: byte,
                    count: Int.random(in: 0...3, using: &generator) != 0 ? 1 : Int.random(in: 1...20, using: &generator)
                )
            }
            let trimsEdges = Bool.random(using: &generator)
            let expected = written(text, trimsEdges: trimsEdges) { $0.appendText($1) }
            #expect(written(text, trimsEdges: trimsEdges) { $0.appendLongText($1) } == expected, "\(text)")
            let cuts = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                Int.random(in: 0...text.count, using: &generator)
            }.sorted()
            let pieces = written(text, trimsEdges: trimsEdges) { writer, buffer in
                var start = 0
                for cut in cuts + [text.count] {
                    writer.appendText(UnsafeBufferPointer(rebasing: buffer[start..<cut]))
                    start = cut
                }
            }
            #expect(pieces == expected, "\(text) cut at \(cuts)")
            let bytes = written(text, trimsEdges: trimsEdges) { writer, buffer in
                for byte in buffer { writer.appendTextByte(byte) }
            }
            #expect(bytes == expected, "\(text) byte by byte")
        }
    }
}
