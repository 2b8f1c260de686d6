import EngineTestSupport
import HTTPCore
import Testing

@testable import NotificationEngine
@testable import NotificationService

@Suite struct ServiceRouteTests {
    /// Each route counts in its own place, the one `allCases` gives it.
    @Test func metricsIndex_followsAllCases() {
        #expect(Route.allCases.map(\.metricsIndex) == Array(Route.allCases.indices))
        #expect(Set(Route.allCases.map(\.label)).count == Route.allCases.count)
    }

    let harness = ServiceHarness()

    // MARK: Routing

    @Test(arguments: [
        "/body/", "/BODY", "/bod%79", "/compose/x", "/health", "/metrics/", "/openapi.json", "", "//", "/index.html",
    ])
    func unknownPath_isNotFound(_ path: String) {
        let response = harness.service.handle(
            HTTPRequest(
                method: "POST", path: path, headers: [("content-type", "application/json")],
                body: Array(#"{"text":"a"}"#.utf8)))
        expectProblem(response, status: 404, code: "not-found")
        #expect(response.route == "unmatched")
    }

    @Test(arguments: ["/healthz", "/readyz", "/metrics", "/openapi.yaml"])
    func getRoute_otherMethods_areMethodNotAllowedWithAllow(_ path: String) {
        for method in ["POST", "PUT", "DELETE", "OPTIONS", "get"] {
            let response = harness.get(path, method: method)
            expectProblem(response, status: 405, code: "method-not-allowed")
            #expect(response.header("Allow") == "GET, HEAD")
            #expect(response.route == path)
        }
    }

    @Test(arguments: ["/healthz", "/readyz", "/metrics", "/openapi.yaml"])
    func head_answersLikeGetWithoutContent(_ path: String) {
        let get = harness.get(path)
        let head = harness.get(path, method: "HEAD")
        #expect(head.status == get.status)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Type") == get.header("Content-Type"))
        if path != "/metrics" {  // the metrics text changes between two scrapes
            #expect(head.header("Content-Length") == String(get.body.count))
        }
    }

    @Test func head_ofUnknownPath_isNotFoundWithoutContent() {
        let response = harness.get("/nope", method: "HEAD")
        #expect(response.status == 404)
        #expect(response.body.isEmpty)
        #expect(response.header("Content-Type") == "application/problem+json")
    }

    // MARK: Health and readiness

    @Test func healthz_answersOkWithUnicodeVersion() {
        let response = harness.get("/healthz")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        guard case .object(let object)? = response.json, case .string(let version)? = object["unicodeVersion"] else {
            Issue.record("not the health document: \(response.text)")
            return
        }
        #expect(object["status"] == .string("ok"))
        let parts = version.split(separator: ".").compactMap { Int($0) }
        #expect(parts.count == 2 && parts[0] >= 15, "\(version)")
    }

    @Test func healthz_answersOkInEveryState() {
        for state in [ServerState.starting, .running, .draining, .stopped] {
            harness.service.setState(state)
            #expect(harness.get("/healthz").status == 200)
        }
    }

    @Test func readyz_isReadyOnlyWhileRunning() {
        let service = harness.service
        service.setState(.starting)
        expectProblem(harness.get("/readyz"), status: 503, code: "not-ready", detailContains: "starting")
        service.setState(.running)
        let ready = harness.get("/readyz")
        #expect(ready.status == 200)
        #expect(ready.text == #"{"status":"running"}"#)
        service.setState(.draining)
        expectProblem(harness.get("/readyz"), status: 503, code: "not-ready", detailContains: "draining")
        service.setState(.stopped)
        expectProblem(harness.get("/readyz"), status: 503, code: "not-ready", detailContains: "stopped")
    }

    // MARK: OpenAPI

    @Test func openapi_servesTheRepositoryFileByteForByte() {
        let response = harness.get("/openapi.yaml")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/yaml")
        let file = repositoryFile("openapi.yaml")
        #expect(!file.isEmpty)
        #expect(response.body == file)
    }

    // MARK: Request id

    @Test(arguments: ["abc-123", "x", String(repeating: "a", count: 128), "!~#{}\"\\"])
    func requestID_valid_isEchoed(_ id: String) {
        let response = harness.get("/healthz", headers: [("x-request-id", id)])
        #expect(response.header("X-Request-Id") == id)
        let problem = harness.get("/nope", headers: [("x-request-id", id)])
        #expect(problem.header("X-Request-Id") == id)
    }

    @Test(arguments: ["", "has space", "tab\t", String(repeating: "a", count: 129), "é", "a\u{7F}"])
    func requestID_invalid_isReplaced(_ id: String) {
        let response = harness.get("/healthz", headers: [("x-request-id", id)])
        let echoed = response.header("X-Request-Id") ?? ""
        #expect(echoed != id)
        #expect(echoed.count == 32 && echoed.allSatisfy(\.isHexDigit))
    }

    @Test func requestID_absent_isGeneratedUniquely() {
        let ids = (0..<100).map { _ in harness.get("/healthz").header("X-Request-Id") ?? "" }
        #expect(Set(ids).count == 100)
        #expect(ids.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
    }

    // MARK: Rejections and internal errors

    @Test func rejection_isAProblemInTheServiceShape() {
        let response = harness.service.reject(
            HTTPRequest(method: "POST", path: "/body"), because: .bodyTooLarge(maxBytes: 1_048_576))
        expectProblem(
            response, status: 413, code: "payload-too-large",
            detailContains: "the request body is larger than 1048576 bytes")
        #expect(response.header("X-Request-Id")?.count == 32)
    }

    @Test func rejection_echoesItsRequestIDAndRoute() {
        let request = HTTPRequest(method: "POST", path: "/body", headers: [("x-request-id", "r-1")])
        let response = harness.service.reject(request, because: .bodyTooLarge(maxBytes: 10))
        expectProblem(response, status: 413, code: "payload-too-large")
        #expect(response.header("X-Request-Id") == "r-1")
        #expect(response.route == "/body")
    }

    /// Every transport rejection has a problem code of its own, whose status
    /// is the rejection's.
    @Test(arguments: [
        (
            TransportRejection.uriTooLong(maxBytes: 4_096), "uri-too-long",
            "the request target is longer than 4096 bytes"
        ),
        (.bodyTooLarge(maxBytes: 1_024), "payload-too-large", "the request body is larger than 1024 bytes"),
    ])
    func rejection_mapsToItsProblemCodeAndStatus(rejection: TransportRejection, code: String, detail: String) {
        let response = harness.service.reject(HTTPRequest(method: "GET", path: "/nope"), because: rejection)
        expectProblem(response, status: rejection.status, code: code)
        #expect(response.problem?.detail == detail)
        #expect(response.route == "unmatched")
    }

    /// The adapter's status line names every status the service answers with.
    @Test(arguments: ProblemCode.allCases)
    func problemCode_statusIsInTheStatusTable(_ code: ProblemCode) {
        #expect(HTTPStatus.listedReasonPhrase(code.status) != nil, "\(code.rawValue): \(code.status)")
    }

    private struct Boom: Error {}

    @Test func unexpectedError_isInternalErrorAndOneLogLineWithoutContent() {
        let harness = ServiceHarness(compose: { _ in throw Boom() })
        let response = harness.post(
            "/compose",
            #"{"notifications": [{"id": "1", "type": "message", "timestamp": "2026-11-29T11:59:00Z", "text": "secret text"}]}"#,
            headers: [("x-request-id", "req-500")])
        expectProblem(response, status: 500, code: "internal-error")
        #expect(harness.errorLog.lines.count == 1)
        let line = harness.errorLog.lines.first ?? ""
        #expect(line.contains("req-500"))
        #expect(line.contains("/compose"))
        #expect(!line.contains("secret"))
        #expect(harness.get("/healthz").status == 200, "the service keeps serving")
    }

    // MARK: The relay's core

    @Test func relay_answersTheCoresJSON_andItsProblems() {
        let record = #"{"recipient":"u1","settings":{"locale":"en","preview":"full"},"devices":[]}"#
        let response = harness.post(
            "/relay", #"{"do":"event","record":\#(record),"now":"2026-11-29T12:00:00Z","event":{"type":"created"}}"#)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.route == "/relay")
        #expect(
            response.text
                == #"{"record":{"recipient":"u1","settings":{"locale":"en","preview":"full","maxAgeSeconds":600,"#
                + #""maxUnits":256},"displayed":[],"stamp":null,"refresh":false,"due":{"at":1795953600000,"#
                + #""attempt":0},"devices":[]}}"#)
        let bad = harness.post("/relay", #"{"do":"wake","record":\#(record),"now":"noon"}"#)
        expectProblem(bad, status: 400, code: "invalid-timestamp")
        #expect(harness.get("/relay").status == 405)
    }
}
