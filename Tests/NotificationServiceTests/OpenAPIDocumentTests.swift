import EngineTestSupport
import Foundation
import Testing

@testable import NotificationEngine
@testable import NotificationService

/// openapi.yaml must describe what is served: the embedded resource is the
/// file, every problem code is listed, and every documented error example is the
/// very problem the service answers (scripts/check-openapi.sh checks the rest
/// against a live server with schemathesis).
@Suite struct OpenAPIDocumentTests {
    let harness = ServiceHarness()
    let document = String(decoding: repositoryFile("openapi.yaml"), as: UTF8.self)

    /// The resource SwiftPM embeds is a link to the repository's file, so
    /// there is no copy to fall out of date.
    @Test func embeddedDocument_isTheRepositoryFileByteForByte() throws {
        #expect(!document.isEmpty)
        let resource = repositoryRoot.appendingPathComponent("Sources/NotificationService/Resources/openapi.yaml")
        let target = try FileManager.default.destinationOfSymbolicLink(atPath: resource.path)
        #expect(target == "../../../openapi.yaml")
        #expect(PackageResources.openapi_yaml == repositoryFile("openapi.yaml"))
    }

    @Test(arguments: ProblemCode.allCases.map(\.rawValue))
    func everyProblemCode_isDocumentedWithItsStatusAndTitle(_ code: String) {
        let problemCode = ProblemCode(rawValue: code)!
        #expect(document.contains("`\(code)`"), "\(code) missing from the Problem schema description")
        #expect(document.contains("problem:\(code)'"), "no example for \(code)")
        #expect(
            document.contains("title: \(problemCode.title), status: \(problemCode.status)"),
            "example of \(code) has another title or status")
    }

    /// Requests producing each documented error example.
    static let errorExamples: [(path: String, body: [UInt8], code: String)] = [
        ("/body", Array(#"{"text": "a",}"#.utf8), "invalid-json"),
        ("/body", Array(#"{"text": "a"#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8), "invalid-utf8"),
        ("/body", Array(#"{"text": "\uD800"}"#.utf8), "lone-surrogate"),
        (
            "/body",
            Array(
                (#"{"text": "a", "x": "# + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "}")
                    .utf8), "nesting-too-deep"
        ),
        ("/body", Array(#"{"text": "a", "text": "b"}"#.utf8), "duplicate-member"),
        ("/compose", Array(#"{"notifications": [], "preveiw": "none"}"#.utf8), "unknown-member"),
        ("/compose", Array(#"{"notifications": [], "push": {"badges": 3}}"#.utf8), "unknown-member"),
        ("/body", Array(#"{"text": "a", "maxUnits": 256.0}"#.utf8), "invalid-type"),
        ("/compose", Array(#"{"notifications": [{"id": "1", "type": "message"}]}"#.utf8), "missing-field"),
        ("/body", Array(#"{"text": "a", "maxUnits": 100}"#.utf8), "out-of-range"),
        (
            "/compose",
            Array(
                #"{"notifications": [{"id": "1", "type": "m", "timestamp": "2026-11-29T11:59:00Z"}, {"id": "2", "source": "a:b", "type": "m", "timestamp": "2026-11-29T11:59:00Z"}]}"#
                    .utf8), "invalid-value"
        ),
        (
            "/compose",
            Array(
                #"{"notifications": [{"id": "1", "type": "m", "timestamp": "2026-11-29T11:59:00Z"}, {"id": "2", "type": "m", "timestamp": "2026-11-29T11:59:00Z"}, {"id": "3", "type": "m", "timestamp": "2026-11-29T11:59:00Z"}, {"id": "4", "type": "m", "timestamp": "yesterday"}]}"#
                    .utf8), "invalid-timestamp"
        ),
        ("/compose", Array(#"{"fetch": "failed", "locale": "english!"}"#.utf8), "invalid-locale"),
    ]

    @Test(arguments: 0..<errorExamples.count)
    func documentedErrorExample_isExactlyWhatIsServed(_ index: Int) {
        let example = Self.errorExamples[index]
        let response = harness.post(example.path, bytes: example.body)
        guard let problem = response.problem else {
            Issue.record("not a problem: \(response.text)")
            return
        }
        #expect(problem.code == example.code)
        // The pointer, when the problem has one, between detail and code.
        let tail = (response.problemPointer.map { ", pointer: \($0)" } ?? "") + ", code: \(example.code)}"
        #expect(
            document.contains("detail: '\(problem.detail)'\(tail)")
                || document.contains("detail: \"\(problem.detail)\"\(tail)")
                || document.contains("detail: \(problem.detail)\(tail)"),
            "openapi.yaml's \(example.code) example differs from the served detail: \(problem.detail)")
    }

    @Test func documentedRoutingExamples_areExactlyWhatIsServed() {
        let details = [
            harness.get("/nope").problem?.detail,
            harness.get("/body").problem?.detail,
            harness.get("/healthz", method: "POST").problem?.detail,
            harness.post("/body", #"{"text":"a"}"#, headers: [("content-type", "text/plain")]).problem?.detail,
        ]
        for detail in details {
            let detail = detail ?? "-"
            #expect(
                document.contains("detail: '\(detail)'") || document.contains("detail: \(detail), code"), "\(detail)")
        }
        harness.service.setState(.draining)
        #expect(document.contains("detail: \(harness.get("/readyz").problem?.detail ?? "-"), code: not-ready}"))
    }
}
