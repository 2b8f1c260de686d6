import CLibevent
import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

/// What one worker knows about one client connection, from accept to close.
///
/// The record owns the connection's bufferevent (and through it the
/// socket). A callback on its input buffer feeds every byte of a request's
/// head (and of a chunked body) to a `RequestFramer` as it arrives; once the
/// request is whole in the input, the loop answers it (`WorkerLoop.answer`)
/// and reading stops until the reply is written out, when the next request,
/// perhaps already buffered, is framed. When the framer or the handler
/// refuses a request, the record writes the answer, discards what still
/// arrives for a bounded time, and closes (`ConnectionLife.Stage.refusing`).
/// Confined to its worker's thread.
///
/// The connection's life (its stage, its times, its body's progress) is a
/// value, `ConnectionLife`: the callbacks here feed it events and carry out
/// the actions it returns; the bytes, buffers and charges are the record's.
final class ConnectionRecord {
    let bufferEvent: OpaquePointer
    unowned let table: ConnectionTable
    /// The connection's life: changed on every request, so, like the
    /// framer's, its accesses are not checked for exclusivity at run time.
    @exclusivity(unchecked) var life: ConnectionLife
    var stage: ConnectionLife.Stage { life.stage }
    /// The framer: it is fed on every request, so its accesses are not
    /// checked for exclusivity at run time (each mutating use of a class's
    /// stored property would pay for one). Only this record, on its loop's
    /// thread, touches it.
    @exclusivity(unchecked) var framer: RequestFramer
    /// Our callback on the input buffer, from accept to close: it counts
    /// and frames what arrives (or, for a refusal, discards it).
    private var inputCallback: OpaquePointer?
    /// The rest of a body is being read ahead of libevent
    /// (`readRestOfBody`): the callback leaves those bytes to that reader.
    var isReadingAhead = false
    /// The bytes charged to the server's memory budget for this connection
    /// (`ConnectionBudget.charge`): its own buffers once admitted, plus
    /// `requestChargedBytes`. All given back when the record is released.
    var chargedBytes = 0
    /// The part charged for the request being read or answered: the bytes
    /// it holds as they arrive (its head, its body, what is pipelined behind
    /// it), then its reply; given back once the reply is out.
    var requestChargedBytes = 0
    /// Bytes received for the request being read (and any pipelined behind
    /// it) since the last reply was written: what its buffers hold.
    var requestReceivedBytes = 0
    /// The part of `requestChargedBytes` that is the kernel's, charged
    /// with the reply (`chargeReply`).
    var requestSocketChargedBytes = 0
    /// The part charged for what the kernel's send queue held when the last
    /// reply was written out (`chargeSendQueue`).
    var sendQueueChargedBytes = 0
    /// Sweeps in a row that found its reply pending and not all handed to
    /// the kernel: its client is not reading (`ConnectionTable.makeRoom`).
    var stalledSweeps = 0
    var isBaseCharged = false
    /// The socket's receive low-water mark (`SO_RCVLOWAT`): 1 but while a
    /// body trickles in (`holdBackTrickle`).
    var receiveLowWaterBytes = 1
    /// What the kernel held back of the body when the sweep last asked,
    /// since the last read (`askHeldBackBodyBytes`): a floor of what it holds.
    var knownHeldBackBodyBytes = 0
    /// The sweep found it to close, on a later turn (`ConnectionTable.closeSwept`).
    var awaitsSweptClose = false
    /// What the large body being read, and its reply, were promised
    /// (`ConnectionBudget.promise`); 0 for a small one.
    var promisedBytes = 0
    /// Admitted past the connection limit or the budget, charged nothing
    /// (`ConnectionLife.isOnProbation`).
    var isOnProbation: Bool { life.isOnProbation }
    /// Counted against the connection limit (until released, or until it
    /// gave its slot up to a new connection, `leaveSlot`).
    private(set) var holdsSlot = true
    /// The socket (the bufferevent owns it, and closes it when freed).
    let descriptor: Int32
    /// Where the request's head ends in the input, from its first byte
    /// (the empty lines before its request line included), once framed.
    var headEndOffset = 0
    /// Where a chunked body (trailers included) ends in the input.
    var chunkedBodyEndOffset = 0
    /// The connection ends once the pending reply is written out.
    private(set) var closesAfterReply = false
    /// What `refusalPending` will send.
    var refusal: Refusal?
    private var released = false
    /// Its bufferevent is freed: the record may still be on a list of
    /// work for the loop's next turn, and must not touch it.
    var isReleased: Bool { released }

    /// A refusal's answer, and what to report once it is queued.
    struct Refusal {
        var response: HTTPResponse
        var request: HTTPRequest
        /// nil for a screened request (reported as an answer, not a rejection).
        var rejection: TransportRejection?
    }

    init(bufferEvent: OpaquePointer, table: ConnectionTable, limits: RequestFramer.Limits, screensHeads: Bool) {
        self.bufferEvent = bufferEvent
        descriptor = bufferevent_getfd(bufferEvent)
        self.table = table
        framer = RequestFramer(limits: limits, keepsScreeningValues: screensHeads)
        life = ConnectionLife(acceptedAtNanoseconds: MonotonicClock.nanoseconds())
    }

    /// Puts our callback on the input buffer (once, at accept); false when
    /// out of memory.
    func watchInput() -> Bool {
        guard inputCallback == nil else { return true }
        inputCallback = evbuffer_add_cb(
            bufferevent_get_input(bufferEvent),
            { buffer, info, argument in
                guard let buffer, let info, info.pointee.n_added > 0, let argument else { return }
                // The record removes this callback before it can go: no retain needed.
                Unmanaged<ConnectionRecord>.fromOpaque(argument)._withUnsafeGuaranteedRef {
                    $0.inputDidGrow(buffer, addedByteCount: info.pointee.n_added)
                }
            }, Unmanaged.passUnretained(self).toOpaque())
        return inputCallback != nil
    }

    /// Removing it from within the callback is safe: libevent reads the next
    /// entry before calling this one.
    private func unwatchInput() {
        guard let inputCallback else { return }
        evbuffer_remove_cb_entry(bufferevent_get_input(bufferEvent), inputCallback)
        self.inputCallback = nil
    }

    // MARK: The connection's callbacks

    /// Starts reading: a reply written out and the connection's end (the
    /// client's end of file, an error, a timeout) come back to the record.
    func start() {
        bufferevent_setcb(
            bufferEvent, nil,
            { _, argument in
                guard let argument else { return }
                Unmanaged<ConnectionRecord>.fromOpaque(argument).takeUnretainedValue().outputDrained()
            },
            { _, _, argument in
                guard let argument else { return }
                let record = Unmanaged<ConnectionRecord>.fromOpaque(argument).takeUnretainedValue()
                record.table.close(record)
            }, Unmanaged.passUnretained(self).toOpaque())
        bufferevent_enable(bufferEvent, Int16(EV_READ | EV_WRITE))
    }

    var input: OpaquePointer { bufferevent_get_input(bufferEvent)! }
    var output: OpaquePointer { bufferevent_get_output(bufferEvent)! }

    /// Where the request now whole in the input lies.
    var requestExtent: RequestReader.Extent {
        let head = framer.head
        let bodyEnd = head.isChunked ? chunkedBodyEndOffset : headEndOffset + (head.contentLength ?? 0)
        return RequestReader.Extent(
            headStart: framer.skippedByteCount, headEnd: headEndOffset, bodyEnd: bodyEnd, isChunked: head.isChunked)
    }

    /// The output is empty: a reply (or a `100 Continue`) is written out.
    private func outputDrained() {
        guard life.isReplyPending else { return }
        if closesAfterReply { return table.close(self) }
        noteReplyWritten()
    }

    /// The handler got a complete request: the connection is busy until the
    /// reply has been written out.
    func noteRequestComplete() {
        perform(life.requestComplete())
    }

    /// Called once the reply is queued; `closes`: the connection ends once
    /// it is out. Reading stops until the reply is written out (a client
    /// that sends and never reads would otherwise have every byte kept while
    /// its reply waits: back-pressure to TCP instead). A reply that cannot
    /// be written meets the write timeout, which closes the connection.
    func noteReplyQueued(closes: Bool) {
        closesAfterReply = closes
        perform(life.replyQueued())
    }

    /// Carries out what the connection's life asks for after an event.
    func perform(_ action: ConnectionLife.Action) {
        switch action {
        case .none, .frame, .discard, .close, .finishRefusal:
            // The caller's own: feeding, discarding and closing need its context.
            break
        case .watchInput:
            // Our callback is on from accept to close; reading is on but while a reply is pending.
            break
        case .answer: table.answer(self)
        case .stopReading: bufferevent_disable(bufferEvent, Int16(EV_READ))
        case .framePending:
            let input = self.input
            frame(input, from: 0, count: evbuffer_get_length(input))
        case .scheduleTakeOver: table.scheduleTakeOver(self)
        }
    }

    // MARK: Slow heads

    /// Gives the connection's slot up (it is being refused to make room);
    /// true the first time only: the caller releases the slot.
    func leaveSlot() -> Bool {
        guard holdsSlot else { return false }
        holdsSlot = false
        return true
    }

    /// Since when the connection has been sending the request head it has
    /// not finished (`ConnectionLife.headStartNanoseconds`).
    var headStartNanoseconds: UInt64? { life.headStartNanoseconds(isReadingHead: framer.isReadingHead) }

    /// The head's bytes so far while one is being read (for the sweep's rate).
    var headBytesUnderWay: Int? { framer.isReadingHead ? framer.headBytesReceived : nil }

    /// The reply has been written out; the bytes of a pipelined request
    /// may already be waiting: they are framed, and reading resumes.
    func noteReplyWritten() {
        dischargeRequest()
        chargeSendQueue()
        let pendingByteCount = evbuffer_get_length(input)
        let action = life.replyWritten(pendingBytes: pendingByteCount, idleOrder: table.nextIdleOrder())
        guard action != .none else { return }
        framer.reset()
        headEndOffset = 0
        chunkedBodyEndOffset = 0
        requestReceivedBytes = pendingByteCount
        bufferevent_enable(bufferEvent, Int16(EV_READ))
        perform(action)
    }

    /// Waiting between requests (`ConnectionLife.isIdle`), nothing waiting
    /// in the kernel that libevent has not read yet.
    var isIdle: Bool { life.isIdle(hasUnreadBytes: hasUnreadBytes) }

    /// The kernel holds bytes of this connection libevent has not read.
    var hasUnreadBytes: Bool {
        guard descriptor >= 0 else { return false }
        var unreadByteCount: Int32 = 0
        return ioctl(descriptor, UInt(FIONREAD), &unreadByteCount) == 0 && unreadByteCount > 0
    }

    /// A reply is pending and not all handed to the kernel.
    var isReplyUnsent: Bool {
        guard life.isReplyPending else { return false }
        return evbuffer_get_length(output) > 0
    }

    /// The sweep's look at a pending reply: still in our output, or not.
    func noteSweep() {
        guard isReplyUnsent else {
            stalledSweeps = 0
            if sendQueueChargedBytes > 0 && !life.isReplyPending { chargeSendQueue() }
            return
        }
        stalledSweeps += 1
    }

    /// The bytes the kernel still queues to send (written, not yet
    /// acknowledged by the client).
    var sendQueueBytes: Int {
        guard descriptor >= 0 else { return 0 }
        var queuedByteCount: Int32 = 0
        return ioctl(descriptor, UInt(TIOCOUTQ), &queuedByteCount) == 0 ? Int(queuedByteCount) : 0
    }

    // MARK: Release

    /// Drops our callback and frees the bufferevent (closing the socket);
    /// the record is unusable afterwards. True the first time only.
    @discardableResult
    func release() -> Bool {
        guard !released else { return false }
        released = true
        unwatchInput()
        withdrawPromise()
        table.budget.discharge(chargedBytes)
        table.noteDischarged(chargedBytes)
        chargedBytes = 0
        requestChargedBytes = 0
        bufferevent_free(bufferEvent)
        return true
    }
}
