import EngineTestSupport
import Foundation
import HTTPCore
import Testing

@testable import NotificationEngine
@testable import NotificationService

/// Collects log lines written through a `LogSink`.
// @unchecked Sendable: `storage` is only touched while holding `lock`.
final class LogCapture: @unchecked Sendable {
    // NSLock is a pthread mutex, which ThreadSanitizer sees (docs/adr/0005).
    private let lock = NSLock()
    private var storage: [String] = []

    var sink: LogSink {
        LogSink { bytes in self.lock.withLock { self.storage.append(String(decoding: bytes, as: UTF8.self)) } }
    }

    var lines: [String] { lock.withLock { storage } }
}

/// 2026-11-29T12:00:00Z, the fixed "server clock" of these tests.
let testNowNanoseconds: Int64 = 1_795_953_600 * 1_000_000_000

struct ServiceHarness {
    let service: NotificationTextService
    let accessLog = LogCapture()
    let errorLog = LogCapture()

    init(
        appName: String = "Buzz", catalogs: CatalogSet = .builtIn,
        compose: (@Sendable (ComposeRequest) throws -> ComposeResponse)? = nil
    ) {
        let configuration = ServiceConfiguration(appName: appName, catalogs: catalogs)
        let clock = WallClock.fixed(nanosecondsSinceEpoch: testNowNanoseconds)
        if let compose {
            service = NotificationTextService(
                configuration: configuration, clock: clock, accessLog: accessLog.sink, errorLog: errorLog.sink,
                compose: { request, _ in try compose(request) })
        } else {
            service = NotificationTextService(
                configuration: configuration, clock: clock, accessLog: accessLog.sink, errorLog: errorLog.sink)
        }
        service.setState(.running)
    }

    func post(
        _ path: String, _ json: String,
        headers: [(name: String, value: String)] = [("content-type", "application/json")]
    ) -> HTTPResponse {
        post(path, bytes: Array(json.utf8), headers: headers)
    }

    func post(
        _ path: String, bytes: [UInt8],
        headers: [(name: String, value: String)] = [("content-type", "application/json")]
    ) -> HTTPResponse {
        service.handle(HTTPRequest(method: "POST", path: path, headers: headers, body: bytes))
    }

    func get(_ path: String, method: String = "GET", headers: [(name: String, value: String)] = []) -> HTTPResponse {
        service.handle(HTTPRequest(method: method, path: path, headers: headers))
    }
}

extension HTTPResponse {
    /// A field's value by name, `X-Request-Id` included.
    func header(_ name: String) -> String? {
        if name.lowercased() == "x-request-id", let requestID { return requestID.text }
        return headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    var json: JSONValue? { try? JSONParser.parse(body) }

    /// The members of a problem+json body, or nil when the body is not one.
    var problem: (type: String, title: String, status: Int, detail: String, code: String)? {
        // The five members, and `pointer` (a string) when the problem is about a member.
        guard case .object(let object)? = json,
            object.members.count == (object["pointer"] == nil ? 5 : 6),
            object["pointer"].map({ if case .string = $0 { true } else { false } }) ?? true,
            case .string(let type)? = object["type"], case .string(let title)? = object["title"],
            case .number(let status)? = object["status"], let statusValue = status.integerValue,
            case .string(let detail)? = object["detail"], case .string(let code)? = object["code"]
        else { return nil }
        return (type, title, statusValue, detail, code)
    }

    /// The problem's `pointer` member, nil when it has none.
    var problemPointer: String? {
        guard case .object(let object)? = json, case .string(let pointer)? = object["pointer"] else { return nil }
        return pointer
    }
}

func expectProblem(
    _ response: HTTPResponse, status: Int = 400, code: String, detailContains: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(response.status == status, sourceLocation: sourceLocation)
    #expect(response.header("Content-Type") == "application/problem+json", sourceLocation: sourceLocation)
    let problem = response.problem
    #expect(problem?.code == code, "\(response.text)", sourceLocation: sourceLocation)
    #expect(problem?.status == status, sourceLocation: sourceLocation)
    #expect(problem?.type == "tag:notification-text,2026:problem:\(code)", sourceLocation: sourceLocation)
    #expect(problem?.title == ProblemCode(rawValue: code)?.title, sourceLocation: sourceLocation)
    if let detailContains {
        #expect(
            problem?.detail.contains(detailContains) == true, "detail: \(problem?.detail ?? "-")",
            sourceLocation: sourceLocation)
    }
}

/// Equality of JSON documents as data: object members in any order, strings
/// by code points, numbers by value when both are integers.
func structurallyEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case let (.object(x), .object(y)):
        guard x.members.count == y.members.count else { return false }
        return x.members.allSatisfy { member in y[member.name].map { structurallyEqual(member.value, $0) } ?? false }
    case let (.array(x), .array(y)):
        return x.count == y.count && zip(x, y).allSatisfy(structurallyEqual)
    case let (.number(x), .number(y)):
        if let i = x.integerValue, let j = y.integerValue { return i == j }
        return x == y
    default:
        return a == b
    }
}

func jsonText(_ value: JSONValue) -> String {
    String(decoding: value.bytes, as: UTF8.self)
}
