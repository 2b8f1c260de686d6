import EngineTestSupport
import HTTPCore
import Testing

@testable import NotificationEngine
@testable import NotificationService

@Suite struct BodyRouteTests {
    let harness = ServiceHarness()

    // MARK: Success

    @Test func body_rendersTextWithDefaultCap() {
        let response = harness.post("/body", #"{"text": "Hello **world**"}"#)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.route == "/body")
        #expect(response.text == #"{"body":"Hello world","units":11,"truncated":false,"inputCut":false}"#)
    }

    @Test func body_withMaxUnits_capsThere() {
        let text = String(repeating: "x", count: 600)
        let response = harness.post("/body", #"{"text": "\#(text)", "maxUnits": 300}"#)
        #expect(response.status == 200)
        let expected = BodyRenderer.render(text, maxUnits: 300)
        #expect(
            response.json
                == .object(
                    JSONObject(members: [
                        ("body", .string(expected.body)),
                        ("units", .number(JSONNumber(lexeme: "300", integerValue: 300))),
                        ("truncated", .bool(true)), ("inputCut", .bool(false)),
                    ])))
    }

    @Test func body_whenInputIsCut_reportsInputCut() {
        let response = harness.post("/body", #"{"text": "\#(String(repeating: "y", count: 5000))"}"#)
        guard case .object(let object)? = response.json else {
            Issue.record("not JSON")
            return
        }
        #expect(object["inputCut"] == .bool(true))
        #expect(object["truncated"] == .bool(true))
        #expect(object["units"] == .number(JSONNumber(lexeme: "256", integerValue: 256)))
    }

    @Test func body_nullMaxUnits_isTheDefault() {
        let response = harness.post("/body", #"{"maxUnits": null, "text": "a"}"#)
        #expect(response.status == 200)
        #expect(response.text == #"{"body":"a","units":1,"truncated":false,"inputCut":false}"#)
    }

    @Test(arguments: [
        (#"{"maxUnits": null, "extra": {"deep": [1, 2]}, "text": "a", "x": 1.5}"#, "/extra", #""extra""#),
        (#"{"text": "a", "maxunits": 300}"#, "/maxunits", #""maxunits" (did you mean "maxUnits"?)"#),
        (#"{"Text": "a"}"#, "/Text", #""Text" (did you mean "text"?)"#),
        (#"{"text": "a", "x": null}"#, "/x", #""x""#),
        (#"{"text": "a", "a/b~": 1}"#, "/a~1b~0", #""a/b~""#),
    ])
    func body_unknownMember_isRefusedWithItsPointer(_ json: String, _ pointer: String, _ named: String) {
        let response = harness.post("/body", json)
        expectProblem(response, code: "unknown-member", detailContains: "the request has no member \(named);")
        guard case .object(let object)? = response.json else {
            Issue.record("not JSON")
            return
        }
        #expect(object["pointer"] == .string(pointer), "\(json)")
        #expect(object["detail"] == .string("the request has no member \(named); its members are text, maxUnits"))
    }

    @Test func body_escapedText_isDecodedBeforeRendering() {
        let response = harness.post("/body", #"{"text": "\u0048i \uD83D\uDE00\n\tthere"}"#)
        #expect(response.status == 200)
        guard case .object(let object)? = response.json else {
            Issue.record("not JSON")
            return
        }
        #expect(object["body"] == .string(BodyRenderer.render("Hi 😀\n\tthere").body))
    }

    @Test(arguments: [256, 4096])
    func body_maxUnitsAtTheBounds_isAccepted(_ maxUnits: Int) {
        #expect(harness.post("/body", #"{"text": "a", "maxUnits": \#(maxUnits)}"#).status == 200)
    }

    // MARK: Invalid bodies

    @Test func body_invalidJSON_isInvalidJSONWithOffset() {
        expectProblem(harness.post("/body", #"{"text": "a",}"#), code: "invalid-json", detailContains: "at byte 13")
    }

    @Test func body_emptyBody_isInvalidJSON() {
        expectProblem(harness.post("/body", ""), code: "invalid-json")
    }

    @Test func body_invalidUTF8_isInvalidUTF8() {
        let bytes = Array(#"{"text": "a"#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        expectProblem(harness.post("/body", bytes: bytes), code: "invalid-utf8", detailContains: "at byte 11")
    }

    @Test func body_loneSurrogateEscape_isLoneSurrogate() {
        expectProblem(
            harness.post("/body", #"{"text": "a\uD800b"}"#), code: "lone-surrogate", detailContains: "\\uD800")
    }

    @Test func body_deepNesting_isNestingTooDeep() {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        expectProblem(harness.post("/body", #"{"text": "a", "x": \#(deep)}"#), code: "nesting-too-deep")
    }

    @Test func body_duplicateMember_isDuplicateMember() {
        expectProblem(
            harness.post("/body", #"{"text": "a", "text": "b"}"#), code: "duplicate-member", detailContains: "\"text\"")
    }

    @Test func body_manyRepeatsOfAMember_isDuplicateMemberAtTheFirstRepeat() {
        let members = Array(repeating: #""maxUnits":300"#, count: 70_000).joined(separator: ",")
        expectProblem(
            harness.post("/body", #"{"text":"a","# + members + "}"), code: "duplicate-member",
            detailContains: #"at byte 27: duplicate member name "maxUnits""#)
    }

    @Test func body_duplicateAfterManyMembers_isDuplicateMember() {
        let members = (0..<60_000).map { "\"k\($0)\":0" }.joined(separator: ",")
        let body = #"{"text":"a","# + members + #","maxUnits":300,"maxUnits":300}"#
        expectProblem(
            harness.post("/body", body), code: "duplicate-member",
            detailContains: "at byte \(body.utf8.count - 15): duplicate member name \"maxUnits\"")
    }

    @Test(arguments: [#"["text"]"#, #""text""#, "1", "null", "true"])
    func body_nonObjectBody_isInvalidType(_ json: String) {
        expectProblem(harness.post("/body", json), code: "invalid-type", detailContains: "must be a JSON object")
    }

    @Test(arguments: ["{}", #"{"text": null}"#, #"{"maxUnits": 300}"#])
    func body_missingText_isMissingField(_ json: String) {
        expectProblem(harness.post("/body", json), code: "missing-field", detailContains: "text is required")
    }

    @Test(arguments: [#"{"text": 1}"#, #"{"text": ["a"]}"#, #"{"text": {"a": 1}}"#, #"{"text": true}"#])
    func body_textNotAString_isInvalidType(_ json: String) {
        expectProblem(harness.post("/body", json), code: "invalid-type", detailContains: "text must be a string")
    }

    @Test(arguments: [#""300""#, "true", "[300]", "256.0", "2.56e2", "1e400", "300.5"])
    func body_maxUnitsNotAnInteger_isInvalidType(_ maxUnits: String) {
        expectProblem(
            harness.post("/body", #"{"text": "a", "maxUnits": \#(maxUnits)}"#), code: "invalid-type",
            detailContains: "maxUnits must be an integer")
    }

    @Test(arguments: ["255", "4097", "0", "-256", "99999999999999999999999"])
    func body_maxUnitsOutOfRange_isOutOfRange(_ maxUnits: String) {
        expectProblem(
            harness.post("/body", #"{"text": "a", "maxUnits": \#(maxUnits)}"#), code: "out-of-range",
            detailContains: "maxUnits must be an integer in 256…4096")
    }

    @Test func body_syntaxErrorWins_overFieldErrors() {
        expectProblem(harness.post("/body", #"{"text": 5, "maxUnits": 1, }"#), code: "invalid-json")
    }

    // MARK: Content type

    @Test(arguments: [
        "application/json", "application/json; charset=utf-8", "Application/JSON;Charset=\"UTF-8\"",
        "application/vnd.example+json", "application/merge-patch+json; foo=bar",
    ])
    func body_jsonContentTypes_areAccepted(_ contentType: String) {
        #expect(harness.post("/body", #"{"text": "a"}"#, headers: [("content-type", contentType)]).status == 200)
    }

    @Test func body_withoutContentType_isTreatedAsJSON() {
        #expect(harness.post("/body", #"{"text": "a"}"#, headers: []).status == 200)
    }

    @Test(arguments: [
        "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonx",
        "application/+json", "text/json", "application/json; charset=latin1", "",
    ])
    func body_otherContentTypes_areUnsupportedMediaType(_ contentType: String) {
        let response = harness.post("/body", #"{"text": "a"}"#, headers: [("content-type", contentType)])
        expectProblem(response, status: 415, code: "unsupported-media-type")
        #expect(response.header("Accept-Post") == "application/json")
    }

    @Test func body_compressedContent_isUnsupportedMediaType() {
        let response = harness.post(
            "/body", #"{"text": "a"}"#, headers: [("content-type", "application/json"), ("content-encoding", "gzip")])
        expectProblem(response, status: 415, code: "unsupported-media-type", detailContains: "Content-Encoding")
        #expect(response.header("Accept-Encoding") == "identity")
    }

    @Test func body_identityContentEncoding_isAccepted() {
        #expect(harness.post("/body", #"{"text": "a"}"#, headers: [("content-encoding", "identity")]).status == 200)
    }

    // MARK: Methods

    @Test(arguments: ["GET", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS", "post"])
    func body_otherMethods_areMethodNotAllowedWithAllow(_ method: String) {
        let response = harness.service.handle(
            HTTPRequest(method: method, path: "/body", body: Array(#"{"text":"a"}"#.utf8)))
        #expect(response.status == 405)
        #expect(response.header("Allow") == "POST")
        if method != "HEAD" {
            expectProblem(response, status: 405, code: "method-not-allowed")
        } else {
            #expect(response.body.isEmpty)
        }
    }
}
