import Foundation

/// A case of test-fixtures/reject.json, read with Foundation (independent of
/// the service's own parser): a request the route refuses, and the problem's
/// status, code and JSON Pointer (nil: the answer has no `pointer`).
public struct RejectCase: Sendable {
    public let id: String
    public let description: String
    public let route: String
    public let request: String
    public let status: Int
    public let code: String
    public let pointer: String?

    public static let all: [RejectCase] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("test-fixtures/reject.json")
        guard let data = try? Data(contentsOf: url),
            let file = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let cases = file["cases"] as? [[String: Any]]
        else { return [] }
        return cases.compactMap { value in
            guard let id = value["id"] as? String, let description = value["description"] as? String,
                let route = value["route"] as? String, let request = value["request"] as? String,
                let status = value["status"] as? Int, let code = value["code"] as? String
            else { return nil }
            return RejectCase(
                id: id, description: description, route: route, request: request, status: status, code: code,
                pointer: value["pointer"] as? String)
        }
    }()

    /// What is wrong with a problem answer for this case, or nil when it is
    /// the one the case expects: the status, the media type, the problem's
    /// members (`pointer` only when expected), its code and its pointer.
    public func mismatch(status actualStatus: Int, contentType: String?, body: [UInt8]) -> String? {
        let text = String(decoding: body, as: UTF8.self)
        guard actualStatus == status else { return "[\(id)] status \(actualStatus), expected \(status): \(text)" }
        guard contentType == nil || contentType == "application/problem+json" else {
            return "[\(id)] Content-Type \(contentType ?? "")"
        }
        guard let problem = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            return "[\(id)] not a JSON object: \(text)"
        }
        var names: Set<String> = ["type", "title", "status", "detail", "code"]
        if pointer != nil { names.insert("pointer") }
        guard Set(problem.keys) == names else { return "[\(id)] members \(problem.keys.sorted()): \(text)" }
        guard problem["code"] as? String == code else { return "[\(id)] code, expected \(code): \(text)" }
        guard problem["pointer"] as? String == pointer else {
            return "[\(id)] pointer, expected \(pointer.map { "\"\($0)\"" } ?? "none"): \(text)"
        }
        return nil
    }
}
