import EngineTestSupport
import HTTPCore
import Testing

@testable import NotificationEngine
@testable import NotificationService

@Suite struct AccessLogTests {
    let harness = ServiceHarness()

    private func respond(_ request: HTTPRequest, durationNanoseconds: UInt64 = 1_234_567) -> (HTTPResponse, JSONObject?)
    {
        let response = harness.service.handle(request)
        harness.service.didRespond(to: request, with: response, durationNanoseconds: durationNanoseconds)
        guard let line = harness.accessLog.lines.last, line.hasSuffix("\n"),
            case .object(let object)? = try? JSONParser.parse(Array(line.dropLast().utf8))
        else { return (response, nil) }
        return (response, object)
    }

    @Test func didRespond_writesOneJSONLineWithExactlyTheDocumentedFields() {
        let request = HTTPRequest(
            method: "POST", path: "/body", headers: [("content-type", "application/json"), ("x-request-id", "log-1")],
            body: Array(#"{"text": "hi"}"#.utf8))
        let (response, entry) = respond(request)
        #expect(harness.accessLog.lines.count == 1)
        guard let entry else {
            Issue.record("not one JSON line: \(harness.accessLog.lines)")
            return
        }
        #expect(
            entry.members.map(\.name) == [
                "time", "method", "route", "status", "bytes", "durationMicroseconds", "requestId",
            ])
        #expect(entry["time"] == .string("2026-11-29T12:00:00.000000Z"))
        #expect(entry["method"] == .string("POST"))
        #expect(entry["route"] == .string("/body"))
        #expect(entry["status"] == .number(JSONNumber(lexeme: "200", integerValue: 200)))
        #expect(
            entry["bytes"]
                == .number(JSONNumber(lexeme: String(response.body.count), integerValue: response.body.count)))
        #expect(entry["durationMicroseconds"] == .number(JSONNumber(lexeme: "1234", integerValue: 1234)))
        #expect(entry["requestId"] == .string("log-1"))
    }

    @Test func didRespond_neverLogsTextPathOrAuthorization() {
        let request = HTTPRequest(
            method: "POST", path: "/secret-path-ana",
            headers: [("content-type", "application/json"), ("authorization", "Bearer tok-xyz")],
            body: Array(#"{"text": "message from Ana"}"#.utf8))
        _ = respond(request)
        let compose = HTTPRequest(
            method: "POST", path: "/compose", headers: [("authorization", "Bearer tok-xyz")],
            body: Array(#"{"now": "bad Ana"}"#.utf8))
        _ = respond(compose)
        let log = harness.accessLog.lines.joined()
        #expect(harness.accessLog.lines.count == 2)
        for secret in ["Ana", "message", "secret-path", "tok-xyz", "Bearer"] {
            #expect(!log.contains(secret), "\(secret) leaked into \(log)")
        }
        #expect(log.contains(#""route":"unmatched""#))
    }

    @Test func didRespond_escapesTheMethodAndCountsNoBytesForHead() {
        let (_, entry) = respond(HTTPRequest(method: "HEAD", path: "/healthz"))
        #expect(entry?["bytes"] == .number(JSONNumber(lexeme: "0", integerValue: 0)))
        let (_, odd) = respond(HTTPRequest(method: "X\"Y\u{1}", path: "/healthz"))
        #expect(odd?["method"] == .string("X\"Y\u{1}"))
    }

    @Test func didRespond_whenDisabled_writesNothingButCounts() {
        let log = LogCapture()
        let service = NotificationTextService(
            configuration: ServiceConfiguration(accessLogEnabled: false),
            clock: .fixed(nanosecondsSinceEpoch: testNowNanoseconds), accessLog: log.sink)
        let request = HTTPRequest(method: "GET", path: "/healthz")
        service.didRespond(to: request, with: service.handle(request), durationNanoseconds: 1)
        #expect(log.lines.isEmpty)
        #expect(
            String(decoding: service.handle(HTTPRequest(method: "GET", path: "/metrics")).body, as: UTF8.self)
                .contains(#"notification_text_http_requests_total{route="/healthz",status="200"} 1"#))
    }
}

@Suite struct MetricsTests {
    let harness = ServiceHarness()

    private func exchange(_ request: HTTPRequest, durationNanoseconds: UInt64) {
        harness.service.didRespond(
            to: request, with: harness.service.handle(request), durationNanoseconds: durationNanoseconds)
    }

    private func scrape() -> [String] {
        let response = harness.get("/metrics")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        return response.text.split(separator: "\n").map(String.init)
    }

    @Test func metrics_countRequestsByRouteAndStatus() {
        let body = HTTPRequest(method: "POST", path: "/body", body: Array(#"{"text":"a"}"#.utf8))
        exchange(body, durationNanoseconds: 1000)
        exchange(body, durationNanoseconds: 1000)
        exchange(HTTPRequest(method: "POST", path: "/body", body: Array("{".utf8)), durationNanoseconds: 1000)
        exchange(HTTPRequest(method: "GET", path: "/nope"), durationNanoseconds: 1000)
        let lines = scrape()
        #expect(lines.contains(#"notification_text_http_requests_total{route="/body",status="200"} 2"#))
        #expect(lines.contains(#"notification_text_http_requests_total{route="/body",status="400"} 1"#))
        #expect(lines.contains(#"notification_text_http_requests_total{route="unmatched",status="404"} 1"#))
        #expect(lines.contains("# TYPE notification_text_http_requests_total counter"))
    }

    @Test func metrics_latencyHistogramIsCumulativeInSeconds() {
        let request = HTTPRequest(method: "GET", path: "/healthz")
        exchange(request, durationNanoseconds: 40_000)  // ≤ 0.00005
        exchange(request, durationNanoseconds: 100_000)  // ≤ 0.0001 (bounds are inclusive)
        exchange(request, durationNanoseconds: 3_000_000)  // ≤ 0.005
        exchange(request, durationNanoseconds: 5_000_000_000)  // +Inf only
        let lines = scrape()
        let prefix = #"notification_text_http_request_duration_seconds_bucket{route="/healthz","#
        #expect(lines.contains(prefix + #"le="0.00005"} 1"#))
        #expect(lines.contains(prefix + #"le="0.0001"} 2"#))
        #expect(lines.contains(prefix + #"le="0.0025"} 2"#))
        #expect(lines.contains(prefix + #"le="0.005"} 3"#))
        #expect(lines.contains(prefix + #"le="1"} 3"#))
        #expect(lines.contains(prefix + #"le="+Inf"} 4"#))
        #expect(lines.contains(#"notification_text_http_request_duration_seconds_sum{route="/healthz"} 5.00314"#))
        #expect(lines.contains(#"notification_text_http_request_duration_seconds_count{route="/healthz"} 4"#))
        #expect(lines.contains("# TYPE notification_text_http_request_duration_seconds histogram"))
    }

    @Test func metrics_countTruncatedBodiesAndInputCuts() {
        _ = harness.post("/body", #"{"text": "\#(String(repeating: "x", count: 300))"}"#)
        _ = harness.post("/body", #"{"text": "\#(String(repeating: "x", count: 5000))"}"#)
        _ = harness.post("/body", #"{"text": "short"}"#)
        let lines = scrape()
        #expect(lines.contains("notification_text_bodies_truncated_total 2"))
        #expect(lines.contains("notification_text_input_cuts_total 1"))
    }

    @Test func metrics_reportProcessFactsAndState() {
        let lines = scrape()
        #expect(lines.contains("notification_text_http_requests_in_flight 1"), "the scrape itself is in flight")
        #expect(lines.contains(#"notification_text_server_state{state="running"} 1"#))
        #expect(lines.contains(#"notification_text_server_state{state="draining"} 0"#))
        #expect(lines.contains("process_start_time_seconds 1795953600"))
        #expect(lines.contains("notification_text_uptime_seconds 0"))
        let resident = lines.first { $0.hasPrefix("process_resident_memory_bytes ") }
        #expect((resident?.split(separator: " ").last).flatMap { Int($0) }.map { $0 > 1_000_000 } == true)
        #expect(
            lines.contains {
                $0.hasPrefix(#"notification_text_build_info{version="unknown",revision="unknown",unicode_version=""#)
            })
    }

    @Test func metrics_reportTheMemoryChargeOnlyWhereTheServerSaysWhere() {
        let service = NotificationTextService(configuration: ServiceConfiguration(accessLogEnabled: false))
        func gauge() -> String? {
            String(decoding: service.handle(HTTPRequest(method: "GET", path: "/metrics")).body, as: UTF8.self)
                .split(separator: "\n").first { $0.hasPrefix("notification_text_memory_charged_bytes ") }
                .map(String.init)
        }
        #expect(gauge() == nil)
        service.readMemoryCharge { 1_234_567 }
        #expect(gauge() == "notification_text_memory_charged_bytes 1234567")
    }

    @Test func buildInfo_labelsTheConfiguredVersionAndRevision_escaped() {
        var configuration = ServiceConfiguration(accessLogEnabled: false)
        configuration.build = BuildInfo(version: "1.2.3", revision: "a\"b\\c\nd")
        let service = NotificationTextService(configuration: configuration)
        let text = String(decoding: service.handle(HTTPRequest(method: "GET", path: "/metrics")).body, as: UTF8.self)
        #expect(text.contains(#"notification_text_build_info{version="1.2.3",revision="a\"b\\c\nd",unicode_version=""#))
    }

    @Test func metrics_everySampleLineIsWellFormed() {
        exchange(HTTPRequest(method: "GET", path: "/healthz"), durationNanoseconds: 1)
        for line in scrape() where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            #expect(parts.count == 2, "\(line)")
            #expect(Double(parts.last ?? "") != nil, "\(line)")
        }
    }

    @Test func secondsFormatting_isExactDecimal() {
        #expect(MetricsExposition.seconds(0) == "0")
        #expect(MetricsExposition.seconds(250_000) == "0.00025")
        #expect(MetricsExposition.seconds(1_000_000_000) == "1")
        #expect(MetricsExposition.seconds(12_500_000_001) == "12.500000001")
    }
}

@Suite struct MetricsStatusTests {
    /// `requests_total` has a `status` cell for 200 and for every status a
    /// problem is answered with, and none for a status the server never answers.
    @Test func statusCells_areTheStatusesTheServerAnswers() {
        let answered = Set(ProblemCode.allCases.map(\.status)).union([200])
        #expect(Set(ServiceMetrics.statuses) == answered)
        for (index, status) in ServiceMetrics.statuses.enumerated() {
            #expect(ServiceMetrics.statusIndex(status) == index, "\(status)")
        }
        #expect(ServiceMetrics.statusIndex(418) == ServiceMetrics.statuses.count)
    }
}
