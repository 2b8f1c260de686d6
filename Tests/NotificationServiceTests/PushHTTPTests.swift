import EngineTestSupport
import Testing

@testable import NotificationEngine
@testable import NotificationService

/// A case of test-fixtures/push.json (or of its `invalid` array), kept as
/// parsed JSON so the request is sent exactly as the fixture writes it.
struct PushHTTPCase: Sendable, CustomTestStringConvertible {
    let id: String
    let description: String
    let request: JSONValue
    /// The members push.md decides (valid cases).
    let response: JSONValue?
    let sizes: [String: Int]
    /// The problem's status and code (invalid cases).
    let status: Int?
    let code: String?

    var testDescription: String { id }

    static func load(_ array: String) -> [PushHTTPCase] {
        guard case .object(let file)? = try? JSONParser.parse(repositoryFile("test-fixtures/push.json")),
            case .array(let cases)? = file[array]
        else { return [] }
        return cases.compactMap { value in
            guard case .object(let object) = value, case .string(let id)? = object["id"],
                case .string(let description)? = object["description"], let request = object["request"]
            else { return nil }
            var sizes: [String: Int] = [:]
            if case .object(let written)? = object["sizes"] {
                for member in written.members {
                    if case .number(let number) = member.value { sizes[member.name] = number.integerValue }
                }
            }
            var status: Int? = nil
            if case .number(let number)? = object["status"] { status = number.integerValue }
            var code: String? = nil
            if case .string(let written)? = object["code"] { code = written }
            return PushHTTPCase(
                id: id, description: description, request: request, response: object["response"], sizes: sizes,
                status: status, code: code)
        }
    }

    static let cases = load("cases")
    static let invalid = load("invalid")
}

/// push.json over `POST /compose`: the members push.md decides, the `push`
/// member byte for byte as the fixture writes it (members in its order,
/// numbers as written), and each payload's size.
@Suite struct PushHTTPTests {
    let harness = ServiceHarness()

    @Test func fixture_isLoaded() {
        #expect(PushHTTPCase.cases.count >= 60, "test-fixtures/push.json did not load")
        #expect(PushHTTPCase.invalid.count >= 10)
    }

    @Test(arguments: PushHTTPCase.cases)
    func pushFixture_overHTTP_answersTheExpectedMembers(_ fixture: PushHTTPCase) throws {
        let response = harness.post("/compose", bytes: fixture.request.bytes)
        try #require(response.status == 200, "[\(fixture.id)] status \(response.status): \(response.text)")
        guard case .object(let actual)? = response.json, case .object(let expected)? = fixture.response else {
            Issue.record("[\(fixture.id)] the answer or the fixture is not an object")
            return
        }
        for member in expected.members {
            let got = try #require(actual[member.name], "[\(fixture.id)] no \(member.name)")
            #expect(
                structurallyEqual(got, member.value),
                """
                [\(fixture.id)] \(member.name): \(fixture.description)
                  expected: \(jsonText(member.value))
                  actual:   \(jsonText(got))
                """)
        }
        #expect(actual["push"] == nil || expected["push"] != nil, "[\(fixture.id)] push answered unasked")
        guard let expectedPush = expected["push"], let push = actual["push"] else { return }
        // Byte for byte: the writer's member order and number spelling are the fixture's.
        #expect(push.bytes == expectedPush.bytes, "[\(fixture.id)] push bytes\n  actual: \(jsonText(push))")
        guard case .object(let members) = push, case .object(let apns)? = members["apns"],
            case .object(let fcm)? = members["fcm"], case .object(let webpush)? = members["webpush"]
        else {
            Issue.record("[\(fixture.id)] push has not the shape of push.md")
            return
        }
        #expect(apns["payload"]?.bytes.count == fixture.sizes["apns"], "[\(fixture.id)] apns bytes")
        #expect(fcm["message"]?.bytes.count == fixture.sizes["fcm"], "[\(fixture.id)] fcm bytes")
        #expect(webpush["payload"]?.bytes.count == fixture.sizes["webpush"], "[\(fixture.id)] webpush bytes")
    }

    @Test(arguments: PushHTTPCase.invalid)
    func invalidPushRequest_overHTTP_isTheFixtureProblem(_ fixture: PushHTTPCase) throws {
        let response = harness.post("/compose", bytes: fixture.request.bytes)
        #expect(response.status == fixture.status, "[\(fixture.id)] \(response.text)")
        let problem = try #require(response.problem, "[\(fixture.id)] not a problem: \(response.text)")
        #expect(problem.code == fixture.code, "[\(fixture.id)] \(problem.detail)")
        // The problem names the member at fault: `preview`, `push`, a displayed entry (its `group` or
        // `key`), or a notification (its `importance`, `threadIsGroup` or `sender.avatar`).
        #expect(
            problem.detail.contains("preview") || problem.detail.contains("push")
                || problem.detail.hasPrefix("displayed[") || problem.detail.hasPrefix("notifications["),
            "[\(fixture.id)] \(problem.detail)")
    }
}
