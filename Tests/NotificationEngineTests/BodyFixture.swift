import Foundation
import Testing

@testable import NotificationEngine

/// One case of `test-fixtures/notification-body.json`, the cross-platform contract.
struct BodyFixtureCase: Sendable, CustomTestStringConvertible {
    let id: String
    let description: String
    let text: String
    let maxUnits: Int
    let expected: BodyRendering

    var testDescription: String { id }

    /// All cases, decoded from the fixture file next to the repository root.
    static let all: [BodyFixtureCase] = load()

    static var fixtureURL: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("test-fixtures/notification-body.json")
    }

    private static func load() -> [BodyFixtureCase] {
        guard let data = try? Data(contentsOf: fixtureURL),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let cases = root["cases"] as? [[String: Any]]
        else { fatalError("cannot read \(fixtureURL.path)") }
        return cases.map { raw in
            guard let id = raw["id"] as? String,
                let description = raw["description"] as? String,
                let text = raw["text"] as? String,
                let body = raw["body"] as? String,
                let units = raw["units"] as? Int,
                let truncated = raw["truncated"] as? Bool,
                let inputCut = raw["inputCut"] as? Bool
            else { fatalError("malformed case in fixture: \(raw["id"] ?? "?")") }
            return BodyFixtureCase(
                id: id, description: description, text: text,
                maxUnits: raw["maxUnits"] as? Int ?? BodyRenderer.defaultMaxUnits,
                expected: BodyRendering(body: body, units: units, truncated: truncated, inputCut: inputCut))
        }
    }
}
