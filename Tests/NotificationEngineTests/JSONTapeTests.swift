import EngineTestSupport
import Testing

@testable import NotificationEngine

/// The flat tape the decoders read: navigation, names compared by code points
/// whatever their escapes, and the byte tests its string scan relies on.
/// (Every `JSONParserTests` case goes through the tape too: `parse` builds
/// its tree from it.)
@Suite struct JSONTapeTests {
    private func tape(_ text: String) throws(JSONParseError) -> JSONTape {
        try JSONParser.tape(Array(text.utf8))
    }

    private func parseError(_ text: String) -> JSONParseError? {
        do {
            _ = try JSONParser.tape(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func members_skipNestedValues_inOneStep() throws {
        let tape = try tape(#"{"a": {"x": [1, {"y": 2}], "z": "q"}, "b": [[], [3]], "c": "s\n"}"#)
        let members = Array(tape.members(JSONTape.root))
        #expect(members.map { tape.string($0.name) } == ["a", "b", "c"])
        #expect(tape.kind(members[0].value) == .object)
        #expect(tape.count(members[0].value) == 2)
        #expect(tape.kind(members[1].value) == .array)
        #expect(Array(tape.elements(members[1].value)).map { tape.count($0) } == [0, 1])
        #expect(tape.string(members[2].value) == "s\n")
    }

    @Test func isName_comparesDecodedNames() throws {
        let tape = try tape(#"{"\u0074ext": 1, "tex": 2, "texts": 3, "t\"xt": 4}"#)
        let names = Array(tape.members(JSONTape.root)).map(\.name)
        #expect(names.map { tape.isName($0, "text") } == [true, false, false, false])
        #expect(tape.isName(names[3], "t\"xt"))
    }

    @Test func integers_areReadFromTheirLexeme() throws {
        let tape = try tape(#"[0, -7, 300, 9223372036854775807, -9223372036854775808, 9223372036854775808, 1.0, 1e2]"#)
        let values = Array(tape.elements(JSONTape.root)).map { tape.integerValue($0) }
        #expect(values == [0, -7, 300, Int.max, Int.min, nil, nil, nil])
        let lexemes = Array(tape.elements(JSONTape.root)).map { tape.isIntegerLexeme($0) }
        #expect(lexemes == [true, true, true, true, true, true, false, false])
    }

    /// A text denser than the first tape's room (one entry per 8 bytes)
    /// grows the tape: same values, same errors.
    @Test func denseText_outgrowingTheFirstTape_isParsedWhole() throws {
        let zeros = "[" + Array(repeating: "0", count: 1000).joined(separator: ",") + "]"
        let tape = try tape(zeros)
        #expect(tape.count(JSONTape.root) == 1000)
        #expect(Array(tape.elements(JSONTape.root)).allSatisfy { tape.integerValue($0) == 0 })
        let broken = "[" + Array(repeating: "0", count: 1000).joined(separator: ",") + ",]"
        #expect(parseError(broken)?.offset == broken.utf8.count - 1)
        let duplicate = "[" + Array(repeating: "{}", count: 500).joined(separator: ",") + #",{"a":1,"a":2}]"#
        #expect(parseError(duplicate)?.kind == .duplicateName)
    }

    /// Found by the fuzzer: an unclosed prefix holds more entries than a
    /// complete text of its length could (every `[` is one); the tape grows.
    @Test func unclosedNesting_growsTheTape_andGetsItsSyntaxError() {
        let text = #"{"text":"# + String(repeating: "[", count: 61) + "Z" + String(repeating: "[", count: 20) + "]]]]]}"
        let error = parseError(text)
        #expect(error?.kind == .syntax)
        #expect(error?.offset == 8 + 61)
        #expect(parseError(String(repeating: "[", count: 64) + String(repeating: "]", count: 64)) == nil)
        #expect(
            parseError(String(repeating: "[", count: 65) + String(repeating: "]", count: 65))?.kind == .nestingTooDeep)
    }

    // MARK: Duplicate names, whatever their spelling

    @Test(arguments: [
        #"{"a": 1, "\u0061": 2}"#,
        #"{"\u0061": 1, "a": 2}"#,
        #"{"\u00e9": 1, "é": 2}"#,
        #"{"axb": 1, "ayb": 2, "axb": 3}"#,
        #"{"": 1, "": 2}"#,
    ])
    func duplicateNames_areRejected(_ text: String) {
        #expect(parseError(text)?.kind == .duplicateName)
    }

    @Test(arguments: [
        // Same length, first and last byte: same fingerprint, different names.
        #"{"axb": 1, "ayb": 2, "azb": 3}"#,
        #"{"a": 1, "\u0062": 2}"#,
        #"{"": 1, "a": 2}"#,
    ])
    func namesThatOnlyLookAlike_areAccepted(_ text: String) {
        #expect(parseError(text) == nil)
    }

    @Test func duplicateAmongManyMembers_isFoundWhateverItsPosition() {
        let names = (0..<40).map { "n\($0)" }
        for repeated in [0, 15, 16, 39] {
            let members = names.map { "\"\($0)\": 0" } + ["\"\(names[repeated])\": 1"]
            #expect(parseError("{" + members.joined(separator: ",") + "}")?.kind == .duplicateName)
        }
        #expect(parseError("{" + names.map { "\"\($0)\": 0" }.joined(separator: ",") + "}") == nil)
    }

    // MARK: The 8-byte scan

    /// `escapeMask` names exactly the first byte a JSON string must escape.
    @Test func escapeMask_findsTheFirstByteToEscape() {
        var random = SplitMix64(seed: 42)
        let interesting: [UInt8] = [
            0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xFF,
        ]
        for _ in 0..<200_000 {
            var bytes = [UInt8](repeating: 0, count: 8)
            for index in 0..<8 {
                bytes[index] =
                    Bool.random(using: &random)
                    ? interesting.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
            }
            let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            let expected = bytes.firstIndex { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
            let mask = JSONByteClass.escapeMask(word)
            #expect((mask == 0 ? nil : mask.trailingZeroBitCount >> 3) == expected, "bytes \(bytes)")
        }
    }
}

/// The service renders `/body` from the request's bytes; every fixture case
/// and a few capped and cut ones give the same reply as the `String` API.
@Suite struct RenderedBytesTests {
    static let extraTexts: [(String, Int)] = [
        (String(repeating: "word ", count: 300), 256),
        (String(repeating: "é👍🏽 ", count: 2000), 4096),
        ("quote \" backslash \\ tab\t control \u{1}", 256),
        (String(repeating: "a", count: 255) + "👍🏽", 256),
    ]

    @Test func bytesRendering_matchesStringRendering() {
        var inputs = BodyFixtureCase.all.map { ($0.text, $0.maxUnits) }
        inputs += Self.extraTexts
        #expect(inputs.count > 100)
        for (text, maxUnits) in inputs {
            let expected = BodyRenderer.render(text, maxUnits: maxUnits)
            let bytes = Array(text.utf8)
            var body: [UInt8] = []
            let json = bytes.withUnsafeBufferPointer { utf8 in
                BodyRenderer.withRendering(utf8: utf8, maxUnits: maxUnits) { rendering in
                    body = rendering.body
                    return rendering.jsonBody()
                }
            }
            #expect(json == expected.jsonBody(), "\(text.prefix(40))")
            #expect(String(decoding: body, as: UTF8.self) == expected.body)
        }
    }
}

extension BodyRendering {
    /// The `/body` reply for this rendering, as the service writes it for its bytes.
    func jsonBody() -> [UInt8] {
        var body = body
        return body.withUTF8 { utf8 in
            RenderedJSON.body(utf8, ellipsis: false, units: units, truncated: truncated, inputCut: inputCut)
        }
    }
}
