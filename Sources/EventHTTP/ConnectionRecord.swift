import CLibevent
import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

/// What one worker knows about one client connection, from accept to close.
///
/// evhttp 2.1 exposes no hook when it creates a server connection, but it
/// lets us create each connection's bufferevent (`evhttp_set_bevcb`). The
/// record holds a reference on that bufferevent, so the pointer stays valid
/// after evhttp frees the connection, and a callback on its input buffer that
/// feeds every byte of a request's head (and of a chunked body) to a
/// `RequestFramer` before evhttp reads it. When the framer or the handler
/// refuses a request, the record takes the connection over from evhttp
/// (`ConnectionLife.Stage.refusing`): it writes the answer, discards what still arrives for
/// a bounded time, and closes. Confined to its worker's thread.
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
    /// Our callback on the input buffer, present while the framer reads or
    /// a refusal discards: any callback on the buffer makes each of evhttp's
    /// changes to it dearer (it drains every line it parses).
    private var inputCallback: OpaquePointer?
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
    /// evhttp's connection, known from the first turn of the loop after accept.
    private(set) var connection: OpaquePointer?
    /// The socket, known from then too (asked once: the bufferevent, which
    /// our reference keeps, owns it until it is freed).
    private(set) var descriptor: Int32 = -1
    /// evhttp has freed `connection` (its close callback ran).
    private(set) var evhttpClosed = false
    /// What `refusalPending` will send.
    var refusal: Refusal?
    private var released = false

    /// A refusal's answer, and what to report once it is queued.
    struct Refusal {
        var response: HTTPResponse
        var request: HTTPRequest
        /// nil for a screened request (reported as an answer, not a rejection).
        var rejection: TransportRejection?
    }

    init(bufferEvent: OpaquePointer, table: ConnectionTable, limits: RequestFramer.Limits, screensHeads: Bool) {
        self.bufferEvent = bufferEvent
        self.table = table
        framer = RequestFramer(limits: limits, keepsScreeningValues: screensHeads)
        life = ConnectionLife(acceptedAtNanoseconds: MonotonicClock.nanoseconds())
    }

    /// Puts our callback on the input buffer; false when out of memory.
    @discardableResult
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
    func unwatchInput() {
        guard let inputCallback else { return }
        evbuffer_remove_cb_entry(bufferevent_get_input(bufferEvent), inputCallback)
        self.inputCallback = nil
    }

    // MARK: evhttp's side

    /// evhttp has set the connection up (the loop's first turn after accept).
    /// Returns false when evhttp has already dropped it.
    func adopt() -> Bool {
        var eventCallback: bufferevent_event_cb?
        var argument: UnsafeMutableRawPointer?
        bufferevent_getcb(bufferEvent, nil, nil, &eventCallback, &argument)
        guard eventCallback != nil, let argument else { return false }
        let connection = OpaquePointer(argument)
        self.connection = connection
        descriptor = bufferevent_getfd(bufferEvent)
        evhttp_connection_set_closecb(
            connection,
            { _, argument in
                guard let argument else { return }
                Unmanaged<ConnectionRecord>.fromOpaque(argument)._withUnsafeGuaranteedRef { $0.evhttpDidClose() }
            }, Unmanaged.passUnretained(self).toOpaque())
        return true
    }

    private func evhttpDidClose() {
        evhttpClosed = true
        table.noteClosed(self)
    }

    /// The handler got a complete request: the connection is busy until the
    /// reply has been written out.
    func noteRequestComplete() {
        perform(life.requestComplete())
    }

    /// The HTTP/1.x minor version of the request being answered (the framer
    /// keeps its head until the reply is written).
    var requestMinorVersion: Int { framer.head.minorVersion }
    /// The request's `Connection` field lists `close` (evhttp closes after
    /// the reply only when the value is exactly `close`).
    var requestAsksToClose: Bool { framer.head.asksToClose }

    /// Called once the reply is queued. evhttp reads on while a reply is
    /// written (only to notice a close early) with no callback to take what
    /// arrives: a client that sends and never reads would have every byte
    /// kept while its reply waits. So reading stops until the reply is
    /// written out (back-pressure to TCP); evhttp enables it again to read
    /// the next request. A reply that cannot be written meets the write
    /// timeout, which closes the connection.
    func noteReplyQueued() {
        perform(life.replyQueued())
    }

    /// Carries out what the connection's life asks for after an event.
    func perform(_ action: ConnectionLife.Action) {
        switch action {
        case .none, .frame, .discard, .close, .finishRefusal:
            // The caller's own: feeding, discarding and closing need its context.
            break
        case .watchInput: watchInput()
        case .unwatchInput: unwatchInput()
        case .stopReading: bufferevent_disable(bufferEvent, Int16(EV_READ))
        case .framePending:
            watchInput()
            let input = bufferevent_get_input(bufferEvent)!
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

    /// The reply has been written out (called inside evhttp's completion
    /// callback, before evhttp reads on); the bytes of a pipelined request
    /// may already be waiting.
    func noteReplyWritten() {
        dischargeRequest()
        chargeSendQueue()
        let pendingByteCount = evbuffer_get_length(bufferevent_get_input(bufferEvent)!)
        let action = life.replyWritten(pendingBytes: pendingByteCount, idleOrder: table.nextIdleOrder())
        guard action != .none else { return }
        framer.reset()
        requestReceivedBytes = pendingByteCount
        perform(action)
    }

    /// Waiting between requests (`ConnectionLife.isIdle`), nothing waiting
    /// in the kernel that libevent has not read yet.
    var isIdle: Bool { life.isIdle(hasUnreadBytes: hasUnreadBytes) }

    /// The kernel holds bytes of this connection libevent has not read.
    var hasUnreadBytes: Bool {
        let descriptor = bufferevent_getfd(bufferEvent)
        guard descriptor >= 0 else { return false }
        var unreadByteCount: Int32 = 0
        return ioctl(descriptor, UInt(FIONREAD), &unreadByteCount) == 0 && unreadByteCount > 0
    }

    /// A reply is pending and not all handed to the kernel.
    var isReplyUnsent: Bool {
        guard life.isReplyPending, let output = bufferevent_get_output(bufferEvent) else { return false }
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

    /// Drops our callback and our reference; the record is unusable
    /// afterwards. True the first time only.
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
        bufferevent_decref(bufferEvent)
        return true
    }
}
