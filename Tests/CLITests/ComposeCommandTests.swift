import HTTPCore
import NotificationService
import Testing

/// `notification-text compose`, run as the built binary: the same decoder and
/// validation as `POST /compose`.
@Suite struct ComposeCommandTests {
    @Test func compose_validRequest_printsTheSameResponseAsTheHTTPRoute() throws {
        let request =
            #"{"now": "2026-11-29T12:00:00Z", "notifications": [{"id": "1", "type": "message", "timestamp": "2026-11-29T11:59:00Z", "text": "Hi **there**", "sender": {"name": "Ana"}}]}"#
        let result = try BuiltExecutable.run(["compose"], stdin: Array(request.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let service = NotificationTextService(configuration: ServiceConfiguration(accessLogEnabled: false))
        let http = service.handle(
            HTTPRequest(
                method: "POST", path: "/compose", headers: [("content-type", "application/json")],
                body: Array(request.utf8)))
        #expect(http.status == 200)
        #expect(result.stdout == String(decoding: http.body, as: UTF8.self) + "\n")
    }

    @Test func compose_withApp_usesItForGenericTexts() throws {
        let result = try BuiltExecutable.run(["compose", "--app", "Wiki"], stdin: Array(#"{"fetch": "timeout"}"#.utf8))
        #expect(result.status == 0)
        #expect(result.stdout.contains(#""title":"Wiki""#))
    }

    @Test func compose_locale_writesTheTextsInItsCatalog() throws {
        let request = #"{"now": "2026-11-29T12:00:00Z", "fetch": "timeout", "locale": "de-CH"}"#
        let result = try BuiltExecutable.run(["compose"], stdin: Array(request.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""body":"In Buzz gibt es vielleicht Neues.""#))
        #expect(result.stdout.hasSuffix(#","locale":"de","direction":"ltr"}"# + "\n"))
    }

    @Test func compose_defaultLocale_answersARequestWithoutOne() throws {
        let result = try BuiltExecutable.run(
            ["compose", "--default-locale", "zh-TW"], stdin: Array(#"{"fetch": "failed"}"#.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix(#","locale":"zh-Hant","direction":"ltr"}"# + "\n"))
        let refused = try BuiltExecutable.run(
            ["compose", "--default-locale", "xx"], stdin: Array(#"{"fetch": "failed"}"#.utf8))
        #expect(refused.status == 64)
        #expect(refused.stderr.hasPrefix("notification-text: --default-locale fits no catalog"))
    }

    /// With `--json-lines` each line chooses its own catalog; a bad tag is that line's problem only.
    @Test func compose_jsonLines_eachLineHasItsLocale() throws {
        let lines = [
            #"{"fetch": "failed"}"#, #"{"fetch": "failed", "locale": "uk-UA"}"#, #"{"fetch": "failed", "locale": "e"}"#,
        ]
        let result = try BuiltExecutable.run(
            ["compose", "--json-lines", "--default-locale", "ru"], stdin: Array(lines.joined(separator: "\n").utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let answers = result.stdout.split(separator: "\n")
        #expect(answers.count == 3)
        #expect(answers.first?.hasSuffix(#","locale":"ru","direction":"ltr"}"#) == true)
        #expect(answers.dropFirst().first?.hasSuffix(#","locale":"uk","direction":"ltr"}"#) == true)
        #expect(answers.last?.contains(#""code":"invalid-locale""#) == true)
    }

    /// `compose` and `--json-lines` take `preview` and `push` and answer them as the route does (push.md).
    @Test func compose_previewAndPush_answerTheTierAndThePayloads() throws {
        let request =
            #"{"now": "2026-11-29T12:00:00Z", "preview": "sender", "push": {"badge": 3}, "locale": "he", "#
            + #""notifications": [{"id": "1", "type": "message", "timestamp": "2026-11-29T11:59:00Z", "#
            + #""thread": "t1", "sender": {"name": "Ana"}, "text": "private words"}]}"#
        let result = try BuiltExecutable.run(["compose"], stdin: Array(request.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("private words"))
        #expect(
            result.stdout.contains(
                #""locale":"he","direction":"rtl","push":{"send":true,"alert":true,"heldUntil":null,"group":"t1","stamp":1795953600000,"withdraw":[]"#
            ))
        #expect(
            result.stdout.contains(#""thread-id":"t1","interruption-level":"active","relevance-score":0.6,"badge":3}"#))

        let lines = [request, #"{"fetch": "failed", "push": {"reserveBytes": 2049}}"#, #"{"fetch": "failed"}"#]
        let jsonLines = try BuiltExecutable.run(
            ["compose", "--json-lines"], stdin: Array(lines.joined(separator: "\n").utf8))
        let answers = jsonLines.stdout.split(separator: "\n")
        #expect(answers.count == 3)
        #expect(answers.first.map(String.init) == result.stdout.split(separator: "\n").first.map(String.init))
        #expect(answers.dropFirst().first?.contains(#""code":"out-of-range""#) == true)
        #expect(answers.last?.contains(#""push""#) == false)
    }

    @Test func compose_malformedLocale_printsInvalidLocaleAndExits65() throws {
        let result = try BuiltExecutable.run(["compose"], stdin: Array(#"{"fetch": "failed", "locale": "e"}"#.utf8))
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("notification-text: invalid-locale: locale must be a BCP 47 language tag"))
    }

    @Test func compose_badRequest_printsTheProblemAndExits65() throws {
        let result = try BuiltExecutable.run(
            ["compose"],
            stdin: Array(
                #"{"notifications": [{"id": "1", "type": "m", "timestamp": "noon", "text": "private words"}]}"#.utf8))
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("invalid-timestamp: notifications[0].timestamp must be an RFC 3339 date-time"))
        #expect(!result.stderr.contains("private words"))
    }
}
