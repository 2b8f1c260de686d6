/// Why the adapter refuses a request before the handler answers it.
///
/// Found on a complete request (`uriTooLong`, and `bodyTooLarge` as a
/// backstop), the handler's answer goes out like any other and the
/// connection stays usable. Found in a request's head or a chunked body's
/// framing (everything else), before the body is read: the adapter sends the
/// handler's answer with `Connection: close`, discards what still arrives for
/// a bounded time and closes (docs/adr/0016-request-framing.md,
/// docs/adr/0017-connection-limits-and-drain.md).
public enum TransportRejection: Sendable, Equatable {
    /// The request target is longer than `maxBytes`.
    case uriTooLong(maxBytes: Int)
    /// The body is, or is declared to be, larger than `maxBytes`.
    case bodyTooLarge(maxBytes: Int)
    /// The request line or a header field breaks HTTP/1.1's syntax; `detail`
    /// says which rule, never what the client sent.
    case badRequest(detail: String)
    /// The request line and header fields take more than `maxBytes`.
    case headersTooLarge(maxBytes: Int)
    /// The head (or a chunked body's trailers) has more than `maxCount` fields.
    case tooManyHeaderFields(maxCount: Int)
    /// The `Host` field, or an absolute-form target's authority, is not a
    /// host and port, or the two differ (RFC 9112 section 3.2); `detail`
    /// says which, never what the client sent.
    case invalidHost(detail: String)
    /// The body's framing is ambiguous or malformed (RFC 9112 section 6):
    /// answering could leave bytes that a second parse would take for a request.
    case badFraming(detail: String)
    /// A method or transfer coding the server does not implement.
    case notImplemented(detail: String)
    /// An `Expect` field other than `100-continue`.
    case expectationFailed
    /// The server already holds its connection limit (`serve --max-connections`).
    case tooManyConnections(limit: Int)
    /// The server's memory budget for connections' buffers (from `serve
    /// --memory-limit-bytes`) cannot take what this connection needs now.
    case memoryBudgetSpent(budgetBytes: Int)

    /// The status every answer to this rejection has.
    public var status: Int {
        switch self {
        case .uriTooLong: 414
        case .bodyTooLarge: 413
        case .badRequest, .badFraming, .invalidHost: 400
        case .headersTooLarge, .tooManyHeaderFields: 431
        case .notImplemented: 501
        case .expectationFailed: 417
        case .tooManyConnections, .memoryBudgetSpent: 503
        }
    }

}
