import Foundation
import HTTPCore
import NotificationService
import Testing

@testable import notification_text

/// The fixture cases through the CLI: `render --json` and `--json-lines`
/// give the bytes `POST /body` and `POST /compose` answer with.
@Suite struct FixtureCLITests {
    struct BodyCase: Decodable, Sendable, CustomTestStringConvertible {
        let id: String
        let text: String
        let maxUnits: Int?
        var testDescription: String { id }

        /// The case as a `POST /body` request, written by Foundation.
        var request: [UInt8] {
            var object: [String: Any] = ["text": text]
            if let maxUnits { object["maxUnits"] = maxUnits }
            return Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
        }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let bodyCases: [BodyCase] = {
        struct File: Decodable { let cases: [BodyCase] }
        guard let data = try? Data(contentsOf: root.appendingPathComponent("test-fixtures/notification-body.json"))
        else { return [] }
        return (try? JSONDecoder().decode(File.self, from: data).cases) ?? []
    }()

    /// Each compose case's request, re-serialized on one line.
    static let composeRequests: [[UInt8]] = {
        guard let data = try? Data(contentsOf: root.appendingPathComponent("test-fixtures/compose.json")),
            let file = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let cases = file["cases"] as? [[String: Any]]
        else { return [] }
        return cases.compactMap { $0["request"] }.compactMap { try? JSONSerialization.data(withJSONObject: $0) }.map {
            Array($0)
        }
    }()

    static let service = NotificationTextService(configuration: ServiceConfiguration(accessLogEnabled: false))

    static func http(_ path: String, _ body: [UInt8]) -> [UInt8] {
        service.handle(HTTPRequest(method: "POST", path: path, body: body)).body
    }

    @Test func fixtures_areLoaded() {
        #expect(Self.bodyCases.count >= 100)
        #expect(Self.composeRequests.count >= 50)
    }

    @Test(arguments: bodyCases)
    func renderJSON_equalsTheHTTPAnswer(_ fixture: BodyCase) {
        let cli = RenderCommand.jsonAnswer(markdown: fixture.text, maxUnits: fixture.maxUnits ?? 256)
        #expect(
            String(decoding: cli, as: UTF8.self) == String(decoding: Self.http("/body", fixture.request), as: UTF8.self)
        )
    }

    /// The built binary: every body case in one `render --json-lines` run.
    @Test func renderJSONLines_everyFixtureCase_equalsTheHTTPAnswers() throws {
        try Self.expectJSONLinesAnswerAsHTTP("render", "/body", Self.bodyCases.map(\.request))
    }

    /// The built binary: every compose case in one `compose --json-lines` run
    /// (each fixture request has its own `now`).
    @Test func composeJSONLines_everyFixtureCase_equalsTheHTTPAnswers() throws {
        try Self.expectJSONLinesAnswerAsHTTP("compose", "/compose", Self.composeRequests)
    }

    /// `command --json-lines` on `requests`, one per line, answers each as `POST path` does.
    static func expectJSONLinesAnswerAsHTTP(_ command: String, _ path: String, _ requests: [[UInt8]]) throws {
        #expect(requests.allSatisfy { !$0.contains(0x0A) }, "one request per line")
        let result = try BuiltExecutable.run(
            [command, "--json-lines"], stdin: Array(requests.joined(separator: [0x0A])))
        #expect(result.status == 0)
        let answers = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(answers.count == requests.count)
        for (request, answer) in zip(requests, answers) {
            #expect(String(answer) == String(decoding: http(path, request), as: UTF8.self))
        }
    }

    /// The built binary: a few cases through `render --json`, one process each.
    @Test func renderJSON_builtBinary_equalsTheHTTPAnswer() throws {
        for fixture in Self.bodyCases.prefix(3) + Self.bodyCases.filter({ $0.maxUnits != nil }).prefix(2) {
            var arguments = ["render", "--json"]
            if let maxUnits = fixture.maxUnits { arguments += ["--max-units", String(maxUnits)] }
            let result = try BuiltExecutable.run(arguments, stdin: Array(fixture.text.utf8))
            #expect(result.status == 0)
            #expect(
                result.stdout == String(decoding: Self.http("/body", fixture.request), as: UTF8.self) + "\n",
                "\(fixture.id)")
        }
    }
}
