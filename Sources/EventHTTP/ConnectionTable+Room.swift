import HTTPCore

/// Making room when a slot or the memory budget is short
/// (docs/adr/0042-room-reclaimed-from-the-slowest.md): who gives way, in
/// order, is the connection idle longest, then the slowest upload (by its
/// rate, the older first among equals), then the reader stalled longest (a
/// reply its client has not read); each is closed without an answer, which
/// frees its buffers at once. Probation places go the same way: a new
/// connection takes the place of the oldest one on probation.
extension ConnectionTable {
    /// Counts `record` against the connection limit and charges its own
    /// buffers to the memory budget. Short of a slot, the connection of this
    /// loop idle longest is closed (a keep-alive connection may be closed
    /// between requests), else the one that has been sending its request
    /// head longest gives up its slot and is answered 503 (a slow client
    /// holds a slot no longer than the next client's arrival). Short of
    /// budget, room is made as for a request's bytes (`makeRoom`), else the
    /// head sent longest is refused. With neither, the new connection is on
    /// probation (`ConnectionRecord.isOnProbation`), so a probe still gets
    /// its answer; a full probation gives up its oldest place. nil when
    /// admitted or on probation; else the refusal naming the limit held.
    func admit(_ record: ConnectionRecord) -> TransportRejection? {
        let baseBytes = configuration.connectionBaseBytes
        var counted = budget.admit()
        if counted && record.chargeBase(baseBytes) { return nil }
        if counted {
            makeRoom(baseBytes, for: record)
            if record.chargeBase(baseBytes) { return nil }
        }
        if let idle = oldestIdle(excluding: record) {
            close(idle)
        } else if let slowest = slowestHead(excluding: record) {
            evict(slowest, because: rejection(holding: counted ? .memoryBudget : .connections))
        }
        counted = counted || budget.count <= budget.limit
        if counted && record.chargeBase(baseBytes) { return nil }
        let held: ConnectionLife.HeldLimit = counted ? .memoryBudget : .connections
        // On probation: it holds no slot and is charged nothing.
        if record.leaveSlot() { budget.release() }
        guard probationCount < Self.maxProbationCount || reclaimProbationPlace(excluding: record) else {
            return rejection(holding: held)
        }
        probationCount += 1
        record.beginProbation(because: held)
        return nil
    }

    /// Frees what `bytes` need past what the budget can still take, for
    /// `requester`: closes
    /// this loop's idle connections, idle longest first, then the slow
    /// uploads (`slowUploadBytesPerSecond`), slowest first, then the readers
    /// stalled longest (`stalledReader`; not for a large body, which had its
    /// promise), until as much was given back.
    /// Closing frees the connection's buffers at once, so what the budget
    /// gets back is memory really given back (a refusal's answer and
    /// lingering close would keep a body in its buffers meanwhile). The slowest upload
    /// is closed without an answer, as its rate's deadline would close it.
    func makeRoom(_ bytes: Int, for requester: ConnectionRecord) {
        giveBackFreedMemoryUnderPressure()
        var freedBytes = min(bytes, budget.availableByteCount)
        while freedBytes < bytes, let idle = oldestIdle(excluding: requester) {
            freedBytes += idle.chargedByteCount
            close(idle)
        }
        // A large body was promised its room: what it lacks beyond that is
        // not taken from a reply already made.
        let takesStalled = requester.promisedBytes == 0
        while freedBytes < bytes,
            let slowest = slowestUpload(excluding: requester)
                ?? (takesStalled ? stalledReader(excluding: requester) : nil)
        {
            freedBytes += slowest.chargedByteCount
            close(slowest)
        }
    }

    /// Closes slow uploads, slowest first, until `promise` succeeds; false
    /// when none is left and it still does not. A stuck reader is not
    /// closed for a large body that has not started: its reply is made, and
    /// the large body can be refused before a byte of it is read.
    func makeRoom(promising promise: () -> Bool, for requester: ConnectionRecord) -> Bool {
        while !promise() {
            guard let slowest = slowestUpload(excluding: requester) else { return false }
            close(slowest)
        }
        return true
    }

    /// The place of a connection that goes idle now among this loop's idle
    /// connections (`ConnectionLife.idleOrder`): replies counted.
    func nextIdleOrder() -> UInt64 {
        idleOrderCount &+= 1
        return idleOrderCount
    }

    /// Closes up to `count` of this loop's idle connections, idle longest
    /// first (the descriptor limit was met).
    func closeIdleConnections(count: Int) {
        for _ in 0..<count {
            guard let idle = oldestIdle(excluding: nil) else { return }
            close(idle)
        }
    }

    /// Refuses `record` to make room: its slot goes at once, its charges
    /// when it closes (after its answer and a short lingering close).
    private func evict(_ record: ConnectionRecord, because held: TransportRejection) {
        if record.leaveSlot() { budget.release() }
        refuseOutside(record, because: held)
    }

    /// Refuses `record`, which holds no slot and is not on probation, for
    /// want of room; past `refusalPlacesPerThread` such refusals, the one
    /// refused first whose answer is under way closes at once,
    /// so what holds a descriptor beside the limit stays bounded.
    func refuseOutside(_ record: ConnectionRecord, because held: TransportRejection) {
        refusedOutside.removeAll { records[UInt(bitPattern: $0.bufferEvent)] !== $0 }
        // Only one taken over already: one still pending is the loop's next turn's.
        if refusedOutside.count >= Self.maxRefusedOutsideCount,
            let first = refusedOutside.firstIndex(where: { if case .refusing = $0.stage { true } else { false } })
        {
            finishRefusal(refusedOutside.remove(at: first))
        }
        refusedOutside.append(record)
        refuseForWantOfRoom(record, because: held)
    }

    /// Closes a connection on probation that holds its place for nothing:
    /// one refused and lingering, else the oldest whose head has taken over
    /// `probationHeadNanoseconds` (a probe's head comes at once). Clients
    /// that never finish cannot hold the places a probe needs. False when
    /// none can go.
    private func reclaimProbationPlace(excluding excluded: ConnectionRecord) -> Bool {
        let now = MonotonicClock.nanoseconds()
        var oldest: ConnectionRecord?
        for record in records.values where record !== excluded && record.isOnProbation {
            if record.life.isRefused {
                oldest = record
                break
            }
            guard record.life.isFraming,
                now &- record.life.acceptedAtNanoseconds > Self.probationHeadNanoseconds
            else { continue }
            if oldest.map({ record.life.acceptedAtNanoseconds < $0.life.acceptedAtNanoseconds }) ?? true {
                oldest = record
            }
        }
        guard let oldest else { return false }
        if oldest.life.isRefused {
            finishRefusal(oldest)
        } else {
            close(oldest)
        }
        return probationCount < Self.maxProbationCount
    }

    /// How long a head on probation may take before a new connection may
    /// take its place.
    static var probationHeadNanoseconds: UInt64 { 500_000_000 }

    /// The connection that has waited longest for its next request.
    private func oldestIdle(excluding excluded: ConnectionRecord?) -> ConnectionRecord? {
        var oldest: ConnectionRecord?
        var oldestSince = UInt64.max
        for record in records.values where record !== excluded {
            guard let since = record.life.idleOrder, since < oldestSince, record.isIdle
            else { continue }
            oldest = record
            oldestSince = since
        }
        return oldest
    }

    /// The body under way that has arrived slowest on average, if slower
    /// than `slowUploadBytesPerSecond` once the grace has passed (a body
    /// just begun has no rate yet); of rates within 5% of each other, the
    /// one begun first.
    private func slowestUpload(excluding excluded: ConnectionRecord) -> ConnectionRecord? {
        let now = MonotonicClock.nanoseconds()
        var slowest: ConnectionRecord?
        var slowestRate = Double(configuration.slowUploadBytesPerSecond)
        var slowestStart = UInt64.max
        for record in records.values where record !== excluded {
            guard
                let rate = record.life.bodyBytesPerSecond(
                    now: now, graceNanoseconds: headGraceNanoseconds,
                    heldBackBytes: record.heldBackBodyByteEstimate),
                let start = record.life.bodyStartNanoseconds
            else { continue }
            let isSlower = slowest == nil ? rate < slowestRate : rate < slowestRate * 0.95
            let isAsSlowButOlder = slowest != nil && rate < slowestRate * 1.05 && start < slowestStart
            guard isSlower || isAsSlowButOlder else { continue }
            slowest = record
            slowestRate = rate
            slowestStart = start
        }
        return slowest
    }

    /// The connection whose reply has been stuck longest in its output
    /// (its client reads nothing), counted in sweeps (`stalledSweeps`): two
    /// at least (a quarter of a second or more), so a reply merely not
    /// written yet is never taken, and it is there still.
    private func stalledReader(excluding excluded: ConnectionRecord) -> ConnectionRecord? {
        var stalled: ConnectionRecord?
        var stalledSweeps = 1
        for record in records.values where record !== excluded && record.stalledSweeps > stalledSweeps {
            guard record.isReplyUnsent else { continue }
            stalled = record
            stalledSweeps = record.stalledSweeps
        }
        return stalled
    }

    /// The connection whose unfinished head began first (a new connection's
    /// at its accept).
    private func slowestHead(excluding excluded: ConnectionRecord) -> ConnectionRecord? {
        var slowest: ConnectionRecord?
        var slowestStart = UInt64.max
        for record in records.values where record !== excluded {
            guard let start = record.headStartNanoseconds, start < slowestStart else { continue }
            slowest = record
            slowestStart = start
        }
        return slowest
    }
}
