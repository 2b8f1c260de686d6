import CLibevent
import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

/// Every client connection of one event loop, from accept to close: gives
/// each its timeouts and its framer, counts it against the server's
/// connection limit and memory budget (short of either, the connection idle
/// longest is closed, then the one sending its head or body slowest makes
/// room; with none, a new connection is on probation, where only a probe is
/// answered), closes slow requests and heads and bodies that arrive too
/// slowly, takes refused connections over and closes them after
/// a lingering close, and at a drain's deadline closes what is left.
/// Confined to its loop's thread.
final class ConnectionTable {
    /// Keyed by the bufferevent's address, unique among open connections
    /// (a closed one's may come back as a newer connection's key, so a
    /// record kept past its close is checked by identity). The sweep and
    /// every search for room read it, so the accesses are not checked for
    /// exclusivity at run time; only this table, on its loop's thread,
    /// touches it.
    @exclusivity(unchecked) private(set) var records: [UInt: ConnectionRecord] = [:]
    let handler: any HTTPHandler
    let configuration: HTTPServerConfiguration
    let budget: ConnectionBudget
    private let limits: RequestFramer.Limits
    private let readTimeoutNanoseconds: UInt64
    private let writeTimeoutNanoseconds: UInt64
    let headGraceNanoseconds: UInt64
    /// What a connection's life is swept against.
    private let lifeLimits: ConnectionLife.Limits
    var idleOrderCount: UInt64 = 0
    /// Connections of this loop on probation now, and at most.
    var probationCount = 0
    /// Refusals for want of room that hold no slot (`refuseOutside`), first refused first.
    var refusedOutside: [ConnectionRecord] = []
    static let maxRefusedOutsideCount = HTTPServerConfiguration.refusalPlacesPerThread
    static let maxProbationCount = HTTPServerConfiguration.probationPlacesPerThread
    /// A refusal for want of a slot or of memory lingers at most this long:
    /// such refusals come in floods, and each holds a descriptor meanwhile.
    private static let busyLingerNanoseconds: UInt64 = 1_000_000_000
    /// Set once by `beginDrain`; replies from then on close their connection.
    private(set) var isDraining = false
    private var dateField = DateField()
    /// `handler.screensRequestHeads`, asked once.
    let screensHeads: Bool

    /// Refusals to take over on the loop's next turn, outside the callback
    /// that decided them.
    private var pendingTakeOvers: [ConnectionRecord] = []
    /// Request and connection bytes given back since memory was last
    /// returned to the kernel, and when a large charge last came.
    private var dischargedSinceGiveBackBytes = 0
    private var lastLargeChargeNanoseconds: UInt64 = 0
    /// Past this much given back, and this long without a large charge,
    /// the allocator returns its unused memory (`FreedMemory`).
    private static let giveBackThresholdBytes = 8 << 20
    private static let giveBackQuietNanoseconds: UInt64 = 1_000_000_000
    private var lastPressureGiveBackNanoseconds: UInt64 = 0
    private static let pressureGiveBackNanoseconds: UInt64 = 100_000_000
    /// A charge at least this large counts as large.
    private static let largeChargeBytes = 256 << 10
    /// A discharge at least this large counts toward the threshold.
    private static let countedDischargeBytes = 64 << 10

    /// Answers a request whole in its connection's input (set by the loop
    /// before it accepts: `WorkerLoop.answer`).
    var answerer: ((ConnectionRecord) -> Void)?
    /// Fires `runDeferredWork` (set by the loop before it accepts).
    var deferredWork: LoopEvent?
    /// Fires `closeSwept` (set by the loop before it accepts).
    var sweptCloseTimer: LoopEvent?
    /// What the sweep found to close and a turn of the loop has not closed
    /// yet (`maxSweptClosesPerTurn`), found first first.
    private var sweptToClose: [ConnectionRecord] = []
    /// At most this many connections are closed by the sweep in one turn of
    /// the loop: uploads begun together reach the read timeout together
    /// (4,000 at once, reconnecting), and closing them all in one turn held
    /// every other client's request for a fifth of a second. The rest are
    /// closed a millisecond later, after what is ready meanwhile.
    static let maxSweptClosesPerTurn = 64
    private static let sweptCloseNanoseconds: UInt64 = 1_000_000

    init(configuration: HTTPServerConfiguration, handler: any HTTPHandler, budget: ConnectionBudget) {
        self.configuration = configuration
        self.handler = handler
        self.budget = budget
        screensHeads = handler.screensRequestHeads
        limits = RequestFramer.Limits(
            maxHeaderBytes: configuration.maxHeaderBytes, maxBodyBytes: configuration.maxBodyBytes)
        readTimeoutNanoseconds = MonotonicClock.nanoseconds(fromSeconds: configuration.readTimeoutSeconds)
        writeTimeoutNanoseconds = MonotonicClock.nanoseconds(fromSeconds: configuration.writeTimeoutSeconds)
        headGraceNanoseconds = MonotonicClock.nanoseconds(fromSeconds: configuration.headGraceSeconds)
        lifeLimits = ConnectionLife.Limits(
            readTimeoutNanoseconds: readTimeoutNanoseconds, graceNanoseconds: headGraceNanoseconds,
            minHeadBytesPerSecond: configuration.minHeadBytesPerSecond,
            minBodyBytesPerSecond: configuration.minBodyBytesPerSecond)
    }

    var isEmpty: Bool { records.isEmpty }

    /// A connection accepted on `socket`: its bufferevent (which owns the
    /// socket from now on, and closes it when freed), its read and write
    /// timeouts and its record, counted against the limits; false when
    /// libevent cannot make it (the socket is closed).
    func accept(_ socket: Int32, on base: OpaquePointer) {
        guard let bufferEvent = bufferevent_socket_new(base, socket, Int32(BEV_OPT_CLOSE_ON_FREE.rawValue)) else {
            Glibc.close(socket)
            return
        }
        var readTimeout = MonotonicClock.timeval(nanoseconds: readTimeoutNanoseconds)
        var writeTimeout = MonotonicClock.timeval(nanoseconds: writeTimeoutNanoseconds)
        bufferevent_set_timeouts(bufferEvent, &readTimeout, &writeTimeout)
        let record = ConnectionRecord(bufferEvent: bufferEvent, table: self, limits: limits, screensHeads: screensHeads)
        guard record.watchInput() else {
            bufferevent_free(bufferEvent)
            return
        }
        records[UInt(bitPattern: bufferEvent)] = record
        record.start()
        if let held = admit(record) { refuseOutside(record, because: held) }
    }

    /// The request of `record` is whole in its input.
    func answer(_ record: ConnectionRecord) {
        answerer?(record)
    }

    // MARK: Memory

    /// A record of this loop charged `bytes` for a request.
    func noteCharged(_ bytes: Int) {
        if bytes >= Self.largeChargeBytes { lastLargeChargeNanoseconds = MonotonicClock.nanoseconds() }
    }

    /// A record of this loop gave `bytes` back. Only large amounts count:
    /// small replies come and go in the allocator's caches.
    func noteDischarged(_ bytes: Int) {
        if bytes >= Self.countedDischargeBytes { dischargedSinceGiveBackBytes &+= bytes }
    }

    /// After large requests or connections are gone and the loop has been
    /// quiet for a moment, the allocator's unused memory goes back.
    private func giveBackFreedMemory(now: UInt64) {
        guard dischargedSinceGiveBackBytes >= Self.giveBackThresholdBytes,
            now &- lastLargeChargeNanoseconds > Self.giveBackQuietNanoseconds
        else { return }
        dischargedSinceGiveBackBytes = 0
        FreedMemory.giveBack()
        budget.memoryGiveBacks.wrappingAdd(1, ordering: .relaxed)
    }

    /// Short of budget, what large requests and closed connections gave back
    /// goes back to the kernel at once, not after a quiet second: the budget
    /// counts it free, and the allocator would otherwise still hold it
    /// (at most every `pressureGiveBackNanoseconds`).
    func giveBackFreedMemoryUnderPressure() {
        let now = MonotonicClock.nanoseconds()
        guard dischargedSinceGiveBackBytes >= Self.countedDischargeBytes,
            now &- lastPressureGiveBackNanoseconds > Self.pressureGiveBackNanoseconds
        else { return }
        lastPressureGiveBackNanoseconds = now
        dischargedSinceGiveBackBytes = 0
        FreedMemory.giveBack()
        budget.memoryGiveBacks.wrappingAdd(1, ordering: .relaxed)
    }

    /// The handler's answer to a head with a body it refuses unread, if any.
    func screen(_ head: RequestHead) -> HTTPResponse? {
        handler.screen(headRequest(head))
    }

    func scheduleTakeOver(_ record: ConnectionRecord) {
        pendingTakeOvers.append(record)
        deferredWork?.activate()
    }

    /// What waited for the loop's next turn: refusals to take over.
    func runDeferredWork() {
        let takeOvers = pendingTakeOvers
        pendingTakeOvers.removeAll()
        for record in takeOvers { takeOver(record) }
    }

    private func takeOver(_ record: ConnectionRecord) {
        // It may have closed meanwhile (its client left): its bufferevent is gone.
        guard !record.isReleased, case .refusalPending = record.stage, let refusal = record.refusal else { return }
        let bytes = dateField.withCurrentValue { date in
            RefusalAnswer.bytes(for: refusal.response, toHEAD: refusal.request.method == "HEAD", date: date)
        }
        var linger = readTimeoutNanoseconds
        switch refusal.rejection {
        case .tooManyConnections, .memoryBudgetSpent: linger = min(linger, Self.busyLingerNanoseconds)
        default: break
        }
        record.beginRefusal(answer: bytes, lingerNanoseconds: linger)
        if let rejection = refusal.rejection {
            handler.didReject(refusal.request, because: rejection, with: refusal.response)
        } else {
            handler.didRespond(to: refusal.request, with: refusal.response, durationNanoseconds: 0)
        }
    }

    /// The lingering close is over (the client closed, went silent, or the
    /// deadline passed): the connection closes.
    func finishRefusal(_ record: ConnectionRecord) {
        record.discardUnread()
        close(record)
    }

    /// Closes the connection and drops its record.
    func close(_ record: ConnectionRecord) {
        drop(record)
    }

    /// Releases the record, then forgets it: its callbacks may be the
    /// caller, holding it unretained, so nothing touches it after that.
    private func drop(_ record: ConnectionRecord) {
        if record.release() {
            if record.holdsSlot { budget.release() }
            if record.isOnProbation { probationCount -= 1 }
        }
        // A freed bufferevent's address may be a newer connection's key.
        let key = UInt(bitPattern: record.bufferEvent)
        if records[key] === record { records[key] = nil }
    }

    // MARK: Timeouts and draining

    /// Drops records of closed connections; closes connections whose request
    /// is arriving too slowly (past the read timeout, or a head under the
    /// minimum rate), lingering closes past their deadline and, while
    /// draining without keeping idle connections, idle ones.
    func sweep() {
        let now = MonotonicClock.nanoseconds()
        defer { giveBackFreedMemory(now: MonotonicClock.nanoseconds()) }
        for record in Array(records.values) {
            switch verdict(on: record, now: now) {
            case .finishRefusal, .close:
                if !record.awaitsSweptClose {
                    record.awaitsSweptClose = true
                    sweptToClose.append(record)
                }
            default: record.noteSweep()
            }
        }
        closeSwept()
    }

    /// What the sweep does with `record` at `now`.
    private func verdict(on record: ConnectionRecord, now: UInt64) -> ConnectionLife.Action {
        record.life.sweep(
            now: now, limits: lifeLimits, headBytes: record.headBytesUnderWay,
            closesIdle: isDraining && !configuration.keepsIdleConnectionsWhileDraining,
            hasUnreadBytes: record.hasUnreadBytes, knownHeldBackBodyBytes: record.knownHeldBackBodyBytes,
            heldBackBodyBytes: record.askHeldBackBodyBytes())
    }

    /// Closes what the sweep found to close, `maxSweptClosesPerTurn` at
    /// most, each judged again (a body may have ended meanwhile); the rest
    /// on a later turn.
    func closeSwept() {
        let now = MonotonicClock.nanoseconds()
        let count = min(sweptToClose.count, Self.maxSweptClosesPerTurn)
        let batch = sweptToClose[..<count]
        for record in batch where records[UInt(bitPattern: record.bufferEvent)] === record {
            record.awaitsSweptClose = false
            switch verdict(on: record, now: now) {
            case .finishRefusal: finishRefusal(record)
            case .close: close(record)
            default: break
            }
        }
        sweptToClose.removeFirst(count)
        if !sweptToClose.isEmpty { sweptCloseTimer?.schedule(afterNanoseconds: Self.sweptCloseNanoseconds) }
    }

    /// From now on replies close their connection.
    func beginDrain() {
        isDraining = true
    }

    /// Closes every connection still open; returns how many had a request
    /// under way (idle ones and lingering refusals are not counted).
    func closeAll() -> Int {
        sweptToClose.removeAll()
        var interruptedCount = 0
        for record in Array(records.values) {
            if record.life.isRefused {
                finishRefusal(record)
                continue
            }
            if !record.isIdle {
                interruptedCount += 1
            }
            close(record)
        }
        return interruptedCount
    }

    /// Closes every connection left when the loop ends.
    func releaseAll() {
        for record in Array(records.values) { drop(record) }
    }
}
