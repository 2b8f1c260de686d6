import EngineTestSupport
import Testing

@testable import NotificationEngine

@Suite struct JSONParserTests {
    private func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    private func parseError(_ bytes: [UInt8]) -> JSONParseError? {
        do {
            _ = try JSONParser.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    private func parseError(_ text: String) -> JSONParseError? {
        parseError(Array(text.utf8))
    }

    // MARK: Values

    @Test func parse_objectWithEveryValueType_keepsMembersInOrder() throws {
        let value = try parse(#" { "s" : "x", "n": -12, "t": true, "f": false, "z": null, "a": [1, [ ]], "o": {} } "#)
        guard case .object(let object) = value else {
            Issue.record("not an object")
            return
        }
        #expect(object.members.map(\.name) == ["s", "n", "t", "f", "z", "a", "o"])
        #expect(object["s"] == .string("x"))
        #expect(object["n"] == .number(JSONNumber(lexeme: "-12", integerValue: -12)))
        #expect(object["t"] == .bool(true))
        #expect(object["f"] == .bool(false))
        #expect(object["z"] == .null)
        #expect(object["a"] == .array([.number(JSONNumber(lexeme: "1", integerValue: 1)), .array([])]))
        #expect(object["o"] == .object(JSONObject()))
    }

    @Test(arguments: ["1", "\"x\"", "null", "true", "[]", "{}", " \t\r\n0 \t\r\n"])
    func parse_anyValueAtTopLevel_isAccepted(_ text: String) {
        #expect(parseError(text) == nil)
    }

    @Test(arguments: [
        "", " ", "{", "[", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "{'a':1}", "[1 2]", "tru", "nul", "True",
        "NaN", "Infinity", "-", "01", "1.", ".5", "1e", "1e+", "+1", "0x10", "\"abc", "[\"a\"]]", "{} {}",
        "// c\n1", "/* c */ 1", "\u{0C}1", "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"", "\"\\", "[1]\u{00A0}",
    ])
    func parse_invalidJSON_isSyntaxError(_ text: String) {
        #expect(parseError(text)?.kind == .syntax, "\(text.debugDescription)")
    }

    @Test func parse_error_reportsOffsetOfTheProblem() {
        let error = parseError(#"{"a": [1, 2,, 3]}"#)
        #expect(error?.kind == .syntax)
        #expect(error?.offset == 12)
    }

    @Test func parse_trailingContent_isRejected() {
        let error = parseError("{} x")
        #expect(error?.kind == .syntax)
        #expect(error?.offset == 3)
        #expect(error?.message.contains("after the end") == true)
    }

    @Test func parse_byteOrderMark_isRejected() {
        let error = parseError([0xEF, 0xBB, 0xBF] + Array("{}".utf8))
        #expect(error?.kind == .syntax)
        #expect(error?.message.contains("byte order mark") == true)
    }

    // MARK: Strings and escapes

    @Test func parse_simpleEscapes_areDecoded() throws {
        #expect(try parse(#""a\"b\\c\/d\be\ff\ng\rh\ti""#) == .string("a\"b\\c/d\u{08}e\u{0C}f\ng\rh\ti"))
    }

    @Test func parse_unicodeEscapes_areDecoded() throws {
        #expect(try parse(#""\u0041\u00e9\u20AC\u0000""#) == .string("Aé€\u{0}"))
    }

    @Test func parse_surrogatePairEscape_isOneAstralScalar() throws {
        #expect(try parse(#""\uD83D\uDE00""#) == .string("😀"))
        #expect(try parse(#""x\ud83d\ude00y""#) == .string("x😀y"))
    }

    @Test func parse_rawUTF8_isKept() throws {
        #expect(try parse("\"é😀\u{301}\"") == .string("é😀\u{301}"))
    }

    @Test func parse_stringsDifferingOnlyByNormalization_areDifferent() throws {
        #expect(try parse("\"\u{E9}\"") != .string("e\u{301}"))
    }

    @Test(arguments: [
        #""\uD800""#, #""\uDBFF x""#, #""\uDC00""#, #""\uDFFF""#, #""\uD800\u0041""#, #""\uD800\n""#,
        #""\uD800\uD800""#, #""\uDE00\uD83D""#, #""a\ud83d""#,
    ])
    func parse_loneSurrogateEscape_isItsOwnError(_ text: String) {
        #expect(parseError(text)?.kind == .loneSurrogate, "\(text)")
    }

    @Test func parse_loneSurrogate_reportsEscapeOffset() {
        let error = parseError(#"{"text": "ab\uD800"}"#)
        #expect(error?.kind == .loneSurrogate)
        #expect(error?.offset == 12)
    }

    @Test(arguments: [0x00, 0x01, 0x0A, 0x0D, 0x1F] as [UInt8])
    func parse_unescapedControlCharacter_isSyntaxError(_ byte: UInt8) {
        let error = parseError([UInt8(ascii: "\""), UInt8(ascii: "a"), byte, UInt8(ascii: "\"")])
        #expect(error?.kind == .syntax)
        #expect(error?.offset == 2)
    }

    @Test func parse_specialByteAtEveryPositionOfAWord_isFound() throws {
        for position in 0..<20 {
            let before = String(repeating: "a", count: position), after = String(repeating: "b", count: 19 - position)
            #expect(try parse("\"\(before)\\n\(after)\"") == .string(before + "\n" + after), "escape at \(position)")
            #expect(try parse("\"\(before)\"") == .string(before), "end at \(position)")
            let error = parseError(
                [UInt8(ascii: "\"")] + Array(before.utf8) + [0x01] + Array(after.utf8) + [UInt8(ascii: "\"")])
            #expect(error?.offset == position + 1, "control byte at \(position)")
        }
    }

    @Test func parse_deleteCharacter_isAllowedUnescaped() throws {
        #expect(try JSONParser.parse([0x22, 0x7F, 0x22]) == .string("\u{7F}"))
    }

    // MARK: UTF-8

    @Test(
        arguments: [
            [0x80],  // continuation byte without a lead
            [0xC0, 0x80],  // overlong NUL
            [0xC1, 0xBF],  // overlong
            [0xE0, 0x80, 0x80],  // overlong 3-byte
            [0xED, 0xA0, 0x80],  // encoded surrogate U+D800
            [0xF0, 0x80, 0x80, 0x80],  // overlong 4-byte
            [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
            [0xF5, 0x80, 0x80, 0x80],  // invalid lead
            [0xFF],
            [0xC3],  // truncated
            [0xE2, 0x82],  // truncated
            [0xC3, 0x28],  // bad continuation
        ] as [[UInt8]])
    func parse_invalidUTF8InString_isInvalidUTF8AtItsOffset(_ sequence: [UInt8]) {
        let bytes = Array(#"{"text": "ab"#.utf8) + sequence + Array(#"cd"}"#.utf8)
        let error = parseError(bytes)
        #expect(error?.kind == .invalidUTF8, "\(sequence)")
        #expect(error?.offset == 12, "\(sequence)")
    }

    @Test func parse_invalidUTF8OutsideStrings_isInvalidUTF8() {
        #expect(parseError([0x7B, 0xFF, 0x7D])?.kind == .invalidUTF8)
    }

    @Test func parse_invalidUTF8AfterLongASCIIRun_isFound() {
        let bytes =
            [UInt8(ascii: "\"")] + Array(repeating: UInt8(ascii: "a"), count: 1001) + [0xFE, UInt8(ascii: "\"")]
        let error = parseError(bytes)
        #expect(error?.kind == .invalidUTF8)
        #expect(error?.offset == 1002)
    }

    @Test func parse_everyScalarKind_isValidUTF8() throws {
        let text = "\"\u{7F}\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFF}\u{10000}\u{10FFFF}\""
        #expect(try parse(text) == .string(String(text.dropFirst().dropLast())))
    }

    // MARK: Nesting

    @Test func parse_nestingAtTheLimit_isAccepted() {
        let depth = JSONParser.defaultMaxDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(parseError(text) == nil)
    }

    @Test func parse_nestingBeyondTheLimit_isNestingTooDeep() {
        let depth = JSONParser.defaultMaxDepth + 1
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let error = parseError(text)
        #expect(error?.kind == .nestingTooDeep)
        #expect(error?.offset == JSONParser.defaultMaxDepth)
    }

    @Test func parse_hugeNesting_failsWithoutOverflowingTheStack() {
        let text = String(repeating: "{\"a\":[", count: 200_000)
        #expect(parseError(text)?.kind == .nestingTooDeep)
    }

    // MARK: Numbers

    @Test(
        arguments: [
            ("0", 0), ("-0", 0), ("7", 7), ("-42", -42), ("4096", 4096),
            ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min),
        ] as [(String, Int)])
    func parse_integerLexeme_hasIntegerValue(_ text: String, _ expected: Int) throws {
        guard case .number(let number) = try parse(text) else {
            Issue.record("not a number")
            return
        }
        #expect(number.integerValue == expected)
        #expect(number.isIntegerLexeme)
        #expect(number.lexeme == text)
    }

    @Test(arguments: ["256.0", "2.56e2", "1E3", "1e-0", "-0.0", "0.5"])
    func parse_fractionOrExponent_isNotAnInteger(_ text: String) throws {
        guard case .number(let number) = try parse(text) else {
            Issue.record("not a number")
            return
        }
        #expect(number.integerValue == nil)
        #expect(!number.isIntegerLexeme)
        #expect(number.lexeme == text)
    }

    @Test(arguments: ["9223372036854775808", "-9223372036854775809", "100000000000000000000000000000"])
    func parse_integerBeyondInt_isValidButHasNoValue(_ text: String) throws {
        guard case .number(let number) = try parse(text) else {
            Issue.record("not a number")
            return
        }
        #expect(number.integerValue == nil)
        #expect(number.isIntegerLexeme)
    }

    @Test func parse_hugeExponent_isKeptAsWritten() throws {
        #expect(try parse("1e999999999") == .number(JSONNumber(lexeme: "1e999999999", integerValue: nil)))
    }

    // MARK: Duplicate names

    @Test func parse_duplicateName_isRejectedWithItsOffset() {
        let error = parseError(#"{"text": "a", "text": "b"}"#)
        #expect(error?.kind == .duplicateName)
        #expect(error?.offset == 14)
        #expect(error?.message.contains("\"text\"") == true)
    }

    @Test func parse_duplicateNameInLargeObject_isRejected() {
        let members = (0..<100).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        #expect(parseError("{" + members + ", \"k7\": 0}")?.kind == .duplicateName)
        #expect(parseError("{" + members + "}") == nil)
    }

    @Test func parse_duplicateAfterManyMembers_isRejectedWithItsOffset() {
        // Past 16 members names go through the hashed set.
        let members = (0..<100_000).map { "\"k\($0)\":0" }.joined(separator: ",")
        let text = "{" + members + #","k0":1}"#
        #expect(
            parseError(text)
                == JSONParseError(.duplicateName, offset: text.utf8.count - 7, #"duplicate member name "k0""#))
        #expect(parseError("{" + members + "}") == nil)
    }

    @Test func parse_manyRepeatsOfOneName_isRejectedAtTheFirstRepeat() {
        let members = Array(repeating: #""maxUnits":300"#, count: 150_000).joined(separator: ",")
        #expect(
            parseError(#"{"text":"a","# + members + "}")
                == JSONParseError(.duplicateName, offset: 27, #"duplicate member name "maxUnits""#))
    }

    @Test func parse_escapedSpellingAmongManyMembers_isADuplicate() {
        let many = (0..<1_000).map { "\"k\($0)\":0" }
        for pair in [[#""maxUnits":1"#, #""maxUnit\u0073":2"#], [#""max\u0055nits":1"#, #""maxUnits":2"#]] {
            let error = parseError("{" + (many + pair).joined(separator: ",") + "}")
            #expect(error?.kind == .duplicateName, "\(pair)")
            #expect(error?.message == #"duplicate member name "maxUnits""#, "\(pair)")
        }
        #expect(
            parseError("{" + (many + [#""maxUnits":1"#, #""maxUnit\u0053":2"#]).joined(separator: ",") + "}") == nil)
    }

    @Test func parse_manyNamesAlikeInLengthAndEnds_areNotDuplicates() {
        // One length, first and last byte: the names the small objects' fingerprint cannot tell apart.
        let names = (0..<20_000).map {
            let hex = String($0, radix: 16)
            return "a" + String(repeating: "0", count: 4 - hex.count) + hex + "z"
        }
        let members = names.map { "\"\($0)\":0" }
        #expect(parseError("{" + members.joined(separator: ",") + "}") == nil)
        let repeated = members + ["\"\(names[12_345])\":1"]
        #expect(parseError("{" + repeated.joined(separator: ",") + "}")?.kind == .duplicateName)
    }

    @Test func parse_namesDifferingOnlyByNormalization_areNotDuplicates() {
        #expect(parseError("{\"\u{E9}\": 1, \"e\u{301}\": 2}") == nil)
        let many = (0..<20).map { "\"n\($0)\": 0" }.joined(separator: ",")
        #expect(parseError("{\(many), \"\u{E9}\": 1, \"e\u{301}\": 2}") == nil)
    }

    @Test func parse_sameNameInDifferentObjects_isAccepted() {
        #expect(parseError(#"[{"a": 1}, {"a": 2, "b": {"a": 3}}]"#) == nil)
    }

    // MARK: Edges of the word-at-a-time paths

    @Test func parse_stringOfEachLengthEndingAtTheEndOfTheText_isWhole() throws {
        for length in 0...17 {
            let text = String(repeating: "a", count: length)
            #expect(try parse("\"\(text)\"") == .string(text), "length \(length)")
            #expect(
                try parse("{\"\(text)\":\"\(text)\"}") == .object(JSONObject(members: [(text, .string(text))])),
                "member of length \(length)")
        }
    }

    @Test func parse_unterminatedStringAtTheEndOfTheText_isReportedAtItsQuote() {
        for length in 0...17 {
            let text = String(repeating: "a", count: length)
            for document in ["\"\(text)", "{\"\(text)", "{\"a\":\"\(text)", "[\"\(text)\\"] {
                let error = parseError(document)
                #expect(
                    error
                        == JSONParseError(
                            .syntax, offset: Array(document.utf8).lastIndex(of: UInt8(ascii: "\""))!,
                            "unterminated string"),
                    "\(document)")
            }
        }
    }

    @Test func parse_specialByteAtEveryPositionBeforeTheEnd_isFound() {
        // The last 7 bytes of a text are read one at a time, the rest a word at a time.
        for length in 1...17 {
            for position in 0..<length {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                bytes[position] = 0x1F
                #expect(
                    parseError([UInt8(ascii: "\"")] + bytes + [UInt8(ascii: "\"")])?.offset == position + 1,
                    "control byte at \(position) of \(length)")
                bytes[position] = UInt8(ascii: "\"")
                #expect(
                    parseError([UInt8(ascii: "\"")] + bytes + [UInt8(ascii: "\"")])?.offset == position + 2,
                    "quote at \(position) of \(length): the rest is after the value")
            }
        }
    }

    @Test func parse_severalEscapesAtEveryPositionOfAWord_decode() throws {
        for position in 0..<20 {
            let before = String(repeating: "a", count: position), after = String(repeating: "b", count: 19 - position)
            let escaped = "\"\(before)\\\"\(after)\\u00e9\(before)\\\\\\/\(after)\\uD83D\\uDE00\""
            #expect(
                try parse(escaped) == .string(before + "\"" + after + "é" + before + "\\/" + after + "😀"),
                "escapes after \(position)")
        }
    }

    @Test func parse_whitespaceAroundEveryToken_isSkipped() throws {
        let spaced = " \t{\r\n\"a\" :\t[ 1 ,\n\"x\" , true\t] ,\"b\"\r: { } , \"c\" :\"\" } \n"
        #expect(
            try parse(spaced)
                == .object(
                    JSONObject(members: [
                        ("a", .array([.number(JSONNumber(lexeme: "1", integerValue: 1)), .string("x"), .bool(true)])),
                        ("b", .object(JSONObject(members: []))),
                        ("c", .string("")),
                    ])))
    }

    @Test func parse_otherControlByteBetweenTokens_isSyntaxErrorAtIt() {
        for document in [
            "{\u{0B}\"a\":1}", "{\"a\"\u{0C}:1}", "{\"a\":\u{0B}1}", "{\"a\":1\u{0C}}", "[1,\u{0B}2]", "1\u{0C}",
        ] {
            let offset = Array(document.utf8).firstIndex { $0 == 0x0B || $0 == 0x0C }!
            #expect(parseError(document)?.offset == offset, "\(document.debugDescription)")
            #expect(parseError(document)?.kind == .syntax, "\(document.debugDescription)")
        }
    }

    @Test func parse_emptyNames_areComparedLikeAnyOther() {
        #expect(parseError(#"{"":1,"":2}"#) == JSONParseError(.duplicateName, offset: 6, #"duplicate member name """#))
        #expect(parseError(#"{"":1,"\u0022":2,"a":3}"#) == nil)
    }

    @Test func parse_invalidUTF8AtEveryPositionOfALongASCIIRun_isFound() {
        for position in 0..<70 {
            var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 72)
            bytes[0] = UInt8(ascii: "\"")
            bytes[71] = UInt8(ascii: "\"")
            bytes[position + 1] = 0xFF
            #expect(
                parseError(bytes) == JSONParseError(.invalidUTF8, offset: position + 1, "invalid UTF-8 byte 0xFF"),
                "at \(position)")
        }
    }
}
