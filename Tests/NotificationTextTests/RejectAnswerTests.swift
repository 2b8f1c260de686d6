import Foundation
import NotificationText
import Testing

/// test-fixtures/reject.json through the library's JSON answers: an app that
/// validates on the device refuses what the service refuses, with the same
/// code and JSON Pointer.
@Suite struct RejectAnswerTests {
    static let now = Timestamp(rfc3339: "2026-11-29T12:00:00Z")!

    @Test func rejectFixtures_answerTheProblemWithItsPointer() throws {
        let cases = FixtureAnswerTests.cases("test-fixtures/reject.json")
        #expect(cases.count >= 40, "test-fixtures/reject.json did not load")
        for fixture in cases {
            let id = try #require(fixture["id"] as? String)
            let request = Array(try #require(fixture["request"] as? String).utf8)
            let answer =
                fixture["route"] as? String == "/body"
                ? answer(bodyRequest: request) : answer(composeRequest: request, now: Self.now)
            #expect(answer.status == fixture["status"] as? Int, "[\(id)]")
            #expect(answer.contentType == "application/problem+json", "[\(id)]")
            let problem = try #require(
                try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any], "[\(id)]")
            #expect(problem["code"] as? String == fixture["code"] as? String, "[\(id)] \(problem)")
            // A null pointer in the case: the problem has no pointer member.
            #expect(problem["pointer"] as? String == fixture["pointer"] as? String, "[\(id)] \(problem)")
            #expect((problem["pointer"] == nil) == (fixture["pointer"] is NSNull), "[\(id)] \(problem)")
        }
    }
}
