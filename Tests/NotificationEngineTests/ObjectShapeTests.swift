import EngineTestSupport
import Testing

@testable import NotificationEngine

/// A notification or displayed entry written as the previous one was, its
/// strings aside, is read by its shape (`ObjectShape`). Its one promise: the
/// request, or the problem, is the one the general path gives with shapes
/// turned off. Each body here starts from no shape unless a test passes the
/// shapes a body before it left (`KeptShapesTests`).
@Suite struct ObjectShapeTests {

    @Test func benchPayload_readsEveryObjectAfterTheFirstOfItsArrayByItsShape() {
        let payload = repositoryFile("bench/payloads/compose-20.json")
        // 19 of the 20 notifications, 1 of the 2 displayed entries.
        #expect(ShapedDecoding.checkSameAsGeneralPath(payload, "compose-20.json") == 20)
    }

    @Test func fixtureRequests_decodeAsWithoutShapes() {
        var shaped = 0
        for fixture in ComposeHTTPCase.all {
            shaped += ShapedDecoding.checkSameAsGeneralPath(fixture.request.bytes, fixture.id)
        }
        #expect(shaped > 0, "no fixture notification was read by its shape")
    }

    @Test func uniformRequests_andTheirMutations_decodeAsWithoutShapes() {
        var random = SplitMix64(seed: 2026)
        var shapedReads = 0
        var refusals = 0
        for round in 0..<3000 {
            var json = UniformCompose.json(using: &random)
            // A third as written; the rest with one to three random edits.
            if round % 3 != 0 {
                for _ in 0...Int.random(in: 0..<3, using: &random) {
                    ShapedDecoding.mutate(&json, using: &random)
                }
            }
            shapedReads += ShapedDecoding.checkSameAsGeneralPath(
                json, "round \(round): \(String(decoding: json, as: UTF8.self))")
            if case .failure = ShapedDecoding.decode(json, readsShapes: true).outcome { refusals += 1 }
        }
        // Both outcomes must be common, or the rounds test little.
        #expect(shapedReads > 3000, "\(shapedReads) notifications read by their shape")
        #expect(refusals > 300, "\(refusals) requests refused")
    }

    @Test(arguments: [
        // Same literals, a value the field refuses: the general path's problem.
        (
            #"{"now":"2026-11-29T12:00:00Z","notifications":[{"id":"a","type":"t","timestamp":"2026-11-29T11:00:00Z"},"#
                + #"{"id":"b","type":"t","timestamp":"2026-11-29T25:00:00Z"}]}"#, "invalid-timestamp"
        ),
        (
            #"{"now":"2026-11-29T12:00:00Z","notifications":[{"id":"a","source":"s","type":"t","timestamp":"2026-11-29T11:00:00Z"},"#
                + #"{"id":"b","source":"s:x","type":"t","timestamp":"2026-11-29T11:00:00Z"}]}"#, "invalid-value"
        ),
        // The rule of a value appended (its colon escaped), of a word list, of a displayed entry's members.
        (
            #"{"now":"2026-11-29T12:00:00Z","notifications":[{"id":"a","source":"s","type":"t","timestamp":"2026-11-29T11:00:00Z"},"#
                + #"{"id":"b","source":"s:x","type":"t","timestamp":"2026-11-29T11:00:00Z"}]}"#, "invalid-value"
        ),
        (
            #"{"now":"2026-11-29T12:00:00Z","notifications":[{"id":"a","type":"t","timestamp":"2026-11-29T11:00:00Z","importance":"high"},"#
                + #"{"id":"b","type":"t","timestamp":"2026-11-29T11:00:00Z","importance":"urgent"}]}"#, "invalid-value"
        ),
        (
            #"{"now":"2026-11-29T12:00:00Z","displayed":[{"key":"a","timestamp":"2026-11-29T11:00:00Z","digest":"0123456789abcdef"},"#
                + #"{"key":"b","timestamp":"2026-11-29T11:00:00Z","digest":"0123456789abcdeg"}]}"#, "invalid-value"
        ),
        (
            #"{"now":"2026-11-29T12:00:00Z","notifications":[{"id":"a","type":"t","timestamp":"2026-11-29T11:00:00Z"},"#
                + #"{"id":"b\x","type":"t","timestamp":"2026-11-29T11:00:00Z"}]}"#, "invalid-json"
        ),
        (
            #"{"now":"2026-11-29T12:00:00Z","notifications":[{"id":"a","type":"t","timestamp":"2026-11-29T11:00:00Z"},"#
                + "{\"id\":\"b\u{1}\",\"type\":\"t\",\"timestamp\":\"2026-11-29T11:00:00Z\"}]}", "invalid-json"
        ),
    ])
    func valuesTheFieldRefuses_inTheSameShape_areReportedAsWithoutShapes(_ json: String, _ code: String) {
        let bytes = Array(json.utf8)
        ShapedDecoding.checkSameAsGeneralPath(bytes, json)
        guard case .failure(let problem) = ShapedDecoding.decode(bytes, readsShapes: true).outcome else {
            Issue.record("\(json): accepted")
            return
        }
        #expect(problem.code == code)
    }

    @Test func escapedValues_inTheSameShape_areReadByShape_andAppendedOnce() {
        let json =
            #"{"now":"2026-11-29T12:00:00Z","notifications":["#
            + #"{"id":"a","type":"t","timestamp":"2026-11-29T11:00:00Z","text":"one"},"#
            + #"{"id":"b","type":"t","timestamp":"2026-11-29T11:00:01Z","text":"two\nlines \u00e9"},"#
            + #"{"id":"c","type":"t","timestamp":"2026-11-29T11:00:02Z","text":"\u0041"}]}"#
        #expect(ShapedDecoding.checkSameAsGeneralPath(Array(json.utf8), "escapes") == 2)
        let request = try? ShapedDecoding.decode(Array(json.utf8), readsShapes: true).outcome.get()
        #expect(request?.notifications.map(\.text) == ["one", "two\nlines é", "A"])
    }

    /// An object of the previous one's shape but for a member its kind does
    /// not have (compose.md 2.2) is not read by the shape, however its
    /// literals line up: the general path refuses it, with the shapes on as
    /// off, and the shape noted so far is still the one of known names.
    @Test(arguments: [
        #"{"id":"c","type":"t","timestamp":"2026-11-29T11:00:02Z","text":"x","Text":"y"}"#,
        #"{"id":"c","type":"t","timestamp":"2026-11-29T11:00:02Z","txet":"x"}"#,
        #"{"id":"c","type":"t","timestamp":"2026-11-29T11:00:02Z","text":"x","sender":{"nmae":"A"}}"#,
        #"{"id":"c","type":"t","timestamp":"2026-11-29T11:00:02Z","text":"x","preview":null}"#,
    ])
    func unknownMember_inAnObjectOfTheSameShapeOtherwise_isRefusedAsWithoutShapes(_ third: String) {
        let json =
            #"{"now":"2026-11-29T12:00:00Z","notifications":["#
            + #"{"id":"a","type":"t","timestamp":"2026-11-29T11:00:00Z","text":"one"},"#
            + #"{"id":"b","type":"t","timestamp":"2026-11-29T11:00:01Z","text":"two"},"# + third + "]}"
        ShapedDecoding.checkSameAsGeneralPath(Array(json.utf8), third)
        guard case .failure(let problem) = ShapedDecoding.decode(Array(json.utf8), readsShapes: true).outcome else {
            Issue.record("\(third): accepted")
            return
        }
        #expect(problem.code == "unknown-member", "\(third)")
        #expect(problem.pointer?.hasPrefix("/notifications/2/") == true, "\(third): \(problem.pointer ?? "none")")
    }

    /// A literal of over 16 bytes is compared word by word: a difference in
    /// a middle word (here one byte of whitespace, a space or a tab, between
    /// two members whose values are `null`) is a different shape, read by the
    /// general path.
    @Test(arguments: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16])
    func longLiteral_differingInAnyByte_isNotReadByTheShape(_ padding: Int) {
        let pad = String(repeating: " ", count: padding)
        func notification(_ id: String, _ space: String) -> String {
            #"{"id":"\#(id)",\#(pad)"threadTitle":null,\#(space)"defaultText":null\#(pad),"read":true,"type":"t","#
                + #""timestamp":"2026-11-29T11:00:00Z"}"#
        }
        let json =
            #"{"now":"2026-11-29T12:00:00Z","notifications":["#
            + [notification("a", " "), notification("b", "\t"), notification("c", "\t")].joined(separator: ",")
            + "]}"
        // The second differs from the first inside the literal; the third is as the second.
        #expect(ShapedDecoding.checkSameAsGeneralPath(Array(json.utf8), "padding \(padding)") == 1)
        let request = try? ShapedDecoding.decode(Array(json.utf8), readsShapes: true).outcome.get()
        #expect(request?.notifications.map(\.id) == ["a", "b", "c"], "padding \(padding)")
    }

    /// Booleans are slots of the shape, not part of its literals:
    /// notifications whose `read` differs from one to the next are still
    /// read by it, each value read as the general path reads it.
    @Test func varyingBooleans_areReadByTheShape() {
        var objects: [String] = []
        for index in 0..<20 {
            objects.append(
                #"{"id":"n\#(index)","type":"message","timestamp":"2026-11-29T11:\#(10 + index):00Z","#
                    + #""read":\#(index % 3 == 0),"text":"hi \#(index)"}"#)
        }
        let json = Array(
            (#"{"now":"2026-11-29T12:00:00Z","notifications":["# + objects.joined(separator: ",") + "]}").utf8)
        #expect(ShapedDecoding.checkSameAsGeneralPath(json, "varying scalars") == 19)
        let request = try? ShapedDecoding.decode(json, readsShapes: true).outcome.get()
        #expect(request?.notifications.map(\.read) == (0..<20).map { $0 % 3 == 0 })
        #expect(request?.notifications.map(\.text) == (0..<20).map { "hi \($0)" })
    }

    /// The bench's request with a varying `read` added to every notification
    /// is read by shape as the request without it.
    @Test func benchPayload_withAVaryingBooleanMember_isStillReadByShape() {
        var text = String(decoding: repositoryFile("bench/payloads/compose-20.json"), as: UTF8.self)
        #expect(!text.contains(#""read":"#), "the bench payload has no read member")
        var index = 0
        while let range = text.range(of: #""type":"#) {
            text.replaceSubrange(range, with: #""read":\#(index % 3 == 1),"TYPE":"#)
            index += 1
        }
        text = text.replacingOccurrences(of: #""TYPE":"#, with: #""type":"#)
        #expect(index == 20, "the bench payload's notifications")
        #expect(ShapedDecoding.checkSameAsGeneralPath(Array(text.utf8), "compose-20.json with read") == 20)
    }

    /// A number in a slot is read by the number's grammar, and an integer
    /// slot takes only integers within its bounds: anything else ends the
    /// shaped read, for the general path to refuse or read.
    @Test func scalarSlots_readTheirKindOnly() {
        var noted = ObjectShape(isEnabled: true)
        let body = Array(#"{"a":5,"b":true}"#.utf8)
        noted.begin(at: 0)
        noted.note(.read, .integer, start: 5, end: 6, bounds: 0...9)
        noted.note(.read, .boolean, start: 11, end: 15)
        body.withUnsafeBufferPointer { noted.finish(end: body.count, in: $0) }
        let isKnown = noted.isKnown
        #expect(isKnown)
        let pieces = noted.pieces
        func scalar(_ piece: Int, _ text: String) -> Int64? {
            Array(text.utf8).withUnsafeBufferPointer { bytes in
                ObjectShape.Piece.scalar(UnsafePointer(pieces.baseAddress! + piece), at: 0, in: bytes)
            }.map(\.value)
        }
        #expect(scalar(0, "7,") == 7)
        #expect(scalar(0, "10") == nil, "above the bounds")
        #expect(scalar(0, "-1") == nil, "below the bounds")
        #expect(scalar(0, "5.0") == nil, "not written as an integer")
        #expect(scalar(0, "05") == nil, "a leading zero")
        #expect(scalar(1, "false}") == 0)
        #expect(scalar(1, "true") == 1)
        #expect(scalar(1, "tru") == nil)
        #expect(scalar(1, "1") == nil, "a number is not a boolean")
        #expect(scalar(0, "-") == nil)
        #expect(scalar(0, "\"1\"") == nil, "a string is not an integer")
    }

    /// Literals within 8 bytes of the body's end are compared byte by byte:
    /// the last object's closing literal, as written or not.
    @Test(arguments: [#"}]}"#, #"}]} "#, #"} ]}"#, #"}]"#, #"}"#, #""#])
    func lastLiteral_atTheBodysEnd_isComparedWithinTheBody(_ ending: String) {
        let json =
            #"{"now":"2026-11-29T12:00:00Z","notifications":[{"id":"a","type":"t","timestamp":"2026-11-29T11:00:00Z"},"#
            + #"{"id":"b","type":"t","timestamp":"2026-11-29T11:00:00Z""# + ending
        let shaped = ShapedDecoding.checkSameAsGeneralPath(Array(json.utf8), "ending \(ending)")
        #expect(shaped == (ending.hasPrefix("}") ? 1 : 0), "ending \(ending)")
    }
}

extension ShapedDecoding {
    /// Checks the promise for `json`, its first pass starting from `kept`
    /// (as `decode`); the number of objects read by shape.
    @discardableResult
    static func checkSameAsGeneralPath(
        _ json: [UInt8], _ label: @autoclosure () -> String, kept: KeptShapes? = KeptShapes()
    ) -> Int {
        let shaped = decode(json, readsShapes: true, kept: kept)
        let general = decode(json, readsShapes: false)
        #expect(general.shapedReads == 0, "\(label()): shapes off, yet read by shape")
        switch (shaped.outcome, general.outcome) {
        case (.success(let request), .success(let expected)):
            #expect(request == expected, "\(label()): a different request")
            #expect(request.bytes == expected.bytes, "\(label()): different bytes appended")
        case (.failure(let problem), .failure(let expected)):
            #expect(problem.code == expected.code, "\(label())")
            #expect(problem.detail == expected.detail, "\(label())")
        case (.success, .failure(let expected)):
            Issue.record("\(label()): accepted by shape, refused without (\(expected.code): \(expected.detail))")
        case (.failure(let problem), .success):
            Issue.record("\(label()): refused by shape (\(problem.code): \(problem.detail)), accepted without")
        }
        return shaped.shapedReads
    }
}
