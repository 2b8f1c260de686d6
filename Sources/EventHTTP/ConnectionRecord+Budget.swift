/// The connection's part of the server's memory budget (`ConnectionBudget`):
/// its own buffers, charged once it is admitted; the request under way,
/// charged in steps as its bytes arrive, and its reply once made, with the
/// kernel's socket buffers while it is pending; the room a large body and
/// its reply are promised before a byte of the body is read; all given back
/// once the reply is out, but what the kernel's send queue still holds then,
/// charged as measured until it is empty. Nothing is charged on probation.
extension ConnectionRecord {
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
    func chargeHeld(_ heldBytes: Int) -> Bool {
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
    /// the framer's copy of a head line that began in an earlier read; once
    /// the head is read, what a body holds (`bodyHeldBytes`), chunked or not.
    var requestHeldBytes: Int {
        if framer.isReadingHead { return requestReceivedBytes + framer.headBytesReceived }
        return Self.bodyHeldBytes(receivedBytes: requestReceivedBytes)
    }

    /// What a body holds once `receivedBytes` of the request arrived: twice
    /// that. libevent reads at most 4 KiB at a time into chains of 8 KiB
    /// (4 KiB and the chain's header, rounded up to a power of two), and the
    /// next read fills what is left of the last chain, so the input holds
    /// at most twice what arrived, however it was cut; the request's value
    /// is a copy made only once the body is whole.
    static func bodyHeldBytes(receivedBytes: Int) -> Int {
        2 * receivedBytes
    }

    /// The handler's reply of about `byteCount` bytes is made: it is charged
    /// (the body it answers stays charged until the reply is out), with what
    /// the kernel may hold while it is pending: its receive buffer (reading
    /// stops, so it may fill), and in its send buffer what this reply adds
    /// to what its queue is charged already (`sendQueueHeldBytes` of the
    /// reply, within the buffer). False when the budget cannot take it (the
    /// reply must not be queued). Nothing is charged on probation: only a
    /// probe's reply is sent there.
    func chargeReply(byteCount: Int) -> Bool {
        if isOnProbation { return true }
        let sendBytes = min(
            Self.sendQueueHeldBytes(queuedBytes: byteCount),
            HTTPServerConfiguration.socketSendHeldBytes - sendQueueChargedBytes)
        let socketBytes = HTTPServerConfiguration.socketReceiveHeldBytes + max(0, sendBytes)
        guard chargeRequest(byteCount + socketBytes) else { return false }
        requestSocketChargedBytes = socketBytes
        return true
    }

    /// Charges what the kernel's send queue holds now, as measured
    /// (`sendQueueHeldBytes`), in place of what it was charged: called once
    /// a reply is written out (a client that does not read leaves it in the
    /// kernel, up to the send buffer), and by the sweep until it is empty.
    func chargeSendQueue() {
        let change = Self.sendQueueHeldBytes(queuedBytes: sendQueueBytes) - sendQueueChargedBytes
        guard change != 0 else { return }
        if change > 0 {
            table.budget.chargeHeld(change)
        } else {
            table.budget.discharge(-change)
        }
        chargedBytes += change
        sendQueueChargedBytes += change
    }

    /// What the kernel holds for `queuedBytes` queued to send: twice them
    /// (each segment's buffer and bookkeeping) and 4 KiB, at most the send
    /// buffer as Linux doubles it; nothing when nothing is queued.
    static func sendQueueHeldBytes(queuedBytes: Int) -> Int {
        guard queuedBytes > 0 else { return 0 }
        return min(2 * queuedBytes + 4_096, HTTPServerConfiguration.socketSendHeldBytes)
    }

    /// A body of `bodyBytes` (the body limit if chunked) is about to be
    /// read: a large one must find room for itself and its reply (what the
    /// kernel may hold while it is pending included) beside what
    /// is charged and promised, or it is refused before a byte of it is read
    /// (so that the large bodies that start can finish, and are not all cut
    /// half-read). Small ones, read with their head, are only charged.
    func promiseBody(_ bodyBytes: Int) -> Bool {
        guard bodyBytes > Self.eagerBodyReadLimit else { return true }
        let bytes =
            Self.bodyHeldBytes(receivedBytes: bodyBytes) + 2 * bodyBytes + Self.eagerBodyReadLimit
            + HTTPServerConfiguration.socketHeldBytes
        let budget = table.budget
        guard table.makeRoom(promising: { budget.promise(bytes) }, for: self) else { return false }
        promisedBytes = bytes
        return true
    }

    func withdrawPromise() {
        table.budget.withdrawPromise(promisedBytes)
        promisedBytes = 0
    }

    func dischargeRequest() {
        withdrawPromise()
        guard requestChargedBytes > 0 else { return }
        table.budget.discharge(requestChargedBytes)
        // The kernel's part was never the allocator's: it does not count
        // toward giving memory back.
        table.noteDischarged(requestChargedBytes - requestSocketChargedBytes)
        chargedBytes -= requestChargedBytes
        requestChargedBytes = 0
        requestSocketChargedBytes = 0
    }

    /// Admits the connection past capacity, charging nothing
    /// (`isOnProbation`); `held` names the limit that kept it out.
    func beginProbation(because held: ConnectionLife.HeldLimit) {
        life.beginProbation(because: held)
    }

    /// What the budget holds for this connection now.
    var chargedByteCount: Int { chargedBytes }
}
