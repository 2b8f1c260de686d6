import EngineTestSupport
import Testing

@testable import NotificationEngine

/// The decoder reads a body once when it is well-formed and of the usual
/// shape; otherwise the parser checks the text and the decoder reads it again.
/// Its first pass promises one thing: whenever it returns an input, the
/// validated pass returns the same one; it stops on everything else. And it
/// must not stop on the bodies clients send, or the body would be read thrice.
@Suite struct ComposeDecoderTests {

    /// An object's members as the problem lists them: the wire table's
    /// rows in order (`WireTable.swift`), so a member added there is expected here.
    static func members<Member: WireMember>(_: Member.Type) -> String {
        Member.allCases.map(\.rawValue).joined(separator: ", ")
    }

    private let serverApp = "Buzz"
    private let clock = Timestamp(rfc3339: "2026-11-29T12:00:00Z")!

    private func firstPass(_ json: [UInt8]) -> ComposeRequest? {
        try? ComposeDecoder.decode(json, serverApp: serverApp, catalogs: .builtIn, now: { clock }, validated: false)
    }

    /// The parser's check, then the validated pass: what the decoder answers
    /// when the first pass stops.
    private func validatedPass(_ json: [UInt8]) -> Result<ComposeRequest, Problem> {
        Result { () throws(Problem) in
            do throws(JSONParseError) {
                _ = try JSONParser.tape(json)
            } catch {
                throw Problem(error)
            }
            return try ComposeDecoder.decode(
                json, serverApp: serverApp, catalogs: .builtIn, now: { clock }, validated: true)
        }
    }

    /// The first pass's result, after checking it is the validated pass's.
    @discardableResult
    private func checkAgreement(_ json: [UInt8], _ label: @autoclosure () -> String) -> ComposeRequest? {
        guard let input = firstPass(json) else { return nil }
        switch validatedPass(json) {
        case .success(let expected):
            #expect(input.bytes == expected.bytes, "\(label()): the passes appended different bytes")
            #expect(input == expected, "\(label()): the first pass decoded a different request")
            #expect(
                Composer.compose(input).jsonBody() == Composer.compose(expected).jsonBody(),
                "\(label()): the first pass's request composes a different reply")
        case .failure(let problem):
            Issue.record(
                "\(label()): the first pass accepted a body the validated pass refuses (\(problem.code): \(problem.detail))"
            )
        }
        return input
    }

    @Test func randomRequests_decodeInTheFirstPass_asTheValidatedPassDoes() {
        var random = SplitMix64(seed: 8)
        for round in 0..<300 {
            let request = RandomCompose.request(&random, clock: clock, serverApp: serverApp)
            // Values with and without escapes; names as clients write them, now and then escaped.
            let json = RandomCompose.json(
                request, escapeRate: round % 2 == 0 ? 0 : 0.2, escapingNames: round % 5 == 0, using: &random)
            let spaced = Self.withWhitespace(json, using: &random)
            for (variant, body) in [("compact", json), ("spaced", spaced)] {
                let input = checkAgreement(body, "round \(round), \(variant)")
                #expect(input != nil, "round \(round), \(variant): gave up on \(String(decoding: body, as: UTF8.self))")
                #expect(input == request, "round \(round), \(variant)")
            }
        }
    }

    /// The same requests with unknown members added at random (compose.md
    /// 2.2): the first pass stops, and the validated pass refuses the first
    /// one in document order, with its pointer.
    @Test func randomRequests_withUnknownMembers_areRefusedAtTheFirstOne() {
        var random = SplitMix64(seed: 35)
        var refused = 0
        for round in 0..<300 {
            let request = RandomCompose.request(&random, clock: clock, serverApp: serverApp)
            let json = RandomCompose.json(
                request, escapeRate: round % 2 == 0 ? 0 : 0.2, escapingNames: round % 5 == 0, using: &random)
            let (extended, firstPointer) = Self.withUnknownMembers(json, using: &random)
            let label = "round \(round): \(String(decoding: extended, as: UTF8.self))"
            guard let firstPointer else {
                #expect(extended == json, "\(label): no member added, yet the body changed")
                continue
            }
            #expect(firstPass(extended) == nil, "\(label): the first pass read an unknown member")
            guard case .failure(let problem) = validatedPass(extended) else {
                Issue.record("\(label): accepted")
                continue
            }
            #expect(problem.code == "unknown-member", "\(label)")
            #expect(problem.pointer == firstPointer, "\(label)")
            #expect(problem.status == 400, "\(label)")
            refused += 1
        }
        #expect(refused > 200, "\(refused) of 300 requests had an unknown member added")
    }

    @Test func mutatedBodies_areDecodedInTheFirstPassOnlyWhenTheValidatedPassAgrees() {
        var random = SplitMix64(seed: 99)
        var directCount = 0
        var refusedCount = 0
        for round in 0..<3000 {
            let request = RandomCompose.request(&random, clock: clock, serverApp: serverApp)
            var json = RandomCompose.json(request, escapeRate: 0.1, escapingNames: round % 4 == 0, using: &random)
            for _ in 0...Int.random(in: 0..<3, using: &random) { ShapedDecoding.mutate(&json, using: &random) }
            if checkAgreement(json, "round \(round): \(String(decoding: json, as: UTF8.self))") != nil {
                directCount += 1
            } else if case .failure = validatedPass(json) {
                refusedCount += 1
            }
        }
        // Both outcomes must be well represented, or the mutations test little
        // (a mutated name is refused as an unknown member: about 290 decode).
        #expect(directCount > 250, "\(directCount) mutated bodies decoded in the first pass")
        #expect(refusedCount > 300, "\(refusedCount) mutated bodies refused")
    }

    @Test func benchPayloadAndFixtureRequests_decodeInTheFirstPass() throws {
        let payload = repositoryFile("bench/payloads/compose-20.json")
        #expect(checkAgreement(payload, "compose-20.json")?.notificationRecords.count == 20)
        var directCount = 0
        for fixture in ComposeHTTPCase.all {
            if checkAgreement(fixture.request.bytes, fixture.id) != nil { directCount += 1 }
        }
        #expect(
            directCount == ComposeHTTPCase.all.count,
            "\(directCount) of \(ComposeHTTPCase.all.count) fixtures decoded in the first pass")
    }

    @Test func differentMemberOrders_andWhitespaceInNames_decodeInTheFirstPass() {
        let json = #"""
            {"notifications":[
              {"id":"a","type":"like","timestamp":"2026-11-29T11:59:00Z","sender":{"id":"u1","name":"Ana"}},
              {"type":"like", "id":"b","timestamp":"2026-11-29T11:58:00Z","sender":{"name":"Bo","id":"u2"}},
              {"id" :"c","type":"like","timestamp":"2026-11-29T11:57:00Z","read":false,"sender":{"id":"u3"}},
              {"id" :"d","type":"like","timestamp":"2026-11-29T11:56:00Z","read":true,"sender":{"id":"u4","name":null}}
            ],"now":"2026-11-29T12:00:00Z"}
            """#
        let input = checkAgreement(Array(json.utf8), "orders")
        let request = input
        #expect(request?.notifications.map(\.id) == ["a", "b", "c", "d"])
        #expect(request?.notifications.map { $0.sender?.name } == ["Ana", "Bo", nil, nil])
        #expect(request?.notifications.map(\.read) == [false, false, false, true])
    }

    @Test(arguments: [
        // A name repeated in an object whose names repeat the previous one's.
        #"{"notifications":[{"id":"a","type":"t","timestamp":"2026-11-29T11:59:00Z"},{"id":"b","type":"t","id":"c","timestamp":"2026-11-29T11:59:00Z"}]}"#,
        #"{"notifications":[],"notifications":[]}"#,
        #"{"notifications":[{"id":"a","type":"t","timestamp":"2026-11-29T11:59:00Z","x":1,"x":2}]}"#,
        #"{"notifications":[{"id":"a","type":"t","timestamp":"2026-11-29T11:59:00Z","sender":{"id":"u","id":"v"}}]}"#,
        #"{"notifications":[{"id":"a","type":"t","timestamp":"2026-11-29T11:59:00Z"}]} x"#,
        #"{"notifications":[{"id":"a","type":"t","timestamp":"2026-11-29T11:59:00Z",}]}"#,
        #"{"notifications":[{"id":"a","type":"t","timestamp":"yesterday"}]}"#,
        #"{"notifications":[{"id":"a","source":"c:d","type":"t","timestamp":"2026-11-29T11:59:00Z"}]}"#,
        #"{"notifications":[{"id":"a","type":"t"}]}"#,
        #"{"notifications":[{"id":"a\x","type":"t","timestamp":"2026-11-29T11:59:00Z"}]}"#,
        #"{"notifications":[{"id":"\ud800","type":"t","timestamp":"2026-11-29T11:59:00Z"}]}"#,
        #"{"notifications":[],"maxUnits":256.0}"#,
        #"{"notifications":[],"maxUnits":0256}"#,
        #"{"notifications":[],"maxAgeSeconds":-1}"#,
        #"{"notifications":[],"extra":01}"#,
        #"{"notifications":[],"extra":1.}"#,
        #"{"notifications":[],"extra":tru}"#,
        #"{"fetch":"ok"}"#,
        #"{"fetch":"OK","notifications":[]}"#,
        #"[]"#,
        #"{"notifications":[],"preveiw":"none"}"#,
        #"{"notifications":[],"Preview":null}"#,
        #"{"notifications":[],"extra":{"a":1}}"#,
        #"{"notifications":[{"id":"a","type":"t","timestamp":"2026-11-29T11:59:00Z","extra":[1,2]}]}"#,
        #"{"notifications":[{"id":"a","type":"t","timestamp":"2026-11-29T11:59:00Z","sender":{"nmae":"A"}}]}"#,
        #"{"notifications":[],"displayed":[{"key":"k","timestamp":"2026-11-29T11:59:00Z","Key":"k"}]}"#,
        #"{"notifications":[],"push":{"badges":1}}"#,
    ])
    func invalidBodies_stopTheFirstPass_andTheValidatedPassReportsThem(_ json: String) {
        #expect(firstPass(Array(json.utf8)) == nil, "\(json)")
        guard case .failure = validatedPass(Array(json.utf8)) else {
            Issue.record("the validated pass accepted \(json)")
            return
        }
    }

    @Test(arguments: [
        #"{"notifications":[],"\u0061pp":"Wiki"}"#,
        #"{"notifications":[],"\u0070ush":{"\u0062adge":3}}"#,
        #"{"notifications":[],"fetch":"\u006fk"}"#,
        #"{"notifications":[],"locale":"pt-AO"}"#,
        #"{"notifications":[],"locale":"p\u0074_PT","app":"Wiki"}"#,
        #"{"locale":"","notifications":[]}"#,
        #"{"locale":null,"notifications":[]}"#,
        #"{"notifications":[],"push":{"badge":null,"androidChannel":null,"reserveBytes":null}}"#,
    ])
    func unusualValidBodies_decodeTheSameInEitherPass(_ json: String) throws {
        checkAgreement(Array(json.utf8), json)
        let decoded = try ComposeDecoder.decode(
            Array(json.utf8), serverApp: serverApp, catalogs: .builtIn, now: { clock })
        let expected = try validatedPass(Array(json.utf8)).get()
        #expect(decoded.bytes == expected.bytes, "\(json)")
        #expect(decoded == expected, "\(json)")
    }

    /// The first problem of a body: JSON errors anywhere before field problems,
    /// an array's count before its elements, fields in document order, a
    /// missing member after the members of its object.
    @Test(
        arguments: [
            (#"{"maxUnits":"x","notifications":[}"#, "invalid-json", nil),
            (
                #"{"notifications":[{"type":"t","timestamp":"2026-11-29T11:59:00Z","id":5}]}"#, "invalid-type",
                "notifications[0].id must be a string, got number"
            ),
            (
                #"{"notifications":[{"read":"yes","timestamp":"x"}]}"#, "invalid-type",
                "notifications[0].read must be a boolean, got string"
            ),
            (
                #"{"notifications":[{"sender":{"name":7}}]}"#, "invalid-type",
                "notifications[0].sender.name must be a string, got number"
            ),
            (
                #"{"notifications":[{"id":"a","type":"t"}]}"#, "missing-field",
                "notifications[0].timestamp is required"
            ),
            (
                #"{"notifications":[{"extra":{"a":[1,{"b":"]}"}]},"id":"a","type":"t"}]}"#, "unknown-member",
                #"notifications[0] has no member "extra"; its members are "#
                    + ComposeDecoderTests.members(ComposeDecoder.NotificationMember.self)
            ),
            (
                #"{"notifications":[{"id":"a","type":"t","timestamp":"2026-11-29T11:59:00Z","sender":{"Name":"A"}}]}"#,
                "unknown-member",
                #"notifications[0].sender has no member "Name" (did you mean "name"?); its members are "#
                    + ComposeDecoderTests.members(ComposeDecoder.SenderMember.self)
            ),
            (
                #"{"preveiw":"none","maxUnits":1,"notifications":[]}"#, "unknown-member",
                #"the request has no member "preveiw" (did you mean "preview"?); its members are "#
                    + ComposeDecoderTests.members(ComposeDecoder.RequestMember.self)
            ),
            (#"{"maxUnits":1,"preveiw":"none","notifications":[]}"#, "out-of-range", nil),
            (
                #"{"notifications":[],"push":{"reserve":8}}"#, "unknown-member",
                #"push has no member "reserve"; its members are "#
                    + ComposeDecoderTests.members(ComposeDecoder.PushMember.self)
            ),
            (
                #"{"displayed":[{"timestamp":"2026-11-29T11:59:00Z"}],"notifications":[]}"#, "missing-field",
                "displayed[0].key is required when the entry has no group"
            ),
            (
                #"{"displayed":[{"key":"a","group":"t1"}],"notifications":[]}"#, "missing-field",
                "displayed[0].timestamp is required"
            ),
            (
                #"{"displayed":[{"key":"a","timestamp":"2026-11-29T11:59:00Z","group":"a\"b"}],"notifications":[]}"#,
                "invalid-value",
                #"displayed[0].group must be a group key: 1 to 64 characters of U+0021…U+007E other than '"' and '\'"#
            ),
            (
                #"{"displayed":[{"key":"a","timestamp":"2026-11-29T11:59:00Z","group":7}],"notifications":[]}"#,
                "invalid-type", "displayed[0].group must be a string, got number"
            ),
            (
                #"{"maxUnits":1e3,"notifications":[]}"#, "invalid-type",
                "maxUnits must be an integer written without fraction or exponent, got 1e3"
            ),
            (
                #"{"maxUnits":99999999999999999999,"notifications":[]}"#, "out-of-range",
                "maxUnits must be an integer in 256…4096, got 99999999999999999999"
            ),
            (
                #"{"\u006eow":"noon","notifications":[]}"#, "invalid-timestamp",
                #"now must be an RFC 3339 date-time such as "2026-05-04T10:00:00Z", got "noon""#
            ),
            (#"{"notifications":[],"fetch":1}"#, "invalid-type", "fetch must be a string, got number"),
            (" 7 ", "invalid-type", "the request body must be a JSON object, got number"),
        ] as [(String, String, String?)])
    func problems_comeInTheirOrder(_ json: String, _ code: String, _ detail: String?) {
        #expect(firstPass(Array(json.utf8)) == nil, "\(json)")
        guard case .failure(let problem) = validatedPass(Array(json.utf8)) else {
            Issue.record("accepted \(json)")
            return
        }
        #expect(problem.code == code, "\(json)")
        if let detail { #expect(problem.detail == detail, "\(json)") }
    }

    @Test func importanceRow_acceptsExactlyImportancesWords() {
        // The row's list restates `Importance`'s words for the decoder and
        // its problem; the enum is what the engine reads them into.
        let words = WordList.importance.words
        let listed = String(
            decoding: UnsafeBufferPointer(start: words.utf8Start, count: words.utf8CodeUnitCount), as: UTF8.self)
        #expect(listed == Importance.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
        for word in Importance.allCases.map(\.rawValue) + ["Low", "urgent", "", "normal "] {
            let accepted = Array(word.utf8).withUnsafeBufferPointer { ComposeDecoder.isOneOf(words, $0) }
            #expect(accepted == (Importance(rawValue: word) != nil), "\(word)")
        }
    }

    @Test func tooManyNotifications_isReportedBeforeAnInvalidOne() {
        let valid = #"{"id":"a","type":"t","timestamp":"2026-11-29T11:59:00Z"}"#
        let json = #"{"notifications":[{"id":1},"# + Array(repeating: valid, count: 1000).joined(separator: ",") + "]}"
        guard case .failure(let problem) = validatedPass(Array(json.utf8)) else {
            Issue.record("accepted 1001 notifications")
            return
        }
        #expect(problem.detail == "notifications has 1001 items, at most 1000 are allowed")
    }

    // MARK: Variants

    /// `json` with whitespace after some structural bytes outside strings.
    static func withWhitespace<R: RandomNumberGenerator>(_ json: [UInt8], using random: inout R) -> [UInt8] {
        var out: [UInt8] = []
        forEachByte(json) { byte, inString in
            out.append(byte)
            if !inString, [UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: ","), UInt8(ascii: ":")].contains(byte),
                Bool.random(using: &random)
            {
                out += Array([" ", "\n  ", "\t", "\r\n"][Int.random(in: 0..<4, using: &random)].utf8)
            }
        }
        return out
    }

    /// `json` with an unknown member opening some non-empty objects (names
    /// no object of a request has: a case variant, a misspelling, a name
    /// with `/`, escaped ones), and the pointer of the first one added, the
    /// first in document order (nil when none was).
    static func withUnknownMembers<R: RandomNumberGenerator>(_ json: [UInt8], using random: inout R) -> (
        [UInt8], String?
    ) {
        let members: [(text: String, token: String)] = [
            (#""extra":null,"#, "extra"), (#""Preview":"none","#, "Preview"), (#""score":-1.5e3,"#, "score"),
            (#""tag":"a\"b","#, "tag"), (#""seen":true,"#, "seen"), (#""i\u0064s":{"a":[1]},"#, "ids"),
            (#""a/b~c":false,"#, "a~1b~0c"), (#""preveiw":"none","#, "preveiw"),
        ]
        var out: [UInt8] = []
        var first: String? = nil
        // The pointer of the object each open `{` or `[` is, and the next element's index in an array.
        var containers: [(pointer: String, isArray: Bool, index: Int)] = []
        var name: [UInt8] = []
        var lastName = ""
        var previous: UInt8 = 0
        forEachByte(json) { byte, inString in
            // Right after an object's `{` (outside strings), before its first name's quote.
            if previous == UInt8(ascii: "{"), byte != UInt8(ascii: "}"), Bool.random(using: &random) {
                let member = members[Int.random(in: 0..<members.count, using: &random)]
                out += Array(member.text.utf8)
                if first == nil { first = (containers.last?.pointer ?? "") + "/" + member.token }
            }
            out.append(byte)
            if inString {
                name.append(byte)
            } else {
                switch byte {
                case UInt8(ascii: ":"):
                    // RandomCompose's names are plain or escape letters only; unescape them for the pointer.
                    lastName = String(decoding: name.dropFirst().dropLast(), as: UTF8.self)
                    lastName = Self.unescapedLetters(lastName)
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let parent = containers.last
                    let pointer: String
                    if let parent, parent.isArray {
                        pointer = parent.pointer + "/\(parent.index)"
                    } else {
                        pointer = parent == nil ? "" : parent!.pointer + "/" + lastName
                    }
                    containers.append((pointer, byte == UInt8(ascii: "["), 0))
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    containers.removeLast()
                    if let last = containers.indices.last, containers[last].isArray { containers[last].index += 1 }
                default:
                    break
                }
                name = []
            }
            previous = inString ? 0 : byte
        }
        return (out, first)
    }

    /// `\uXXXX` escapes in `name` decoded (RandomCompose escapes names only so).
    private static func unescapedLetters(_ name: String) -> String {
        let scalars = Array(name.unicodeScalars)
        var result = ""
        var index = 0
        while index < scalars.count {
            var hex = ""
            if scalars[index] == "\\", index + 5 < scalars.count, scalars[index + 1] == "u" {
                hex.unicodeScalars.append(contentsOf: scalars[(index + 2)...(index + 5)])
            }
            if let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) {
                result.unicodeScalars.append(scalar)
                index += 6
            } else {
                result.unicodeScalars.append(scalars[index])
                index += 1
            }
        }
        return result
    }

    /// Calls `body` with each byte and whether it lies inside a string (its quotes included).
    private static func forEachByte(_ json: [UInt8], _ body: (UInt8, Bool) -> Void) {
        var inString = false
        var escaped = false
        for byte in json {
            if inString {
                body(byte, true)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
                body(byte, true)
            } else {
                body(byte, false)
            }
        }
    }
}
