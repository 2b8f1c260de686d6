import HTTPCore
import NotificationEngine
import Synchronization

/// The HTTP service: routes, JSON in and out, problem errors, metrics and the
/// access log. No sockets and no C: the event-loop adapter calls `handle`
/// from any of its threads, and tests call it directly.
///
/// Routes: `POST /body`, `POST /compose`, `GET /healthz`, `GET /readyz`,
/// `GET /metrics`, `GET /openapi.yaml`, and the playground page at `GET /`
/// with `/playground.css`, `/playground.js`, `/playground.svg` and its
/// settings `/playground.json` (HEAD is answered for every GET route).
public final class NotificationTextService: HTTPHandler {
    public let configuration: ServiceConfiguration
    let clock: WallClock
    let accessLog: LogSink
    let errorLog: LogSink
    let metrics = ServiceMetrics()
    let requestIDs = RequestIDGenerator()
    let startNanosecondsSinceEpoch: Int64
    /// The tokens in force; nil when access control is off.
    let authTokenStore: AuthTokenStore?
    private let state = Atomic<UInt8>(ServerState.starting.rawValue)
    /// Reads the adapter's memory charge for `/metrics` (`readMemoryCharge(from:)`).
    private let memoryCharge = Mutex<(@Sendable () -> Int)?>(nil)
    /// The composer; replaceable only by tests (to prove the 500 path).
    /// It takes the response's buffers from the storage (`Composer.compose(_:reusing:)`).
    let compose: @Sendable (ComposeRequest, inout ComposeRequest.Storage) throws -> ComposeResponse

    package convenience init(
        configuration: ServiceConfiguration = ServiceConfiguration(),
        clock: WallClock = .system,
        accessLog: LogSink = .standardOutput,
        errorLog: LogSink = .standardError
    ) {
        self.init(
            configuration: configuration, clock: clock, accessLog: accessLog, errorLog: errorLog,
            compose: { Composer.compose($0, reusing: &$1) })
    }

    init(
        configuration: ServiceConfiguration, clock: WallClock, accessLog: LogSink, errorLog: LogSink,
        compose: @escaping @Sendable (ComposeRequest, inout ComposeRequest.Storage) throws -> ComposeResponse
    ) {
        self.configuration = configuration
        self.clock = clock
        self.accessLog = accessLog
        self.errorLog = errorLog
        self.compose = compose
        self.authTokenStore = configuration.authTokens.map(AuthTokenStore.init)
        self.startNanosecondsSinceEpoch = clock.nanosecondsSinceEpoch()
        // Computed once per process (~30 ms); here rather than in the first health probe.
        _ = UnicodeVersion.current
    }

    // MARK: Life cycle

    /// Sets the state `/readyz` reports (the adapter calls this as it starts and drains).
    public func setState(_ newState: ServerState) {
        state.store(newState.rawValue, ordering: .releasing)
    }

    /// The state `/readyz` reports.
    public var currentState: ServerState {
        ServerState(rawValue: state.load(ordering: .acquiring)) ?? .stopped
    }

    /// Where `/metrics` reads the bytes charged to the server's memory
    /// budget (`notification_text_memory_charged_bytes`, beside the resident
    /// memory); called once, as the server is made. Without it the gauge is left out.
    public func readMemoryCharge(from read: @escaping @Sendable () -> Int) {
        memoryCharge.withLock { $0 = read }
    }

    /// The bytes charged now, when a server told where to read them.
    var chargedMemoryBytes: Int? {
        memoryCharge.withLock { $0 }?()
    }

    // MARK: HTTPHandler

    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        handle(request, on: .main)
    }

    /// Which listener a request came in on.
    enum Listener: Sendable {
        /// Every route; the token is checked when one is configured.
        case main
        /// `serve --metrics-port`: `/metrics` and the probes only, no token.
        case metrics
    }

    /// The handler for the separate metrics listener: `GET /metrics`,
    /// `/healthz` and `/readyz` without a token, 404 for anything else.
    public var metricsListenerHandler: any HTTPHandler { MetricsListenerHandler(service: self) }

    func handle(_ request: HTTPRequest, on listener: Listener) -> HTTPResponse {
        metrics.inFlight.wrappingAdd(1, ordering: .relaxed)
        defer { metrics.inFlight.wrappingSubtract(1, ordering: .relaxed) }

        let requestID = requestIDs.id(for: request)
        let route = route(forPath: request.path)
        var response: HTTPResponse
        do {
            switch listener {
            case .main:
                try authenticate(request, route: route)
            case .metrics:
                guard route.isServedOnMetricsListener else {
                    throw Problem(.notFound, "the metrics listener serves GET /metrics, /healthz and /readyz only")
                }
            }
            response = try answer(request, route: route)
        } catch let problem as Problem {
            response = Self.problemResponse(problem, route: route)
        } catch {
            // Only a bug gets here. One line, without the request's content.
            errorLog.write(
                Array(
                    "notification-text: internal error on \(route.label), request \(requestID.text): \(type(of: error))\n"
                        .utf8))
            response = Self.problemResponse(
                Problem(.internalError, "an unexpected error occurred; the request id identifies it in the server log"),
                route: route)
        }
        response.requestID = requestID
        if request.method == "HEAD" {
            // The same header fields as GET, without the content (RFC 9110 9.3.2).
            response.headers.append(("Content-Length", String(response.body.count)))
            response.body = []
        }
        return response
    }

    public func didRespond(to request: HTTPRequest, with response: HTTPResponse, durationNanoseconds: UInt64) {
        let route = Route(label: response.route)
        metrics.record(route: route, status: response.status, durationNanoseconds: durationNanoseconds)
        guard configuration.accessLogEnabled else { return }
        AccessLog(
            timeNanosecondsSinceEpoch: clock.nanosecondsSinceEpoch(), method: request.method, route: route.label,
            status: response.status, bytes: response.body.count, durationNanoseconds: durationNanoseconds,
            requestID: response.requestID
        ).write(to: accessLog)
    }

    /// The problem for a request the adapter refused (`uri-too-long`,
    /// `payload-too-large`), echoing its request id and labelled with its route.
    public func reject(_ request: HTTPRequest, because rejection: TransportRejection) -> HTTPResponse {
        let route = route(forPath: request.path)
        var response = Self.problemResponse(Problem(rejection), route: route)
        response.requestID = requestIDs.id(for: request)
        return response
    }

    // MARK: Access

    /// With a configured token, every route but the probes and the playground's
    /// static files needs it; unknown paths too, so strangers learn nothing about what exists. The header's
    /// value is never logged or echoed.
    func authenticate(_ request: HTTPRequest, route: Route) throws(Problem) {
        guard let authTokenStore, !route.isOpenWithoutToken else { return }
        let values = request.headers.filter { $0.name == "authorization" }.map(\.value)
        switch authTokenStore.current.verdict(authorizationValues: values) {
        case .authorized:
            return
        case .missing:
            throw Problem(
                .unauthorized, "this resource needs an Authorization: Bearer token",
                headers: [("WWW-Authenticate", #"Bearer realm="notification-text""#)])
        case .invalid:
            throw Problem(
                .unauthorized, "the bearer token is not valid",
                headers: [("WWW-Authenticate", #"Bearer realm="notification-text", error="invalid_token""#)])
        }
    }

    // MARK: Routing

    private func answer(_ request: HTTPRequest, route: Route) throws -> HTTPResponse {
        if route == .unmatched {
            throw Problem(.notFound, "no resource at this path; see GET /openapi.yaml")
        }
        let method = request.method
        if route.acceptsPost {
            guard method == "POST" else {
                throw Problem(
                    .methodNotAllowed, "\(route.label) accepts POST only", headers: [("Allow", route.allowHeader)])
            }
            try RequestContent.check(request)
            switch route {
            case .body: return try answerBody(request)
            case .relay: return try answerRelay(request)
            default: return try answerCompose(request)
            }
        }
        guard method == "GET" || method == "HEAD" else {
            throw Problem(
                .methodNotAllowed, "\(route.label) accepts GET and HEAD only", headers: [("Allow", route.allowHeader)])
        }
        switch route {
        case .healthz:
            let json = JSONWriter.bytes(capacity: 48) { json in
                json.raw(#"{"status":"ok","unicodeVersion":"#)
                json.string(UnicodeVersion.current)
                json.raw("}")
            }
            return Self.json(json, route: route)
        case .readyz:
            let state = currentState
            guard state == .running else {
                throw Problem(.notReady, "the server is \(state.label)")
            }
            return Self.json(Array(#"{"status":"running"}"#.utf8), route: route)
        case .metrics:
            let snapshot = MetricsExposition.Snapshot(
                state: currentState,
                startNanosecondsSinceEpoch: startNanosecondsSinceEpoch,
                nowNanosecondsSinceEpoch: clock.nanosecondsSinceEpoch(),
                residentMemoryBytes: ProcessStats.residentMemoryBytes(),
                chargedMemoryBytes: chargedMemoryBytes,
                cpuNanoseconds: ProcessStats.cpuNanoseconds(),
                openDescriptorCount: ProcessStats.openDescriptorCount(),
                maxDescriptorCount: ProcessStats.maxDescriptorCount(),
                unicodeVersion: UnicodeVersion.current,
                build: configuration.build
            )
            return HTTPResponse(
                status: 200, headers: [("Content-Type", MetricsExposition.contentType)],
                body: MetricsExposition.render(metrics, snapshot), route: route.label)
        case .openAPI:
            // Resources/openapi.yaml (the repository's file), embedded by SwiftPM.
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "application/yaml")],
                body: PackageResources.openapi_yaml, route: route.label)
        case .playgroundPage, .playgroundStyle, .playgroundScript, .playgroundIcon:
            return PlaygroundAsset.response(route: route)
        case .playgroundSettings:
            return PlaygroundAsset.settings(configuration)
        case .body, .compose, .relay, .unmatched:
            preconditionFailure("handled above")
        }
    }

    private func answerBody(_ request: HTTPRequest) throws(Problem) -> HTTPResponse {
        let json = try ServiceAnswers.body(request: request.body) { rendering in
            if rendering.truncated { metrics.bodiesTruncated.add(1) }
            if rendering.inputCut { metrics.inputCuts.add(1) }
        }
        return Self.json(json, route: .body)
    }

    private func answerCompose(_ request: HTTPRequest) throws -> HTTPResponse {
        let json = try ServiceAnswers.compose(
            request: request.body, appName: configuration.appName, catalogs: configuration.catalogs,
            now: clock.timestamp, composer: compose)
        return Self.json(json, route: .compose)
    }

    private func answerRelay(_ request: HTTPRequest) throws(Problem) -> HTTPResponse {
        let json = try ServiceAnswers.relay(
            request: request.body, appName: configuration.appName, catalogs: configuration.catalogs)
        return Self.json(json, route: .relay)
    }

    // MARK: Responses

    static func json(_ body: [UInt8], route: Route) -> HTTPResponse {
        HTTPResponse(status: 200, headers: jsonHeaders, body: body, route: route.label)
    }

    static func problemResponse(_ problem: Problem, route: Route) -> HTTPResponse {
        var headers = problemHeaders
        if !problem.headers.isEmpty {
            headers.reserveCapacity(1 + problem.headers.count)
            headers.append(contentsOf: problem.headers)
        }
        return HTTPResponse(status: problem.status, headers: headers, body: problem.jsonBody(), route: route.label)
    }

    /// The usual fields, made once and shared by the responses that have
    /// them: a response costs no allocation for its field list.
    private static let jsonHeaders: [(name: String, value: String)] = [("Content-Type", "application/json")]
    private static let problemHeaders: [(name: String, value: String)] = [
        ("Content-Type", "application/problem+json")
    ]
}
