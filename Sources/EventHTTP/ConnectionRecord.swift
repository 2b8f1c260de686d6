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
/// (`Stage.refusing`): it writes the answer, discards what still arrives for
/// a bounded time, and closes. Confined to its worker's thread.
///
/// The connection's life (its stage, its times, its body's progress) is a
/// value, `ConnectionLife`: the callbacks here feed it events and carry out
/// the actions it returns; the bytes, buffers and charges are the record's.
final class ConnectionRecord {
    let bufferEvent: OpaquePointer
    private unowned let table: ConnectionTable
    /// The connection's life: changed on every request, so, like the
    /// framer's, its accesses are not checked for exclusivity at run time.
    @exclusivity(unchecked) private(set) var life: ConnectionLife
    var stage: ConnectionLife.Stage { life.stage }
    /// The framer: it is fed on every request, so its accesses are not
    /// checked for exclusivity at run time (each mutating use of a class's
    /// stored property would pay for one). Only this record, on its loop's
    /// thread, touches it.
    @exclusivity(unchecked) private var framer: RequestFramer
    /// Our callback on the input buffer, present while the framer reads or
    /// a refusal discards: any callback on the buffer makes each of evhttp's
    /// changes to it dearer (it drains every line it parses).
    private var inputCallback: OpaquePointer?
    /// The bytes charged to the server's memory budget for this connection
    /// (`ConnectionBudget.charge`): its own buffers once admitted, plus
    /// `requestChargedBytes`. All given back when the record is released.
    private var chargedBytes = 0
    /// The part charged for the request being read or answered: the bytes
    /// it holds as they arrive (its head, its body, what is pipelined behind
    /// it), then its reply; given back once the reply is out.
    private var requestChargedBytes = 0
    /// Bytes received for the request being read (and any pipelined behind
    /// it) since the last reply was written: what its buffers hold.
    private var requestReceivedBytes = 0
    private var isBaseCharged = false
    /// Admitted past the connection limit or the budget, charged nothing
    /// (`ConnectionLife.isOnProbation`).
    var isOnProbation: Bool { life.isOnProbation }
    /// Counted against the connection limit (until released, or until it
    /// gave its slot up to a new connection, `leaveSlot`).
    private(set) var holdsSlot = true
    /// evhttp's connection, known from the first turn of the loop after accept.
    private(set) var connection: OpaquePointer?
    /// evhttp has freed `connection` (its close callback ran).
    private(set) var evhttpClosed = false
    /// What `refusalPending` will send.
    private(set) var refusal: Refusal?
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
    private func unwatchInput() {
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
    private func perform(_ action: ConnectionLife.Action) {
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

    // MARK: The memory budget

    /// Charges this connection's own buffers; false when the budget cannot
    /// take them (the connection must be refused).
    func chargeBase(_ bytes: Int) -> Bool {
        guard !isBaseCharged else { return true }
        guard charge(bytes) else { return false }
        isBaseCharged = true
        return true
    }

    private func charge(_ bytes: Int) -> Bool {
        guard table.budget.charge(bytes) else { return false }
        chargedBytes += bytes
        table.noteCharged(bytes)
        return true
    }

    /// What one connection's own buffers hold past its base charge before a
    /// request is charged: one libevent read.
    private static var heldInBaseBytes: Int { 4_096 }
    /// Requests are charged in steps of this many bytes (fewer atomic updates).
    private static var chargeStepBytes: Int { 16_384 }

    /// Charges what the request under way holds now, `heldBytes`, past what
    /// is charged already (rounded up to a step); the table makes room when
    /// the budget cannot take it (closing idle connections, then the slowest
    /// upload). False when even then it does not fit.
    private func chargeHeld(_ heldBytes: Int) -> Bool {
        // On probation only a head is read, bounded by the head limit.
        if isOnProbation { return true }
        let unchargedBytes = heldBytes - Self.heldInBaseBytes - requestChargedBytes
        guard unchargedBytes > 0 else { return true }
        let bytes = (unchargedBytes + Self.chargeStepBytes - 1) / Self.chargeStepBytes * Self.chargeStepBytes
        guard chargeRequest(bytes) else { return false }
        return true
    }

    private func chargeRequest(_ bytes: Int) -> Bool {
        if !charge(bytes) {
            table.makeRoom(bytes, for: self)
            guard charge(bytes) else { return false }
        }
        requestChargedBytes += bytes
        return true
    }

    /// What the buffers of the request being read hold: what arrived, and
    /// the framer's copy of a head line that began in an earlier read.
    private var requestHeldBytes: Int {
        requestReceivedBytes + (framer.isReadingHead ? framer.headBytesReceived : 0)
    }

    /// What a body evhttp reads holds once `receivedBytes` of the request
    /// arrived: twice that. libevent reads at most 4 KiB at a time into a
    /// chain of 8 KiB (4 KiB and the chain's header, rounded up to a power
    /// of two), and evhttp moves each chain whole into the request's body,
    /// so a body that arrives read by read holds up to twice its size
    /// (measured: 81 bodies of 0.99 MB took 49 MiB past what was charged
    /// at their size).
    private static func bodyHeldBytes(receivedBytes: Int) -> Int {
        2 * receivedBytes
    }

    /// The handler's reply of about `byteCount` bytes is made: it is charged
    /// (the body it answers stays charged until the reply is out); false
    /// when the budget cannot take it (the reply must not be queued).
    /// Nothing is charged on probation: only a probe's reply is sent there.
    func chargeReply(byteCount: Int) -> Bool {
        if isOnProbation { return true }
        return chargeRequest(byteCount)
    }

    /// What the large body being read, and its reply, were promised
    /// (`ConnectionBudget.promise`); 0 for a small one.
    private var promisedBytes = 0

    /// A body of `bodyBytes` (the body limit if chunked) is about to be
    /// read: a large one must find room for itself and its reply beside what
    /// is charged and promised, or it is refused before a byte of it is read
    /// (so that the large bodies that start can finish, and are not all cut
    /// half-read). Small ones, read with their head, are only charged.
    private func promiseBody(_ bodyBytes: Int) -> Bool {
        guard bodyBytes > Self.eagerBodyReadLimit else { return true }
        let bytes = Self.bodyHeldBytes(receivedBytes: bodyBytes) + 2 * bodyBytes + Self.eagerBodyReadLimit
        let budget = table.budget
        guard table.makeRoom(promising: { budget.promise(bytes) }, for: self) else { return false }
        promisedBytes = bytes
        return true
    }

    private func withdrawPromise() {
        table.budget.withdrawPromise(promisedBytes)
        promisedBytes = 0
    }

    private func dischargeRequest() {
        withdrawPromise()
        guard requestChargedBytes > 0 else { return }
        table.budget.discharge(requestChargedBytes)
        table.noteDischarged(requestChargedBytes)
        chargedBytes -= requestChargedBytes
        requestChargedBytes = 0
    }

    /// Admits the connection past capacity, charging nothing (`isOnProbation`).
    func beginProbation() {
        life.beginProbation()
    }

    /// What the budget holds for this connection now.
    var chargedByteCount: Int { chargedBytes }

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

    // MARK: The framer

    private func inputDidGrow(_ input: OpaquePointer, addedByteCount: Int) {
        guard !evhttpClosed || stage == .refusalPending || stage == .refusing else { return }
        let watchesBody = stage == .evhttpReading && life.bodyStartNanoseconds != nil
        let action = life.bytesArrived(addedByteCount)
        switch action {
        case .frame:
            requestReceivedBytes += addedByteCount
            let length = evbuffer_get_length(input)
            frame(
                input, from: length - addedByteCount, count: addedByteCount,
                readsBodyOn: addedByteCount >= Self.libeventReadLimit)
        case .discard:
            // Nothing a refused client sends is read as a request.
            evbuffer_drain(input, evbuffer_get_length(input))
        default:
            // A body evhttp reads, which did not come whole with its head:
            // charged as it arrives.
            guard watchesBody else { return }
            requestReceivedBytes += addedByteCount
            guard chargeHeld(Self.bodyHeldBytes(receivedBytes: requestReceivedBytes)) else {
                return refuseForWantOfMemory()
            }
            perform(action)
        }
    }

    /// libevent 2.1 reads at most this much from a socket per turn of the
    /// loop (`EVBUFFER_MAX_READ`): a read of this size may have left more
    /// in the kernel.
    private static var libeventReadLimit: Int { 4096 }

    /// At most this much of a body is read ahead of libevent at once.
    private static var eagerBodyReadLimit: Int { 65_536 }

    /// Feeds `count` bytes of `input` from `offset` to the framer, and acts
    /// on what it finds. `readsBodyOn`: the bytes came from a read that may
    /// have left the rest of the request in the kernel.
    private func frame(_ input: OpaquePointer, from offset: Int, count: Int, readsBodyOn: Bool = false) {
        if life.requestStartNanoseconds == nil || life.idleOrder != nil {
            life.framingStarted(now: MonotonicClock.nanoseconds())
        }
        defer { if stage == .framing, !chargeHeld(requestHeldBytes) { refuseForWantOfMemory() } }
        // Usually one chain holds the whole buffer: no position to set.
        var vector = iovec()
        if evbuffer_peek(input, -1, nil, &vector, 1) == 1, vector.iov_len >= offset + count, let base = vector.iov_base
        {
            _ = feed(
                UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self) + offset, count: count),
                at: offset, of: readsBodyOn ? input : nil)
            return
        }
        var position = evbuffer_ptr()
        guard evbuffer_ptr_set(input, &position, offset, EVBUFFER_PTR_SET) == 0 else { return }
        var remaining = count
        while remaining > 0 {
            guard evbuffer_peek(input, remaining, &position, &vector, 1) >= 1, let base = vector.iov_base else {
                return
            }
            let piece = min(remaining, vector.iov_len)
            guard
                feed(
                    UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: piece),
                    at: offset + count - remaining, of: readsBodyOn ? input : nil)
            else { return }
            remaining -= piece
            guard evbuffer_ptr_set(input, &position, piece, EVBUFFER_PTR_ADD) == 0 else { return }
        }
    }

    /// Feeds contiguous bytes, at `offset` in the input; false once the
    /// framer wants no more of this request. With `input`, the rest of a
    /// `Content-Length` body is read at once when the head is complete.
    private func feed(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, of input: OpaquePointer?) -> Bool {
        var fed = 0
        while fed < bytes.count {
            let (taken, verdict) = framer.feed(UnsafeBufferPointer(rebasing: bytes[fed...]))
            fed += taken
            switch verdict {
            case .needMore:
                if taken == 0 { return false }
            case .headComplete(let hasBody, let isChunked):
                if hasBody, table.screensHeads, let screened = table.screen(framer.head) {
                    refuse(
                        Refusal(
                            response: screened, request: table.headRequest(framer.head), rejection: nil))
                    return false
                }
                if hasBody && life.isOnProbation {
                    // No probe has a body: past capacity, it is not read.
                    refuseForWantOfMemory()
                    return false
                }
                if hasBody,
                    !promiseBody(isChunked ? framer.limits.maxBodyBytes : framer.head.contentLength ?? 0)
                {
                    refuseForWantOfMemory()
                    return false
                }
                if isChunked {
                    _ = life.headComplete(
                        hasBody: true, isChunked: true, declaredBodyBytes: nil, bodyBytesBuffered: 0,
                        now: MonotonicClock.nanoseconds())
                    continue
                }
                // No body, or a Content-Length body evhttp reads whole:
                // our callback is off while the rest of it is read at once.
                unwatchInput()
                let skipped = drainSkippedLines()
                let bodyStart = offset + fed - skipped
                if hasBody, let input { requestReceivedBytes += readRestOfBody(input, bodyStart: bodyStart) }
                let buffered = evbuffer_get_length(bufferevent_get_input(bufferEvent)!) - bodyStart
                perform(
                    life.headComplete(
                        hasBody: hasBody, isChunked: false, declaredBodyBytes: framer.head.contentLength,
                        bodyBytesBuffered: buffered, now: hasBody ? MonotonicClock.nanoseconds() : 0))
                if hasBody && !chargeHeld(Self.bodyHeldBytes(receivedBytes: requestReceivedBytes)) {
                    refuseForWantOfMemory()
                }
                return false
            case .bodyComplete:
                perform(life.chunkedBodyComplete())
                drainSkippedLines()
                return false
            case .refused(let rejection):
                let request = table.headRequest(framer.head)
                refuse(
                    Refusal(
                        response: table.handler.reject(request, because: rejection), request: request,
                        rejection: rejection))
                return false
            }
        }
        return true
    }

    /// Drops the empty lines the framer skipped before the request line, so
    /// evhttp reads the request from its first line; how many bytes.
    @discardableResult
    private func drainSkippedLines() -> Int {
        let skipped = framer.skippedByteCount
        if skipped > 0, let input = bufferevent_get_input(bufferEvent) { evbuffer_drain(input, skipped) }
        return skipped
    }

    /// Reads what the kernel holds of the body whose first bytes start at
    /// `bodyStart` in `input`, up to its declared length, ahead of libevent:
    /// libevent reads at most 4 KiB a turn, so a larger request would
    /// otherwise take another turn of the loop, another readiness event and
    /// two more system calls before evhttp sees it whole. Nothing past the
    /// body is read. Our callback is off by now, so the bytes added go to
    /// evhttp only; a failed or empty read leaves everything to libevent,
    /// which sees the same end of file or error on its next read.
    private func readRestOfBody(_ input: OpaquePointer, bodyStart: Int) -> Int {
        guard let declared = framer.head.contentLength else { return 0 }
        let missing = min(declared - (evbuffer_get_length(input) - bodyStart), Self.eagerBodyReadLimit)
        let descriptor = bufferevent_getfd(bufferEvent)
        guard missing > 0, descriptor >= 0 else { return 0 }
        return withUnsafeTemporaryAllocation(of: iovec.self, capacity: 2) { extents -> Int in
            guard let vectors = extents.baseAddress else { return 0 }
            let count = evbuffer_reserve_space(input, missing, vectors, 2)
            guard count > 0 else { return 0 }
            // Reserved space is read into only up to `missing` bytes.
            var room = missing
            for index in 0..<Int(count) {
                vectors[index].iov_len = min(vectors[index].iov_len, room)
                room -= vectors[index].iov_len
            }
            let read = readv(descriptor, vectors, count)
            guard read > 0 else {
                evbuffer_commit_space(input, vectors, 0)
                return 0
            }
            var unfilled = read
            var used: Int32 = 0
            while unfilled > 0 {
                let index = Int(used)
                vectors[index].iov_len = min(vectors[index].iov_len, unfilled)
                unfilled -= vectors[index].iov_len
                used += 1
            }
            evbuffer_commit_space(input, vectors, used)
            return read
        }
    }

    // MARK: Refusing

    /// `503 too-many-connections`: the budget cannot take what this
    /// connection's request holds (or it is on probation and not a probe).
    private func refuseForWantOfMemory() {
        let request = table.headRequest(framer.head)
        let rejection = TransportRejection.tooManyConnections(limit: table.budget.limit)
        refuse(
            Refusal(
                response: table.handler.reject(request, because: rejection), request: request, rejection: rejection))
    }

    /// Decides a refusal: nothing more reaches evhttp (what is buffered is
    /// discarded), and the loop takes the connection over once the current
    /// callback has returned (evhttp may still be on the stack).
    func refuse(_ refusal: Refusal) {
        let action = life.refuse()
        guard action != .none else { return }
        self.refusal = refusal
        watchInput()
        let input = bufferevent_get_input(bufferEvent)!
        evbuffer_drain(input, evbuffer_get_length(input))
        perform(action)
    }

    /// Takes the connection from evhttp: our callbacks on the bufferevent
    /// (evhttp's are never called again), the answer queued, reading on to
    /// discard. evhttp's connection object stays until `finishRefusal`.
    func beginRefusal(answer bytes: [UInt8], lingerNanoseconds: UInt64) {
        life.beginRefusal(now: MonotonicClock.nanoseconds(), lingerNanoseconds: lingerNanoseconds)
        let argument = Unmanaged.passUnretained(self).toOpaque()
        bufferevent_setcb(
            bufferEvent, nil,
            { _, argument in
                // The answer is in the kernel: end our side, keep reading.
                guard let argument else { return }
                Unmanaged<ConnectionRecord>.fromOpaque(argument)._withUnsafeGuaranteedRef { $0.answerWritten() }
            },
            { _, _, argument in
                // End of file, an error or a timeout: the client is done, or gone.
                guard let argument else { return }
                Unmanaged<ConnectionRecord>.fromOpaque(argument)._withUnsafeGuaranteedRef {
                    $0.table.finishRefusal($0)
                }
            }, argument)
        _ = bytes.withUnsafeBytes { bufferevent_write(bufferEvent, $0.baseAddress, $0.count) }
        bufferevent_enable(bufferEvent, Int16(EV_READ | EV_WRITE))
    }

    private func answerWritten() {
        bufferevent_disable(bufferEvent, Int16(EV_WRITE))
        let descriptor = bufferevent_getfd(bufferEvent)
        if descriptor >= 0 { shutdown(descriptor, Int32(SHUT_WR)) }
    }

    /// Reads and drops what the kernel still holds, so closing does not
    /// answer those bytes with a reset that could destroy the answer.
    func discardUnread() {
        let descriptor = bufferevent_getfd(bufferEvent)
        guard descriptor >= 0 else { return }
        withUnsafeTemporaryAllocation(byteCount: 16_384, alignment: 8) { scratch in
            for _ in 0..<16 where recv(descriptor, scratch.baseAddress, scratch.count, Int32(MSG_DONTWAIT)) > 0 {}
        }
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
