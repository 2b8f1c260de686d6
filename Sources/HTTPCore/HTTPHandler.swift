/// What the event-loop adapter calls. Implementations are thread-safe: every
/// event-loop thread calls the same handler.
public protocol HTTPHandler: Sendable {
    /// Answers one request. Never throws and never traps on input.
    func handle(_ request: HTTPRequest) -> HTTPResponse
    /// The reply for a request the adapter refuses before `handle`, in the
    /// handler's own error shape. For a complete request (`uriTooLong`)
    /// `request` has everything but the body; for a refusal in the head
    /// (every other case) only the method and the `x-request-id` field, and
    /// the path when the handler `screensRequestHeads`.
    func reject(_ request: HTTPRequest, because rejection: TransportRejection) -> HTTPResponse
    /// Called once per answered request, after the reply was queued, with the
    /// time since the request was complete; records metrics and the access log.
    func didRespond(to request: HTTPRequest, with response: HTTPResponse, durationNanoseconds: UInt64)

    /// Whether the adapter calls `screen` for requests that have a body.
    var screensRequestHeads: Bool { get }
    /// Looks at a request's head before its body is read (only when
    /// `screensRequestHeads`, and only for requests with a body): an answer
    /// refuses the request there, unread, and the connection closes after it;
    /// nil lets the body be read and the request reach `handle`. `request`
    /// has the method, the path and the `authorization` and `x-request-id`
    /// fields only. The adapter reports the answer through `didRespond`.
    func screen(_ request: HTTPRequest) -> HTTPResponse?
    /// Whether `request` (its method and path only) is answered even past
    /// the connection limit and the memory budget: the probes, so a load
    /// spike never makes an orchestrator restart the process. Asked only
    /// when capacity runs short; such a request must have no body and a
    /// small reply.
    func answersBeyondCapacity(_ request: HTTPRequest) -> Bool
    /// Called once per refusal found before the body was read (every
    /// `TransportRejection` but those `handle`'s caller reports through
    /// `didRespond`), after `response` (the `reject` answer) was queued.
    func didReject(_ request: HTTPRequest, because rejection: TransportRejection, with response: HTTPResponse)
    /// Called when accept() failed with `errorNumber` (EMFILE, ENFILE,
    /// ENOBUFS, ...); the adapter pauses accepting for a moment after each.
    func didFailToAccept(errorNumber: Int32)
    /// Called on an event-loop thread at the end of each loop iteration in
    /// which it answered requests, from a timer at least every 50 ms, and
    /// once as the loop ends: writes out whatever the handler buffered on
    /// that thread (the access log), so no line waits longer than that.
    func flushBufferedOutput()
}

extension HTTPHandler {
    public var screensRequestHeads: Bool { false }
    public func screen(_ request: HTTPRequest) -> HTTPResponse? { nil }
    public func answersBeyondCapacity(_ request: HTTPRequest) -> Bool { false }
    public func didReject(_ request: HTTPRequest, because rejection: TransportRejection, with response: HTTPResponse) {
    }
    public func didFailToAccept(errorNumber: Int32) {}
    public func flushBufferedOutput() {}
}
