/// What the event-loop adapter calls. Implementations are thread-safe: every
/// event-loop thread calls the same handler.
public protocol HTTPHandler: Sendable {
    /// Answers one request. Never throws and never traps on input.
    func handle(_ request: HTTPRequest) -> HTTPResponse
    /// The reply for a request the adapter refuses before `handle`, in the
    /// handler's own error shape; `request` has everything but the body.
    func reject(_ request: HTTPRequest, because rejection: TransportRejection) -> HTTPResponse
    /// Called once per answered request, after the reply was queued, with the
    /// time since the request was complete; records metrics and the access log.
    func didRespond(to request: HTTPRequest, with response: HTTPResponse, durationNanoseconds: UInt64)
}
