/// One HTTP request as the service sees it: values only, no sockets, no C.
/// The event-loop adapter (EventHTTP) builds it from libevent's request.
public struct HTTPRequest: Sendable {
    /// Upper-case method as received: "GET", "POST", …
    public var method: String
    /// The URI's path, without query or fragment, as received (not decoded).
    public var path: String
    /// Header fields as received, names lower-cased, in order.
    public var headers: [(name: String, value: String)]
    /// The whole request body (the adapter enforces the size limit first).
    public var body: [UInt8]

    public init(method: String, path: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }

    /// The first value of a header, by lower-case name.
    public func header(_ lowercasedName: String) -> String? {
        headers.first { $0.name == lowercasedName }?.value
    }
}

/// One HTTP response: status, headers and body bytes.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header fields to send, in order (Content-Type included).
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// The route label used by metrics and logs ("/body", "/compose", …, or "unmatched").
    public var route: String

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = [], route: String) {
        self.status = status
        self.headers = headers
        self.body = body
        self.route = route
    }
}

/// What the event-loop adapter calls. Implementations are thread-safe: every
/// event-loop thread calls the same handler.
public protocol HTTPHandler: Sendable {
    /// Answers one request. Never throws and never traps on input.
    func handle(_ request: HTTPRequest) -> HTTPResponse
    /// Called once per answered request, after the reply was queued, with the
    /// time since the request was complete; records metrics and the access log.
    func didRespond(to request: HTTPRequest, with response: HTTPResponse, durationNanoseconds: UInt64)
    /// The reply for a request the adapter rejects before `handle` (for
    /// example 413 when the body exceeds the limit), in the service's error shape.
    func rejection(status: Int, code: String, detail: String) -> HTTPResponse
    /// Like `rejection(status:code:detail:)`, for a request whose head was read:
    /// the reply echoes its `X-Request-Id` and is labelled with its route.
    func rejection(to request: HTTPRequest, status: Int, code: String, detail: String) -> HTTPResponse
}

extension HTTPHandler {
    public func rejection(to request: HTTPRequest, status: Int, code: String, detail: String) -> HTTPResponse {
        rejection(status: status, code: code, detail: detail)
    }
}

/// The server's life cycle, as `/readyz` reports it.
public enum ServerState: UInt8, Sendable {
    case starting, running, draining, stopped
}
