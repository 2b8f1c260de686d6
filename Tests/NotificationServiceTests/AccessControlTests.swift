import HTTPCore
import Testing

@testable import NotificationEngine
@testable import NotificationService

/// `--auth-token-file` and the metrics listener, in process: no sockets.
@Suite struct AccessControlTests {
    static let secret = "s3cret-Token_42.~+/=="
    let accessLog = LogCapture()
    let errorLog = LogCapture()
    let service: NotificationTextService

    init() throws {
        let token = try BearerToken(fileContents: Array((Self.secret + "\n").utf8))
        service = NotificationTextService(
            configuration: ServiceConfiguration(authTokens: AuthTokens([token])),
            clock: .fixed(nanosecondsSinceEpoch: testNowNanoseconds),
            accessLog: accessLog.sink, errorLog: errorLog.sink)
        service.setState(.running)
    }

    func request(_ method: String, _ path: String, authorization: [String] = [], body: String = "") -> HTTPRequest {
        HTTPRequest(
            method: method, path: path,
            headers: [("content-type", "application/json")] + authorization.map { ("authorization", $0) },
            body: Array(body.utf8))
    }

    func answer(_ request: HTTPRequest) -> HTTPResponse {
        let response = service.handle(request)
        service.didRespond(to: request, with: response, durationNanoseconds: 1_000)
        return response
    }

    // MARK: The token

    @Test(arguments: ["/body", "/compose", "/metrics", "/openapi.yaml", "/nope"])
    func withoutAuthorization_everyRouteButProbes_is401WithChallenge(_ path: String) {
        let response = answer(
            request(
                path.hasPrefix("/body") || path.hasPrefix("/compose") ? "POST" : "GET", path,
                body: #"{"text":"a"}"#))
        expectProblem(response, status: 401, code: "unauthorized", detailContains: "Bearer")
        #expect(response.header("WWW-Authenticate") == #"Bearer realm="notification-text""#)
    }

    @Test(arguments: [
        "Bearer wrong", "Bearer " + secret + "x", "Bearer " + String(secret.dropLast()), "Bearer  ", "bearer s3cret",
    ])
    func wrongToken_is401InvalidToken(_ authorization: String) {
        let response = answer(request("POST", "/body", authorization: [authorization], body: #"{"text":"a"}"#))
        expectProblem(response, status: 401, code: "unauthorized", detailContains: "not valid")
        #expect(response.header("WWW-Authenticate") == #"Bearer realm="notification-text", error="invalid_token""#)
    }

    @Test(arguments: ["Basic czNjcmV0", "Token " + secret, "Bearer", secret])
    func otherScheme_isTreatedAsMissing(_ authorization: String) {
        let response = answer(request("POST", "/body", authorization: [authorization], body: #"{"text":"a"}"#))
        expectProblem(response, status: 401, code: "unauthorized")
        #expect(response.header("WWW-Authenticate") == #"Bearer realm="notification-text""#)
    }

    @Test(arguments: ["Bearer " + secret, "bearer " + secret, "BEARER \t" + secret + " "])
    func rightToken_isServed(_ authorization: String) {
        let response = answer(request("POST", "/body", authorization: [authorization], body: #"{"text":"**hi**"}"#))
        #expect(response.status == 200)
        #expect(response.text == #"{"body":"hi","units":2,"truncated":false,"inputCut":false}"#)
    }

    @Test func twoAuthorizationFields_areRefusedEvenIfOneIsRight() {
        let response = answer(
            request("POST", "/body", authorization: ["Bearer " + Self.secret, "Bearer other"], body: #"{"text":"a"}"#))
        expectProblem(response, status: 401, code: "unauthorized")
    }

    @Test(arguments: ["/healthz", "/readyz"])
    func probes_needNoToken(_ path: String) {
        #expect(answer(request("GET", path)).status == 200)
        #expect(answer(request("HEAD", path)).status == 200)
    }

    @Test func token_neverAppearsInLogsOrMetrics() {
        _ = answer(request("POST", "/body", authorization: ["Bearer " + Self.secret], body: #"{"text":"a"}"#))
        _ = answer(
            request("POST", "/body", authorization: ["Bearer " + Self.secret + "-guess"], body: #"{"text":"a"}"#))
        let metrics = answer(request("GET", "/metrics", authorization: ["Bearer " + Self.secret]))
        #expect(metrics.status == 200)
        #expect(!metrics.text.contains(Self.secret))
        #expect(metrics.text.contains(#"status="401""#), "401s are counted")
        #expect(accessLog.lines.count == 3)
        #expect(!(accessLog.lines + errorLog.lines).joined().contains(Self.secret))
        #expect(!String(describing: service.configuration.authTokens!).contains(Self.secret))
    }

    @Test func withoutConfiguredToken_everythingIsOpen() {
        let open = NotificationTextService(
            configuration: ServiceConfiguration(), clock: .fixed(nanosecondsSinceEpoch: testNowNanoseconds),
            accessLog: .discard, errorLog: .discard)
        #expect(open.handle(request("POST", "/body", body: #"{"text":"a"}"#)).status == 200)
        #expect(
            open.handle(request("POST", "/body", authorization: ["Bearer anything"], body: #"{"text":"a"}"#)).status
                == 200)
    }

    // MARK: The metrics listener

    @Test(arguments: ["/metrics", "/healthz", "/readyz"])
    func metricsListener_servesMetricsAndProbes_withoutToken(_ path: String) {
        let response = service.metricsListenerHandler.handle(request("GET", path))
        #expect(response.status == 200)
    }

    @Test(arguments: [("POST", "/body"), ("POST", "/compose"), ("GET", "/openapi.yaml"), ("GET", "/nope")])
    func metricsListener_servesNothingElse_evenWithToken(_ method: String, _ path: String) {
        let response = service.metricsListenerHandler.handle(
            request(method, path, authorization: ["Bearer " + Self.secret], body: #"{"text":"a"}"#))
        expectProblem(response, status: 404, code: "not-found")
    }
}

@Suite struct BearerTokenTests {
    @Test(arguments: [("tok\n", "tok"), ("tok\r\n", "tok"), ("tok\n\n", "tok"), ("a-b.c_d~e+f/g==", "a-b.c_d~e+f/g==")])
    func tokenFile_trailingNewlinesTrimmed(_ contents: String, _ token: String) throws {
        let parsed = try BearerToken(fileContents: Array(contents.utf8))
        #expect(parsed.verdict(authorizationValues: ["Bearer " + token]) == .authorized)
    }

    @Test(arguments: ["", "\n", "\r\n"])
    func tokenFile_empty_isRefused(_ contents: String) {
        #expect(throws: BearerToken.LoadError.empty) { try BearerToken(fileContents: Array(contents.utf8)) }
    }

    @Test(arguments: [(" tok", 0), ("to k", 2), ("=tok", 0), ("tok=x", 4), ("tok\u{e9}", 3), ("tok\nmore", 3)])
    func tokenFile_notB64Token_isRefusedWithOffset(_ contents: String, _ offset: Int) {
        #expect(throws: BearerToken.LoadError.invalidCharacter(offset: offset)) {
            try BearerToken(fileContents: Array(contents.utf8))
        }
    }

    @Test func matches_comparesWholeTokens() throws {
        let token = try BearerToken(fileContents: Array("abcdef".utf8))
        #expect(token.matches(Array("abcdef".utf8)))
        #expect(!token.matches(Array("abcde".utf8)))
        #expect(!token.matches(Array("abcdefg".utf8)))
        #expect(!token.matches(Array("abcdeF".utf8)))
        #expect(!token.matches([]))
    }
}
