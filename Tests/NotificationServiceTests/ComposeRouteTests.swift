import EngineTestSupport
import HTTPCore
import Testing

@testable import NotificationEngine
@testable import NotificationService

@Suite struct ComposeRouteTests {
    let harness = ServiceHarness()

    private func notification(id: String = "1", extra: String = "") -> String {
        #"{"id": "\#(id)", "type": "message", "timestamp": "2026-11-29T11:59:00Z"\#(extra)}"#
    }

    private func composed(_ response: HTTPResponse) -> JSONObject? {
        guard response.status == 200, response.header("Content-Type") == "application/json",
            case .object(let object)? = response.json
        else { return nil }
        return object
    }

    // MARK: Success

    @Test func compose_singleMessage_answersTheSpecResponse() {
        let response = harness.post(
            "/compose",
            #"""
            {"now": "2026-11-29T12:00:00Z", "notifications": [
              {"id": "7", "source": "chat", "type": "message", "timestamp": "2026-11-29T11:59:00Z",
               "sender": {"id": "u1", "name": "Ana"}, "threadTitle": "Lunch", "thread": "t1",
               "text": "Hi **there**", "url": "https://example.com/7"}
            ]}
            """#)
        #expect(response.route == "/compose")
        // The notification's members in the answer table's order, any the
        // request gives no value null.
        let texts = [
            "title": "Ana", "subtitle": "Lunch", "body": "Hi there", "threadIdentifier": "t1",
            "url": "https://example.com/7",
        ]
        let notification = AnswerMember.allCases.map { member in
            #""\#(member.name)":"# + (texts[member.name].map { #""\#($0)""# } ?? "null")
        }
        #expect(notification.count >= texts.count)
        let expected =
            #"{"kind":"single","reason":null,"notification":{"# + notification.joined(separator: ",")
            + #"},"shown":["chat:7"],"dropped":[],"displayed":[{"key":"chat:7","timestamp":"2026-11-29T11:59:00Z","group":"t1"}],"locale":"en","direction":"ltr"}"#
        #expect(response.text == expected)
    }

    /// A misspelled privacy member is refused, not ignored: ignored, it
    /// would leave `preview` at `full` and show the sender's text.
    @Test func compose_misspelledPreview_isUnknownMember_withItsPointer() {
        let response = harness.post(
            "/compose",
            #"""
            {"now": "2026-11-29T12:00:00Z", "preveiw": "none", "notifications": [
              {"id": "7", "type": "message", "timestamp": "2026-11-29T11:59:00Z", "text": "the secret"}]}
            """#)
        #expect(response.status == 400)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(!response.text.contains("the secret"), "the problem quotes no value")
        #expect(
            response.text
                == #"{"type":"tag:notification-text,2026:problem:unknown-member","title":"An object has a member it does not define","status":400,"detail":"the request has no member \"preveiw\" (did you mean \"preview\"?); its members are notifications, displayed, now, maxAgeSeconds, maxUnits, app, recipient, fetch, locale, preview, push","pointer":"/preveiw","code":"unknown-member"}"#
        )
    }

    @Test func compose_withoutNow_usesTheServerClock() {
        // 2026-11-29T12:00:00Z is the harness clock: 11:49:59 is stale, 11:50:00 is fresh.
        let response = harness.post(
            "/compose",
            #"""
            {"notifications": [
              {"id": "old", "type": "message", "timestamp": "2026-11-29T11:49:59Z"},
              {"id": "new", "type": "message", "timestamp": "2026-11-29T11:50:00Z"}
            ]}
            """#)
        guard let object = composed(response) else {
            Issue.record("not a compose response: \(response.text)")
            return
        }
        #expect(object["shown"] == .array([.string("new")]))
        #expect(jsonText(object["dropped"] ?? .null) == #"[{"key":"old","reason":"stale"}]"#)
    }

    @Test(arguments: [#""#, #", "app": """#, #", "app": null"#, #", "app": " \t ""#])
    func compose_withoutApp_usesTheConfiguredApp(_ appMember: String) {
        let harness = ServiceHarness(appName: "Wiki")
        let response = harness.post("/compose", #"{"fetch": "failed"\#(appMember)}"#)
        guard let object = composed(response), case .object(let content)? = object["notification"] else {
            Issue.record("not a compose response: \(response.text)")
            return
        }
        #expect(content["title"] == .string("Wiki"))
        #expect(content["body"] == .string("There might be new activity on Wiki."))
    }

    @Test func compose_withApp_usesIt() {
        let response = harness.post("/compose", #"{"fetch": "timeout", "app": "Chat"}"#)
        guard let object = composed(response), case .object(let content)? = object["notification"] else {
            Issue.record("not a compose response: \(response.text)")
            return
        }
        #expect(content["title"] == .string("Chat"))
        #expect(object["reason"] == .string("timeout"))
    }

    @Test func compose_whenFetchFailed_notificationsMayBeMissing() {
        #expect(harness.post("/compose", #"{"fetch": "failed"}"#).status == 200)
    }

    @Test func compose_atTheLimits_isAccepted() {
        let notifications = (0..<1000).map { notification(id: String($0)) }.joined(separator: ",")
        let displayed = Array(repeating: #"{"key": "k", "timestamp": "2026-11-29T11:00:00Z"}"#, count: 10_000).joined(
            separator: ",")
        let response = harness.post(
            "/compose",
            #"{"notifications": [\#(notifications)], "displayed": [\#(displayed)], "maxAgeSeconds": 86400, "maxUnits": 4096}"#
        )
        #expect(response.status == 200)
    }

    // MARK: Invalid requests

    @Test func compose_missingNotificationsWhenFetchIsOk_isMissingField() {
        expectProblem(
            harness.post("/compose", #"{"now": "2026-11-29T12:00:00Z"}"#), code: "missing-field",
            detailContains: "notifications is required when fetch is \"ok\"")
        expectProblem(harness.post("/compose", #"{"fetch": "ok", "notifications": null}"#), code: "missing-field")
    }

    @Test func compose_tooManyNotifications_isOutOfRange() {
        let notifications = Array(repeating: notification(), count: 1001).joined(separator: ",")
        expectProblem(
            harness.post("/compose", #"{"notifications": [\#(notifications)]}"#), code: "out-of-range",
            detailContains: "notifications has 1001 items, at most 1000")
    }

    @Test func compose_tooManyDisplayed_isOutOfRange() {
        let displayed = Array(repeating: #"{"key": "k", "timestamp": "2026-11-29T11:00:00Z"}"#, count: 10_001).joined(
            separator: ",")
        expectProblem(
            harness.post("/compose", #"{"notifications": [], "displayed": [\#(displayed)]}"#), code: "out-of-range",
            detailContains: "displayed has 10001 items, at most 10000")
    }

    @Test(arguments: ["-1", "86401"])
    func compose_maxAgeSecondsOutOfRange_isOutOfRange(_ value: String) {
        expectProblem(
            harness.post("/compose", #"{"notifications": [], "maxAgeSeconds": \#(value)}"#), code: "out-of-range",
            detailContains: "maxAgeSeconds must be an integer in 0…86400")
    }

    @Test func compose_maxAgeSecondsAsFloat_isInvalidType() {
        expectProblem(
            harness.post("/compose", #"{"notifications": [], "maxAgeSeconds": 600.0}"#), code: "invalid-type",
            detailContains: "maxAgeSeconds")
    }

    @Test(arguments: ["255", "4097"])
    func compose_maxUnitsOutOfRange_isOutOfRange(_ value: String) {
        expectProblem(
            harness.post("/compose", #"{"notifications": [], "maxUnits": \#(value)}"#), code: "out-of-range",
            detailContains: "maxUnits")
    }

    @Test func compose_sourceWithColon_isInvalidValue() {
        let body = #"{"notifications": [\#(notification()), \#(notification(extra: #", "source": "a:b""#))]}"#
        expectProblem(
            harness.post("/compose", body), code: "invalid-value",
            detailContains: "notifications[1].source must not contain ':'")
    }

    @Test(arguments: [
        "2026-11-29 11:59:00Z", "2026-11-29T11:59:00", "2026-02-30T00:00:00Z", "2026-11-29T24:00:00Z", "yesterday", "",
        "2026-11-29T11:59:00+0100", "2026-11-29T11:59:00.Z",
    ])
    func compose_timestampNotRFC3339_isInvalidTimestampWithPath(_ timestamp: String) {
        let notifications = [
            notification(), notification(), notification(), #"{"id": "4", "type": "x", "timestamp": "\#(timestamp)"}"#,
        ]
        expectProblem(
            harness.post("/compose", #"{"notifications": [\#(notifications.joined(separator: ","))]}"#),
            code: "invalid-timestamp", detailContains: "notifications[3].timestamp must be an RFC 3339 date-time")
    }

    @Test func compose_nowNotRFC3339_isInvalidTimestamp() {
        expectProblem(
            harness.post("/compose", #"{"notifications": [], "now": "now"}"#), code: "invalid-timestamp",
            detailContains: "now must be")
    }

    @Test func compose_displayedTimestampNotRFC3339_isInvalidTimestamp() {
        expectProblem(
            harness.post("/compose", #"{"notifications": [], "displayed": [{"key": "a", "timestamp": 5}]}"#),
            code: "invalid-type", detailContains: "displayed[0].timestamp must be a string")
        expectProblem(
            harness.post("/compose", #"{"notifications": [], "displayed": [{"key": "a", "timestamp": "x"}]}"#),
            code: "invalid-timestamp", detailContains: "displayed[0].timestamp")
    }

    @Test(arguments: ["OK", "error", "", "Failed"])
    func compose_unknownFetch_isInvalidValue(_ fetch: String) {
        expectProblem(
            harness.post("/compose", #"{"fetch": "\#(fetch)"}"#), code: "invalid-value",
            detailContains: "fetch must be one of")
    }

    @Test(arguments: [
        (#"{"id": "1", "timestamp": "2026-11-29T11:59:00Z"}"#, "notifications[0].type is required"),
        (#"{"type": "m", "timestamp": "2026-11-29T11:59:00Z"}"#, "notifications[0].id is required"),
        (#"{"id": "1", "type": "m"}"#, "notifications[0].timestamp is required"),
    ])
    func compose_notificationMissingRequiredField_isMissingField(_ item: String, _ detail: String) {
        expectProblem(
            harness.post("/compose", #"{"notifications": [\#(item)]}"#), code: "missing-field", detailContains: detail)
    }

    @Test(arguments: [
        (#", "read": "yes""#, "notifications[0].read must be a boolean"),
        (#", "sender": "Ana""#, "notifications[0].sender must be an object"),
        (#", "sender": {"name": 5}"#, "notifications[0].sender.name must be a string"),
        (#", "text": ["a"]"#, "notifications[0].text must be a string"),
        (#", "thread": 1"#, "notifications[0].thread must be a string"),
        (#", "url": false"#, "notifications[0].url must be a string"),
    ])
    func compose_mistypedNotificationField_isInvalidTypeWithPath(_ extra: String, _ detail: String) {
        expectProblem(
            harness.post("/compose", #"{"notifications": [\#(notification(extra: extra))]}"#), code: "invalid-type",
            detailContains: detail)
    }

    @Test(arguments: [
        (#"{"notifications": {}}"#, "notifications must be an array"),
        (#"{"notifications": [1]}"#, "notifications[0] must be an object"),
        (#"{"notifications": [], "displayed": [[]]}"#, "displayed[0] must be an object"),
        (
            #"{"notifications": [], "displayed": [{"timestamp": "2026-11-29T11:59:00Z"}]}"#,
            "displayed[0].key is required"
        ),
        (#"{"notifications": [], "recipient": 5}"#, "recipient must be a string"),
        (#"{"notifications": [], "app": {}}"#, "app must be a string"),
        (#"{"fetch": 1}"#, "fetch must be a string"),
    ])
    func compose_mistypedRequestField_isRejectedWithPath(_ body: String, _ detail: String) {
        let response = harness.post("/compose", body)
        #expect(response.status == 400)
        #expect(response.problem?.detail.contains(detail) == true, "\(response.text)")
        #expect(["invalid-type", "missing-field"].contains(response.problem?.code ?? ""))
    }

    @Test func compose_nonObjectBody_isInvalidType() {
        expectProblem(harness.post("/compose", "[]"), code: "invalid-type", detailContains: "must be a JSON object")
    }

    @Test func compose_loneSurrogateInSenderName_isLoneSurrogate() {
        expectProblem(
            harness.post(
                "/compose", #"{"notifications": [\#(notification(extra: #", "sender": {"name": "\uDC00"}"#))]}"#),
            code: "lone-surrogate")
    }

    @Test func compose_invalidInput_neverReachesTheComposer() {
        let harness = ServiceHarness(compose: { _ in
            Issue.record("the composer was called")
            throw Problem(.internalError, "unreachable")
        })
        _ = harness.post("/compose", #"{"notifications": [\#(notification(extra: #", "source": ":""#))]}"#)
        _ = harness.post("/compose", #"{"notifications": [], "maxUnits": 1}"#)
    }
}
