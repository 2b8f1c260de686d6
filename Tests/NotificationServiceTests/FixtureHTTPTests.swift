import EngineTestSupport
import Foundation
import Testing

@testable import NotificationEngine
@testable import NotificationService

/// A case of test-fixtures/notification-body.json, read with Foundation's
/// decoder (independent of the service's own parser).
struct BodyHTTPCase: Decodable, Sendable, CustomTestStringConvertible {
    let id: String
    let description: String
    let text: String
    let maxUnits: Int?
    let body: String
    let units: Int
    let truncated: Bool
    let inputCut: Bool

    var testDescription: String { id }

    static let all: [BodyHTTPCase] = {
        struct File: Decodable { let cases: [BodyHTTPCase] }
        let data = Data(repositoryFile("test-fixtures/notification-body.json"))
        return (try? JSONDecoder().decode(File.self, from: data).cases) ?? []
    }()
}

/// The wire response of `POST /body`, decoded strictly (a missing member or a
/// wrong type fails the decode).
private struct BodyWireResponse: Decodable {
    let body: String
    let units: Int
    let truncated: Bool
    let inputCut: Bool
}

@Suite struct FixtureHTTPTests {
    let harness = ServiceHarness()

    @Test func fixtures_areLoaded() {
        #expect(BodyHTTPCase.all.count >= 80, "test-fixtures/notification-body.json did not load")
        #expect(ComposeHTTPCase.all.count >= 50, "test-fixtures/compose.json did not load")
    }

    @Test(arguments: BodyHTTPCase.all)
    func bodyFixture_overHTTP_answersTheExpectedRendering(_ fixture: BodyHTTPCase) throws {
        var request = JSONObject(members: [("text", .string(fixture.text))])
        if let maxUnits = fixture.maxUnits {
            request.members.append(("maxUnits", .number(JSONNumber(lexeme: String(maxUnits), integerValue: maxUnits))))
        }
        let response = harness.post("/body", bytes: JSONValue.object(request).bytes)
        try #require(response.status == 200, "[\(fixture.id)] status \(response.status): \(response.text)")
        #expect(response.header("Content-Type") == "application/json", "[\(fixture.id)]")
        let actual = try JSONDecoder().decode(BodyWireResponse.self, from: Data(response.body))
        #expect(
            actual.body.unicodeScalars.elementsEqual(fixture.body.unicodeScalars),
            "[\(fixture.id)] \(fixture.description)\n  expected: \(fixture.body.debugDescription)\n  actual:   \(actual.body.debugDescription)"
        )
        #expect(actual.units == fixture.units, "[\(fixture.id)] units")
        #expect(actual.truncated == fixture.truncated, "[\(fixture.id)] truncated")
        #expect(actual.inputCut == fixture.inputCut, "[\(fixture.id)] inputCut")
        #expect(
            response.json.map { if case .object(let o) = $0 { o.members.count } else { 0 } } == 4,
            "[\(fixture.id)] extra members")
    }

    @Test(arguments: ComposeHTTPCase.all)
    func composeFixture_overHTTP_answersTheExpectedResponse(_ fixture: ComposeHTTPCase) throws {
        let response = harness.post("/compose", bytes: fixture.request.bytes)
        try #require(response.status == 200, "[\(fixture.id)] status \(response.status): \(response.text)")
        #expect(response.header("Content-Type") == "application/json", "[\(fixture.id)]")
        let actual = try #require(response.json, "[\(fixture.id)] response is not JSON")
        #expect(
            structurallyEqual(actual, fixture.response),
            """
            [\(fixture.id)] \(fixture.description)
              expected: \(jsonText(fixture.response))
              actual:   \(jsonText(actual))
            """)
    }
}
