import HTTPCore
import Testing

@testable import NotificationEngine
@testable import NotificationService

#if canImport(Glibc)
import Glibc
#endif

/// What the service answers and records for the refusals the adapter makes
/// before a request reaches a route, and the token check at the head.
@Suite struct RefusalTests {
    static let secret = "rotate-Me_1"
    let accessLog = LogCapture()
    let service: NotificationTextService

    init() throws {
        service = NotificationTextService(
            configuration: ServiceConfiguration(
                accessLogEnabled: false, authTokens: try AuthTokens(fileContents: Array("\(Self.secret)\n".utf8))),
            clock: .fixed(nanosecondsSinceEpoch: testNowNanoseconds), accessLog: accessLog.sink, errorLog: .discard)
        service.setState(.running)
    }

    static let rejections: [(TransportRejection, status: Int, code: String, reason: String)] = [
        (.badRequest(detail: "the request line is not method, target and version"), 400, "bad-request", "bad_request"),
        (.badFraming(detail: "the request has more than one Content-Length field"), 400, "bad-framing", "bad_framing"),
        (.headersTooLarge(maxBytes: 16_384), 431, "header-fields-too-large", "headers_too_large"),
        (.bodyTooLarge(maxBytes: 1_048_576), 413, "payload-too-large", "body_too_large"),
        (
            .notImplemented(detail: "the method is not one this server implements"), 501, "not-implemented",
            "not_implemented"
        ),
        (.expectationFailed, 417, "expectation-failed", "bad_request"),
        (.tooManyConnections(limit: 8), 503, "too-many-connections", "max_connections"),
        (.memoryBudgetSpent(budgetBytes: 92_274_688), 503, "too-many-connections", "memory_budget"),
    ]

    @Test(arguments: 0..<rejections.count)
    func rejection_isAProblemOfItsStatus_loggedOnceAndCountedByReason(_ index: Int) {
        let (rejection, status, code, reason) = Self.rejections[index]
        let request = HTTPRequest(method: "POST", path: "/body", headers: [("x-request-id", "req-7")])
        let response = service.reject(request, because: rejection)
        expectProblem(response, status: status, code: code)
        #expect(response.header("X-Request-Id") == "req-7")
        service.didReject(request, because: rejection, with: response)
        // The access log is off: the rejected line is written all the same.
        #expect(accessLog.lines == [#"{"event":"rejected","reason":"\#(reason)","status":\#(status)}"# + "\n"])
        let metrics = metricsText()
        #expect(metrics.contains(#"notification_text_connections_rejected_total{reason="\#(reason)"} 1"#))
        #expect(!metrics.contains(#"status="\#(status)""#), "refusals are not counted as answered requests")
    }

    @Test func refusalForWantOfRoom_namesTheLimitHeld() {
        let request = HTTPRequest(method: "GET", path: "/body")
        let slots = service.reject(request, because: .tooManyConnections(limit: 81))
        expectProblem(slots, status: 503, code: "too-many-connections", detailContains: "its limit of 81 connections")
        #expect(slots.header("Retry-After") == "1")
        let memory = service.reject(request, because: .memoryBudgetSpent(budgetBytes: 92_274_688))
        expectProblem(
            memory, status: 503, code: "too-many-connections", detailContains: "memory budget of 92274688 bytes")
        #expect(memory.problem?.detail.contains("connections;") == false)
        #expect(memory.header("Retry-After") == "1")
    }

    @Test func everyReason_isExposedFromTheStart() {
        let metrics = metricsText()
        #expect(metrics.contains("# TYPE notification_text_connections_rejected_total counter"))
        for reason in RejectionReason.allCases {
            #expect(metrics.contains(#"notification_text_connections_rejected_total{reason="\#(reason.rawValue)"} 0"#))
        }
    }

    @Test func acceptError_isLoggedWithItsErrnoName_andCounted() {
        service.didFailToAccept(errorNumber: EMFILE)
        service.didFailToAccept(errorNumber: 9_999)
        #expect(
            accessLog.lines == [
                #"{"event":"rejected","reason":"accept_error","error":"EMFILE"}"# + "\n",
                #"{"event":"rejected","reason":"accept_error","error":"errno 9999"}"# + "\n",
            ])
        #expect(metricsText().contains(#"notification_text_connections_rejected_total{reason="accept_error"} 2"#))
    }

    @Test func uriTooLong_isNoConnectionRejection() {
        #expect(RejectionReason(.uriTooLong(maxBytes: 10)) == nil)
    }

    @Test func processMetrics_areExposed() {
        let metrics = metricsText()
        #expect(metrics.contains("# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total "))
        #expect(metrics.contains("# TYPE process_open_fds gauge\nprocess_open_fds "))
        #expect(metrics.contains("# TYPE process_max_fds gauge\nprocess_max_fds "))
    }

    // MARK: Screening at the head

    @Test func screen_withoutToken_is401_andAnsweredBeforeTheBody() {
        #expect(service.screensRequestHeads)
        let response = service.screen(HTTPRequest(method: "POST", path: "/body"))
        #expect(response.map { $0.status } == 401)
        #expect(response?.header("WWW-Authenticate") == #"Bearer realm="notification-text""#)
        #expect(response?.header("X-Request-Id") != nil)
    }

    @Test func screen_withToken_orOnAProbe_letsTheRequestThrough() {
        let authorized = HTTPRequest(
            method: "POST", path: "/body", headers: [("authorization", "Bearer \(Self.secret)")])
        #expect(service.screen(authorized) == nil)
        #expect(service.screen(HTTPRequest(method: "POST", path: "/healthz")) == nil)
    }

    @Test func withoutAccessControl_nothingIsScreened() {
        let open = NotificationTextService(
            configuration: ServiceConfiguration(), clock: .fixed(nanosecondsSinceEpoch: testNowNanoseconds),
            accessLog: .discard, errorLog: .discard)
        #expect(!open.screensRequestHeads)
        #expect(!open.replaceAuthTokens(AuthTokens([])))
    }

    // MARK: Rotation

    @Test func replaceAuthTokens_takesEffectForTheNextRequest() throws {
        func status(_ token: String) -> Int {
            service.handle(
                HTTPRequest(
                    method: "POST", path: "/body",
                    headers: [("content-type", "application/json"), ("authorization", "Bearer \(token)")],
                    body: Array(#"{"text":"a"}"#.utf8))
            ).status
        }
        #expect(status(Self.secret) == 200)
        #expect(service.replaceAuthTokens(try AuthTokens(fileContents: Array("\(Self.secret)\nnext-2\n".utf8))))
        #expect([status(Self.secret), status("next-2"), status("other")] == [200, 200, 401])
        #expect(service.replaceAuthTokens(try AuthTokens(fileContents: Array("next-2".utf8))))
        #expect([status(Self.secret), status("next-2")] == [401, 200])
    }

    private func metricsText() -> String {
        String(
            decoding: service.handle(
                HTTPRequest(method: "GET", path: "/metrics", headers: [("authorization", "Bearer \(Self.secret)")])
            ).body, as: UTF8.self)
    }
}

@Suite struct AuthTokensTests {
    @Test(arguments: [
        ("one\n", 1), ("one\ntwo\n", 2), ("one\r\ntwo\r\n", 2), ("\none\n\n\ntwo", 2), ("a-b.c_d~e+f/g==", 1),
    ])
    func tokenFile_oneTokenALine_blankLinesSkipped(_ contents: String, _ count: Int) throws {
        let tokens = try AuthTokens(fileContents: Array(contents.utf8))
        #expect(tokens.count == count)
        for token in contents.split(whereSeparator: \.isNewline) {
            #expect(tokens.verdict(authorizationValues: ["Bearer \(token)"]) == .authorized)
        }
        #expect(tokens.verdict(authorizationValues: ["Bearer none-of-them"]) == .invalid)
        #expect(tokens.verdict(authorizationValues: []) == .missing)
    }

    @Test(arguments: ["", "\n", "\r\n\n"])
    func tokenFile_withoutToken_isRefused(_ contents: String) {
        #expect(throws: AuthTokens.LoadError.empty) { try AuthTokens(fileContents: Array(contents.utf8)) }
    }

    @Test(arguments: [("ok\nbad token\n", 2, 3), (" lead\n", 1, 0), ("ok\nok2\nx\u{e9}", 3, 1)])
    func tokenFile_badLine_isRefusedWithLineAndOffset(_ contents: String, _ line: Int, _ offset: Int) {
        #expect(throws: AuthTokens.LoadError.invalidCharacter(line: line, offset: offset)) {
            try AuthTokens(fileContents: Array(contents.utf8))
        }
    }

    @Test func tokenFile_tooManyTokens_isRefused() {
        let contents = (0...AuthTokens.maxCount).map { "token-\($0)\n" }.joined()
        #expect(throws: AuthTokens.LoadError.tooMany(count: AuthTokens.maxCount + 1)) {
            try AuthTokens(fileContents: Array(contents.utf8))
        }
    }

    @Test func description_neverShowsATokenNorDoesAnError() throws {
        let tokens = try AuthTokens(fileContents: Array("secret-one\nsecret-two\n".utf8))
        #expect(!"\(tokens)".contains("secret"))
        #expect(!"\(AuthTokens.LoadError.invalidCharacter(line: 1, offset: 2))".contains("secret"))
    }
}
