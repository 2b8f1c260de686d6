/// One connection's life from accept to close, as a value: each event the
/// libevent callbacks see goes in, and what the connection must do comes
/// out as an `Action` the record carries out (`ConnectionRecord`). It knows
/// no socket, buffer or clock: times are arguments, so every transition is
/// tested without a socket (`ConnectionLifeTests`).
///
/// The stages, each with what it has and nothing else (`Stage`): waiting
/// for a request (`waiting`, idle after a reply, with its place among the
/// idle connections); the framer reads a head, and a chunked body
/// (`framing`, since the request's first byte); the rest of a
/// `Content-Length` body arrives (`bodyReading`); the handler has the
/// request and its reply is pending (`replyPending`),
/// after which the connection waits again; or a refusal is decided
/// (`refusalPending`) and, on the loop's next turn, the adapter writes its
/// answer and closes after a lingering close (`refusing`, until its
/// deadline).
struct ConnectionLife {
    /// A body under way: since when (the end of its head), how many of its
    /// bytes came, and how many were declared (0 for a chunked one, whose
    /// end the framer sees).
    struct Body: Equatable {
        var startNanoseconds: UInt64
        var receivedBytes = 0
        var declaredBytes = 0
    }

    enum Stage: Equatable {
        /// No byte of a request yet: a new connection, or one idle after a
        /// reply, `idleOrder` its place in the order connections went idle
        /// (a later one has a larger value; nil before the first request and
        /// while a pipelined request waits to be framed). The table counts
        /// replies for it, which costs less than a clock.
        case waiting(idleOrder: UInt64?)
        /// The framer reads the request whose first byte came at
        /// `startNanoseconds`: its head, then, if chunked, its `body`.
        case framing(startNanoseconds: UInt64, body: Body?)
        /// The head (and a chunked body) is framed; `body`: a `Content-Length`
        /// body that did not come whole with its head, counted as it comes
        /// (nil once the request is whole).
        case bodyReading(startNanoseconds: UInt64, body: Body?)
        /// The handler got the request; its reply is not written out yet.
        case replyPending
        /// A refusal is decided; the adapter takes the connection over on the
        /// loop's next turn.
        case refusalPending
        /// The refusal's answer is written; the lingering close ends at the
        /// latest at `lingerDeadlineNanoseconds`.
        case refusing(lingerDeadlineNanoseconds: UInt64)
    }

    /// What the record does after an event.
    enum Action: Equatable {
        case none
        /// Feed the bytes that arrived to the framer.
        case frame
        /// Discard what arrived: a refused client's bytes are never a request.
        case discard
        /// Wait for what arrives (a body still to come is counted as it does).
        case watchInput
        /// The request is whole in the input: the handler answers it.
        case answer
        /// Stop reading while the reply is pending (back-pressure to TCP).
        case stopReading
        /// Frame what is already buffered: a pipelined request.
        case framePending
        /// The loop takes the connection over to refuse it on its next turn.
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

    private(set) var stage = Stage.waiting(idleOrder: nil)
    let acceptedAtNanoseconds: UInt64
    /// A request of this connection has reached the handler.
    private(set) var hasServedRequest = false
    /// Admitted past capacity: only a probe is answered, then it closes;
    /// anything else is refused naming the limit that was held. Decided at
    /// accept, whatever the stage.
    private(set) var probation: HeldLimit?
    var isOnProbation: Bool { probation != nil }

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
        case .waiting:
            return .frame
        case .framing(let start, var body?):
            body.receivedBytes += count
            stage = .framing(startNanoseconds: start, body: body)
            return .frame
        case .framing:
            return .frame
        case .refusalPending, .refusing:
            return .discard
        case .bodyReading(let start, var body?):
            body.receivedBytes += count
            stage = .bodyReading(startNanoseconds: start, body: body)
            guard body.receivedBytes >= body.declaredBytes else { return .none }
            stage = .bodyReading(startNanoseconds: start, body: nil)
            return .answer
        case .bodyReading, .replyPending:
            return .none
        }
    }

    /// The framer is about to read the first bytes of a request at `now`: it
    /// is no longer waiting, and its request has begun.
    mutating func framingStarted(now: UInt64) {
        guard case .waiting = stage else { return }
        stage = .framing(startNanoseconds: now, body: nil)
    }

    /// The head ended. `declaredBodyBytes`: a `Content-Length` body's length
    /// (nil for none or a chunked one); `bodyBytesBuffered`: how much of it
    /// is already in the input.
    mutating func headComplete(
        hasBody: Bool, isChunked: Bool, declaredBodyBytes: Int?, bodyBytesBuffered: Int, now: UInt64
    ) -> Action {
        let start: UInt64
        switch stage {
        case .framing(let startNanoseconds, _): start = startNanoseconds
        case .waiting: start = now
        default: return .none
        }
        if isChunked {
            stage = .framing(startNanoseconds: start, body: hasBody ? Body(startNanoseconds: now) : nil)
            return .none
        }
        guard hasBody, let declaredBodyBytes, bodyBytesBuffered < declaredBodyBytes else {
            stage = .bodyReading(startNanoseconds: start, body: nil)
            return .answer
        }
        // A body still to come: our callback counts it in.
        stage = .bodyReading(
            startNanoseconds: start,
            body: Body(startNanoseconds: now, receivedBytes: bodyBytesBuffered, declaredBytes: declaredBodyBytes))
        return .watchInput
    }

    /// A chunked body (trailers included) ended: the request is whole.
    mutating func chunkedBodyComplete() -> Action {
        guard case .framing(let start, _) = stage else { return .none }
        stage = .bodyReading(startNanoseconds: start, body: nil)
        return .answer
    }

    /// The handler got the complete request.
    mutating func requestComplete() -> Action {
        hasServedRequest = true
        switch stage {
        case .waiting, .framing, .bodyReading:
            stage = .replyPending
            return .none
        case .replyPending, .refusalPending, .refusing:
            return .none
        }
    }

    /// The reply is queued.
    func replyQueued() -> Action {
        isReplyPending ? .stopReading : .none
    }

    /// The reply is written out, with `pendingBytes` of a pipelined request
    /// already buffered; `idleOrder` is the place it takes among idle
    /// connections if it goes idle.
    mutating func replyWritten(pendingBytes: Int, idleOrder: UInt64) -> Action {
        guard isReplyPending else { return .none }
        if pendingBytes > 0 {
            stage = .waiting(idleOrder: nil)
            return .framePending
        }
        stage = .waiting(idleOrder: idleOrder)
        return .watchInput
    }

    /// A refusal is decided; `.none` when one already was.
    mutating func refuse() -> Action {
        guard !isRefused else { return .none }
        stage = .refusalPending
        return .scheduleTakeOver
    }

    /// The adapter took the connection over to write the refusal's answer.
    mutating func beginRefusal(now: UInt64, lingerNanoseconds: UInt64) {
        stage = .refusing(lingerDeadlineNanoseconds: now &+ lingerNanoseconds)
    }

    /// The periodic check at `now`. `headBytes`: the head's bytes so far
    /// while one is being read. `closesIdle` (draining without keeping idle
    /// connections): an idle one closes too (`hasUnreadBytes`: the kernel
    /// holds bytes not read yet, asked only then).
    /// `heldBackBodyBytes`: what the kernel holds of a body it has not
    /// handed over yet (a raised receive low-water mark), asked only when
    /// the body looks too slow without it and with `knownHeldBackBodyBytes`,
    /// what it held when last asked since the last read (it only grows
    /// until the next read, so it is a floor).
    func sweep(
        now: UInt64, limits: Limits, headBytes: Int?, closesIdle: Bool, hasUnreadBytes: @autoclosure () -> Bool,
        knownHeldBackBodyBytes: Int = 0, heldBackBodyBytes: @autoclosure () -> Int = 0
    ) -> Action {
        switch stage {
        case .refusing(let deadline):
            return now > deadline ? .finishRefusal : .none
        case .refusalPending:
            return .none
        case .waiting, .framing, .bodyReading, .replyPending:
            let pastReadTimeout = requestStartNanoseconds.map { now &- $0 > limits.readTimeoutNanoseconds } == true
            if pastReadTimeout || isHeadTooSlow(now: now, limits: limits, headBytes: headBytes)
                || (isBodyTooSlow(now: now, limits: limits)
                    && isBodyTooSlow(now: now, limits: limits, heldBackBytes: knownHeldBackBodyBytes)
                    && isBodyTooSlow(now: now, limits: limits, heldBackBytes: heldBackBodyBytes()))
            {
                return .close
            }
            return closesIdle && isIdle(hasUnreadBytes: hasUnreadBytes()) ? .close : .none
        }
    }

    // MARK: Questions

    /// When the first bytes of the request being read came (nil while
    /// waiting, and once the handler has it).
    var requestStartNanoseconds: UInt64? {
        switch stage {
        case .framing(let start, _), .bodyReading(let start, _): start
        default: nil
        }
    }

    /// Its place among idle connections while it waits after a reply.
    var idleOrder: UInt64? {
        guard case .waiting(let order) = stage else { return nil }
        return order
    }

    /// The body under way, if any.
    var body: Body? {
        switch stage {
        case .framing(_, let body), .bodyReading(_, let body): body
        default: nil
        }
    }

    var bodyStartNanoseconds: UInt64? { body?.startNanoseconds }

    /// The framer reads what arrives: waiting for a request, or framing one.
    var isFraming: Bool {
        switch stage {
        case .waiting, .framing: true
        default: false
        }
    }

    /// A `Content-Length` body is still coming, counted as it comes.
    var isCountingBody: Bool {
        guard case .bodyReading(_, _?) = stage else { return false }
        return true
    }

    var isReplyPending: Bool { stage == .replyPending }

    /// A refusal is decided or under way.
    var isRefused: Bool {
        switch stage {
        case .refusalPending, .refusing: true
        default: false
        }
    }

    /// Since when the connection has been sending the head it has not
    /// finished (`isReadingHead`): from its first byte, or before its first
    /// request from the accept. nil while idle between requests or past the head.
    func headStartNanoseconds(isReadingHead: Bool) -> UInt64? {
        guard isReadingHead, !isOnProbation else { return nil }
        switch stage {
        case .framing(let start, _): return start
        case .waiting: return hasServedRequest ? nil : acceptedAtNanoseconds
        default: return nil
        }
    }

    /// A head under way (`headBytes` of it so far) that, past the grace from
    /// its first byte, arrived at less than the minimum rate on average.
    func isHeadTooSlow(now: UInt64, limits: Limits, headBytes: Int?) -> Bool {
        guard let headBytes, case .framing(let start, _) = stage else { return false }
        let elapsed = now &- start
        guard elapsed > limits.graceNanoseconds else { return false }
        return UInt64(headBytes) &* 1_000_000_000 < UInt64(limits.minHeadBytesPerSecond) &* elapsed
    }

    /// The body being read arrived at less than the minimum rate on average
    /// from the end of its head, once the grace passed; `heldBackBytes` of
    /// it are in the kernel, not counted yet.
    func isBodyTooSlow(now: UInt64, limits: Limits, heldBackBytes: Int = 0) -> Bool {
        guard let body else { return false }
        let elapsed = now &- body.startNanoseconds
        guard elapsed > limits.graceNanoseconds else { return false }
        return UInt64(body.receivedBytes + heldBackBytes) &* 1_000_000_000
            < UInt64(limits.minBodyBytesPerSecond) &* elapsed
    }

    /// Bytes a second the body under way has arrived at on average, once
    /// `graceNanoseconds` passed (a body just begun has no rate yet), with
    /// `heldBackBytes` of it in the kernel.
    func bodyBytesPerSecond(now: UInt64, graceNanoseconds: UInt64, heldBackBytes: Int = 0) -> Double? {
        guard let body, now &- body.startNanoseconds > graceNanoseconds else { return nil }
        return Double(body.receivedBytes + heldBackBytes) / (Double(now &- body.startNanoseconds) / 1e9)
    }

    /// Waiting between requests: nothing received, nothing being answered,
    /// nothing unread in the kernel.
    func isIdle(hasUnreadBytes: @autoclosure () -> Bool) -> Bool {
        guard case .waiting = stage else { return false }
        return !hasUnreadBytes()
    }
}
