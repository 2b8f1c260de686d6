import Foundation
import Testing

@testable import NotificationEngine

/// Runs every case of `test-fixtures/push.json` through `Composer.compose`
/// (the tiers, `direction` and the push payloads of push.md), the answer
/// written by the engine's writer.
@Suite struct PushFixtureTests {
    @Test(arguments: PushFixture.cases)
    func compose_matchesPushFixtureCase(_ fixtureCase: PushFixture.Case) throws {
        let request = try #require(
            fixtureCase.request, "\(fixtureCase.id): request does not decode: \(fixtureCase.problem ?? "")")
        let response = Composer.compose(request)
        let push = Composer.push(for: request, response: response)
        let written = try #require(
            try JSONSerialization.jsonObject(with: Data(response.jsonBody(push: push))) as? [String: Any],
            "\(fixtureCase.id): the answer is not a JSON object")
        let decided = written.filter { PushFixture.members.contains($0.key) }
        let actual = FixtureJSON(any: decided)
        #expect(
            actual == fixtureCase.expected,
            """
            \(fixtureCase.id): \(fixtureCase.description)
            \(fixtureCase.expected.firstDifference(from: actual) ?? "")
            """)
        if let push {
            for transport in PushAnswer.Transport.allCases {
                let size = fixtureCase.sizes[transport.rawValue]
                #expect(push.payloadJSON(transport).count == size, "\(fixtureCase.id): \(transport) bytes")
                #expect(push[transport].byteCount == size, "\(fixtureCase.id): \(transport) byteCount")
            }
        } else {
            #expect(fixtureCase.sizes.isEmpty, "\(fixtureCase.id): no push answered")
        }
    }

    @Test func fixture_hasAtLeastSixtyCasesWithUniqueKebabCaseIDs() {
        let ids = PushFixture.cases.map(\.id)
        #expect(ids.count >= 60)
        expectUniqueKebabCaseIDs(ids)
    }
}

/// The push fixture, decoded once with the test-side decoder of `ComposeFixture`.
enum PushFixture {
    /// The members of an answer push.json pins.
    static let members: Set<String> = ["kind", "reason", "notification", "locale", "direction", "displayed", "push"]

    struct Case: Sendable, CustomTestStringConvertible {
        let id: String
        let description: String
        let request: ComposeRequest?
        let problem: String?
        let expected: FixtureJSON
        /// Bytes of each payload by transport name; empty when the case has no `push`.
        let sizes: [String: Int]
        var testDescription: String { id }
    }

    /// The root object of `test-fixtures/push.json` (read when asked: `Any` is not `Sendable`).
    static func root() -> [String: Any] {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("test-fixtures/push.json")
        guard let data = try? Data(contentsOf: url),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        return root
    }

    static let cases: [Case] = {
        guard let cases = root()["cases"] as? [[String: Any]] else {
            return [
                Case(
                    id: "fixture-file-unreadable", description: "test-fixtures/push.json", request: nil,
                    problem: "cannot read test-fixtures/push.json", expected: .null, sizes: [:])
            ]
        }
        return cases.map { object in
            let id = object["id"] as? String ?? "missing-id"
            let description = object["description"] as? String ?? ""
            let expected = FixtureJSON(any: object["response"] as Any)
            let sizes = object["sizes"] as? [String: Int] ?? [:]
            do {
                let request = try ComposeFixture.decodeRequest(object["request"] as? [String: Any] ?? [:])
                return Case(
                    id: id, description: description, request: request, problem: nil, expected: expected, sizes: sizes)
            } catch {
                return Case(
                    id: id, description: description, request: nil, problem: "\(error)", expected: expected,
                    sizes: sizes)
            }
        }
    }()
}
