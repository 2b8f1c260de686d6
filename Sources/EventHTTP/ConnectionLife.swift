/// One connection's life from accept to close, as a value: each event the
/// libevent callbacks see goes in, and what the connection must do comes
/// out as an `Action` the record carries out (`ConnectionRecord`). It knows
/// no socket, buffer or clock: times are arguments, so every transition is
/// tested without a socket (`ConnectionLifeTests`).
///
/// The stages: the framer reads a head (or a chunked body) ahead of evhttp
/// (`framing`); evhttp reads what the framer accepted, a `Content-Length`
/// body included (`evhttpReading`); the handler has the request and its
/// reply is pending (`replyPending`), after which the connection frames the
/// next request or waits idle; or a refusal is decided (`refusalPending`)
/// and, on the loop's next turn, the adapter writes its answer and closes
/// after a lingering close (`refusing`).
struct ConnectionLife {
    enum Stage: Equatable {
        case framing
        case evhttpReading
        case replyPending
        case refusalPending
        case refusing
    }

    /// What the record does after an event.
    enum Action: Equatable {
        case none
        /// Feed the bytes that arrived to the framer.
        case frame
        /// Discard what arrived: a refused client's bytes are never a request.
        case discard
        /// Put our callback on the input buffer (a body still to come is counted).
        case watchInput
        /// Take our callback off: evhttp reads alone.
        case unwatchInput
        /// Stop reading while the reply is pending (back-pressure to TCP).
        case stopReading
        /// Frame what is already buffered: a pipelined request.
        case framePending
        /// The loop takes the connection over from evhttp on its next turn.
        case scheduleTakeOver
        /// Close the connection without an answer (too slow, idle at a drain).
        case close
        /// The lingering close is over: close.
        case finishRefusal
    }

    /// What `sweep` checks against.
    struct Limits: Equatable {
        var readTimeoutNanoseconds: UInt64
        var graceNanoseconds: UInt64
        var minHeadBytesPerSecond: Int
        var minBodyBytesPerSecond: Int
    }

    /// Which of the server's limits kept a connection out.
    enum HeldLimit: Equatable {
        /// Every slot (`maxConnections`).
        case connections
        /// The memory budget.
        case memoryBudget
    }

    private(set) var stage = Stage.framing
    let acceptedAtNanoseconds: UInt64
    /// A request of this connection has reached the handler.
    private(set) var hasServedRequest = false
    /// From the moment the handler got a request until its reply is written
    /// out (or the connection dies).
    private(set) var isHandlingRequest = false
    /// When the first bytes since the last reply came: set while a request
    /// arrives, nil while idle or being answered.
    private(set) var requestStartNanoseconds: UInt64?
    /// When, in the order connections went idle, this one began to wait
    /// for its next request after a reply: a later one has a larger value
    /// (nil before its first request, and while a request is under way).
    /// The table counts replies for it, which costs less than a clock.
    private(set) var idleOrder: UInt64?
    /// A body under way: since when (the end of its head), how many of its
    /// bytes came, and how many were declared (0 for a chunked one, whose
    /// end the framer sees).
    private(set) var bodyStartNanoseconds: UInt64?
    private(set) var bodyReceivedBytes = 0
    private(set) var bodyDeclaredBytes = 0
    /// Admitted past capacity: only a probe is answered, then it closes;
    /// anything else is refused naming the limit that was held.
    private(set) var probation: HeldLimit?
    var isOnProbation: Bool { probation != nil }
    /// When the lingering close of a refusal ends at the latest.
    private(set) var lingerDeadlineNanoseconds: UInt64 = 0

    init(acceptedAtNanoseconds: UInt64) {
        self.acceptedAtNanoseconds = acceptedAtNanoseconds
    }

    mutating func beginProbation(because held: HeldLimit) {
        probation = held
    }

    // MARK: Events

    /// `count` bytes were added to the input buffer.
    mutating func bytesArrived(_ count: Int) -> Action {
        switch stage {
        case .framing:
            if bodyStartNanoseconds != nil { bodyReceivedBytes += count }
            return .frame
        case .refusalPending, .refusing:
            return .discard
        case .evhttpReading:
            guard bodyStartNanoseconds != nil else { return .none }
            bodyReceivedBytes += count
            return bodyReceivedBytes >= bodyDeclaredBytes ? .unwatchInput : .none
        case .replyPending:
            return .none
        }
    }

    /// The framer is about to read bytes of a request at `now`: it is no
    /// longer idle, and its request has begun.
    mutating func framingStarted(now: UInt64) {
        if requestStartNanoseconds == nil { requestStartNanoseconds = now }
        idleOrder = nil
    }

    /// The head ended. `declaredBodyBytes`: a `Content-Length` body's length
    /// (nil for none or a chunked one); `bodyBytesBuffered`: how much of it
    /// is already in the input.
    mutating func headComplete(
        hasBody: Bool, isChunked: Bool, declaredBodyBytes: Int?, bodyBytesBuffered: Int, now: UInt64
    ) -> Action {
        if hasBody { bodyStartNanoseconds = now }
        guard !isChunked else { return .none }
        stage = .evhttpReading
        guard hasBody, let declaredBodyBytes else { return .unwatchInput }
        bodyDeclaredBytes = declaredBodyBytes
        bodyReceivedBytes = bodyBytesBuffered
        if bodyReceivedBytes >= declaredBodyBytes {
            finishBody()
            return .unwatchInput
        }
        // A body still to come: our callback counts it in.
        return .watchInput
    }

    /// A chunked body (trailers included) ended: evhttp reads it alone.
    mutating func chunkedBodyComplete() -> Action {
        finishBody()
        stage = .evhttpReading
        return .unwatchInput
    }

    /// The handler got the complete request.
    mutating func requestComplete() -> Action {
        isHandlingRequest = true
        hasServedRequest = true
        requestStartNanoseconds = nil
        idleOrder = nil
        let wasWatchingBody = bodyStartNanoseconds != nil && stage == .evhttpReading
        finishBody()
        guard stage == .framing || stage == .evhttpReading else { return .none }
        stage = .replyPending
        return wasWatchingBody ? .unwatchInput : .none
    }

    /// The reply is queued.
    func replyQueued() -> Action {
        stage == .replyPending ? .stopReading : .none
    }

    /// The reply is written out, with `pendingBytes` of a pipelined request
    /// already buffered; `idleOrder` is the place it takes among idle
    /// connections if it goes idle.
    mutating func replyWritten(pendingBytes: Int, idleOrder: UInt64) -> Action {
        isHandlingRequest = false
        requestStartNanoseconds = nil
        guard stage == .replyPending else { return .none }
        stage = .framing
        if pendingBytes > 0 { return .framePending }
        self.idleOrder = idleOrder
        return .watchInput
    }

    /// A refusal is decided; `.none` when one already was.
    mutating func refuse() -> Action {
        guard stage != .refusalPending && stage != .refusing else { return .none }
        stage = .refusalPending
        return .scheduleTakeOver
    }

    /// The adapter took the connection over to write the refusal's answer.
    mutating func beginRefusal(now: UInt64, lingerNanoseconds: UInt64) {
        stage = .refusing
        isHandlingRequest = false
        requestStartNanoseconds = nil
        lingerDeadlineNanoseconds = now &+ lingerNanoseconds
    }

    /// The periodic check at `now`. `headBytes`: the head's bytes so far
    /// while one is being read. `closesIdle` (draining without keeping idle
    /// connections): an idle one closes too (`hasUnreadBytes`: the kernel
    /// holds bytes not read yet, asked only then).
    func sweep(
        now: UInt64, limits: Limits, headBytes: Int?, closesIdle: Bool, hasUnreadBytes: @autoclosure () -> Bool
    ) -> Action {
        switch stage {
        case .refusing:
            return now > lingerDeadlineNanoseconds ? .finishRefusal : .none
        case .refusalPending:
            return .none
        case .framing, .evhttpReading, .replyPending:
            let pastReadTimeout =
                !isHandlingRequest && requestStartNanoseconds.map { now &- $0 > limits.readTimeoutNanoseconds } == true
            if pastReadTimeout || isHeadTooSlow(now: now, limits: limits, headBytes: headBytes)
                || isBodyTooSlow(now: now, limits: limits)
            {
                return .close
            }
            return closesIdle && isIdle(hasUnreadBytes: hasUnreadBytes()) ? .close : .none
        }
    }

    // MARK: Questions

    /// Since when the connection has been sending the head it has not
    /// finished (`isReadingHead`): from its first byte, or before its first
    /// request from the accept. nil while idle between requests or past the head.
    func headStartNanoseconds(isReadingHead: Bool) -> UInt64? {
        guard stage == .framing, !isHandlingRequest, isReadingHead, !isOnProbation else { return nil }
        return requestStartNanoseconds ?? (hasServedRequest ? nil : acceptedAtNanoseconds)
    }

    /// A head under way (`headBytes` of it so far) that, past the grace from
    /// its first byte, arrived at less than the minimum rate on average.
    func isHeadTooSlow(now: UInt64, limits: Limits, headBytes: Int?) -> Bool {
        guard let headBytes, stage == .framing, !isHandlingRequest, let start = requestStartNanoseconds else {
            return false
        }
        let elapsed = now &- start
        guard elapsed > limits.graceNanoseconds else { return false }
        return UInt64(headBytes) &* 1_000_000_000 < UInt64(limits.minHeadBytesPerSecond) &* elapsed
    }

    /// The body being read arrived at less than the minimum rate on average
    /// from the end of its head, once the grace passed.
    func isBodyTooSlow(now: UInt64, limits: Limits) -> Bool {
        guard let start = bodyStartNanoseconds, stage == .evhttpReading || stage == .framing else { return false }
        let elapsed = now &- start
        guard elapsed > limits.graceNanoseconds else { return false }
        return UInt64(bodyReceivedBytes) &* 1_000_000_000 < UInt64(limits.minBodyBytesPerSecond) &* elapsed
    }

    /// Bytes a second the body under way has arrived at on average, once
    /// `graceNanoseconds` passed (a body just begun has no rate yet).
    func bodyBytesPerSecond(now: UInt64, graceNanoseconds: UInt64) -> Double? {
        guard let start = bodyStartNanoseconds, stage == .evhttpReading || stage == .framing,
            now &- start > graceNanoseconds
        else { return nil }
        return Double(bodyReceivedBytes) / (Double(now &- start) / 1e9)
    }

    /// Waiting between requests: nothing received, nothing being answered,
    /// nothing unread in the kernel.
    func isIdle(hasUnreadBytes: @autoclosure () -> Bool) -> Bool {
        stage == .framing && !isHandlingRequest && requestStartNanoseconds == nil && !hasUnreadBytes()
    }

    private mutating func finishBody() {
        bodyStartNanoseconds = nil
        bodyReceivedBytes = 0
        bodyDeclaredBytes = 0
    }
}
