import Foundation
import NotificationText
import Testing

/// The library as its own oracle: the shared fixtures through its public
/// API, the JSON answers compared with each case's expected response
/// (parsed by Foundation, independent of the engine's JSON).
@Suite struct FixtureAnswerTests {
    static let now = Timestamp(rfc3339: "2026-11-29T12:00:00Z")!

    static func cases(_ file: String) -> [[String: Any]] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../\(file)")
        guard let data = try? Data(contentsOf: url),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [] }
        return object["cases"] as? [[String: Any]] ?? []
    }

    @Test func bodyFixtures_renderAndAnswerTheExpectedBody() throws {
        let cases = Self.cases("test-fixtures/notification-body.json")
        #expect(cases.count >= 80, "test-fixtures/notification-body.json did not load")
        for fixture in cases {
            let id = fixture["id"] as! String
            let text = fixture["text"] as! String
            let maxUnits = fixture["maxUnits"] as? Int ?? BodyRenderer.defaultMaxUnits
            let expected = BodyRendering(
                body: fixture["body"] as! String, units: fixture["units"] as! Int,
                truncated: fixture["truncated"] as! Bool, inputCut: fixture["inputCut"] as! Bool)
            let rendering = BodyRenderer.render(text, maxUnits: maxUnits)
            #expect(Array(rendering.body.unicodeScalars) == Array(expected.body.unicodeScalars), "[\(id)]")
            #expect(rendering == expected, "[\(id)]")
            let request = try JSONSerialization.data(withJSONObject: ["text": text, "maxUnits": maxUnits])
            let answer = answer(bodyRequest: Array(request))
            #expect(answer.status == 200 && answer.contentType == "application/json", "[\(id)]")
            let value = try JSONSerialization.jsonObject(with: Data(answer.body)) as! [String: Any]
            #expect(value["body"] as? String == expected.body && value["units"] as? Int == expected.units, "[\(id)]")
        }
    }

    @Test func composeFixtures_answerTheExpectedResponse() throws {
        let cases = Self.cases("test-fixtures/compose.json")
        #expect(cases.count >= 50, "test-fixtures/compose.json did not load")
        for fixture in cases {
            let id = fixture["id"] as! String
            let request = try JSONSerialization.data(withJSONObject: fixture["request"]!)
            let answer = answer(composeRequest: Array(request), now: Self.now)
            #expect(answer.status == 200, "[\(id)] \(String(decoding: answer.body, as: UTF8.self))")
            let actual = try JSONSerialization.jsonObject(with: Data(answer.body)) as! NSDictionary
            let expected = fixture["response"] as! NSDictionary
            #expect(actual == expected, "[\(id)]\nactual: \(actual)\nexpected: \(expected)")
        }
    }
}
