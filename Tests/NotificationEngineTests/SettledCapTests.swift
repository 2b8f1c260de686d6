import EngineTestSupport
import Testing

@testable import NotificationEngine

/// A long text's body: rendering stops once the cap is settled
/// (`BodyWriter.settlesCap`), and `POST /body` decodes only the start of the
/// text that decides the input cut. Both must give what rendering the whole
/// text and capping it gives, and refuse what the whole text's parse refuses.
@Suite struct SettledCapTests {
    /// Paragraphs, fences, line breaks and characters whose clusters
    /// straddle a cap: combining marks, flags, ZWJ emoji, CR LF.
    static let pieces: [String] = [
        "Hey **team**, the [deploy](https://x.example/4182) is `green` ~~now~~ ", "\n\n", "\n", "\r\n", "```\n",
        "  \t ", "é", "e\u{301}\u{302}", "🇫🇷", "👩‍👩‍👧", "😀", "a", String(repeating: "word ", count: 30),
        String(repeating: "\u{0301}", count: 40), "    ", "中文",
    ]

    private func randomText(_ random: inout SplitMix64, upTo units: Int) -> String {
        var text = ""
        while text.utf16.count < units { text += Self.pieces.randomElement(using: &random)! }
        return text
    }

    /// Sections 1 to 7 over the whole text, without stopping early.
    private func wholeRendering(_ text: String, maxUnits: Int) -> BodyRendering {
        let uncapped = BodyRenderer.renderUncapped(text)
        return BodyCap.apply(uncapped.text, maxUnits: maxUnits, inputCut: uncapped.inputCut)
    }

    @Test func render_stoppingOnceTheCapIsSettled_answersAsRenderingTheWhole() {
        var random = SplitMix64(seed: 4545)
        for _ in 0..<400 {
            let maxUnits = [256, 257, 300, 1000, 4096].randomElement(using: &random)!
            let text = randomText(&random, upTo: Int.random(in: 200...6000, using: &random))
            #expect(
                BodyRenderer.render(text, maxUnits: maxUnits) == wholeRendering(text, maxUnits: maxUnits),
                "\(text.debugDescription) at \(maxUnits)")
        }
    }

    @Test func bodyAnswer_ofALongEscapedText_isTheWholeTextsRendering() throws {
        var random = SplitMix64(seed: 4546)
        for _ in 0..<150 {
            let maxUnits = [256, 4096].randomElement(using: &random)!
            let text = randomText(&random, upTo: Int.random(in: 3000...30_000, using: &random))
            let request = JSONWriter.bytes(capacity: 64) { json in
                json.raw(#"{"text":"#)
                json.string(text)
                json.raw(#","maxUnits":"#)
                json.integer(maxUnits)
                json.raw("}")
            }
            let expected = wholeRendering(text, maxUnits: maxUnits)
            let answer = try RequestAnswers.body(request: request)
            let expectedJSON = Array(expected.body.utf8).withUnsafeBufferPointer {
                RenderedJSON.body(
                    $0, ellipsis: false, units: expected.units, truncated: expected.truncated,
                    inputCut: expected.inputCut)
            }
            #expect(answer == expectedJSON, "\(text.debugDescription) at \(maxUnits)")
        }
    }

    private func problem(_ request: [UInt8]) -> Problem? {
        do {
            _ = try RequestAnswers.body(request: request)
            return nil
        } catch {
            return error
        }
    }

    /// An invalid escape, a lone surrogate or invalid UTF-8 far past the cut.
    @Test(arguments: [
        (#"\x"#, "invalid-json", "at byte 20009: invalid escape sequence '\\x'"),
        (
            #"\uDE00"#, "lone-surrogate",
            "at byte 20009: lone surrogate escape \\uDE00 (a low surrogate without a high one)"
        ),
        (#"\u12"#, "invalid-json", "at byte 20009: a \\u escape needs 4 hexadecimal digits"),
    ])
    func bodyAnswer_refusesAnEscapePastTheCut_asBefore(_ escape: String, _ code: String, _ detail: String) {
        let text = String(repeating: "ab\\n", count: 5_000) + escape
        let refusal = problem(Array(#"{"text":"\#(text)"}"#.utf8))
        #expect(refusal?.code == code)
        #expect(refusal?.detail == detail)
    }

    @Test func bodyAnswer_refusesInvalidUTF8PastTheCut() {
        let request =
            Array(#"{"text":""#.utf8) + Array(repeating: UInt8(ascii: "a"), count: 20_000) + [0xFF] + Array(#""}"#.utf8)
        let refusal = problem(request)
        #expect(refusal?.code == "invalid-utf8")
        #expect(refusal?.detail == "at byte 20009: invalid UTF-8 byte 0xFF")
    }
}
