import CLibevent
import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

/// One worker's event loop, on the worker's own thread: its `event_base`,
/// listener, connections and timers from set-up to tear-down, and the one
/// place that answers a request (`answer`).
/// libevent calls back on the thread that runs the base, so everything here
/// is confined to that thread; the control thread reaches it only through
/// the worker's wakeup events.
final class WorkerLoop {
    private let worker: EventLoopWorker
    private let handler: any HTTPHandler
    private let configuration: HTTPServerConfiguration
    private let connections: ConnectionTable
    /// The request reader and the reply writer: both are used on every
    /// request, so their accesses are not checked for exclusivity at run
    /// time (each mutating use of a class's stored property would pay for
    /// one). Only this loop, on its thread, touches them, one use at a time.
    @exclusivity(unchecked) private var requests = RequestReader()
    @exclusivity(unchecked) private var reply = ReplyWriter()

    // Present while the loop runs.
    private var base: OpaquePointer?
    private var listener: WorkerListener?
    private var sweepTimer: LoopEvent?
    private var deadlineTimer: LoopEvent?
    private var flushEvent: LoopEvent?
    /// The flush event is active: it runs after the callbacks of this iteration.
    private var flushPending = false

    /// How often connections are checked for slow requests (and, while
    /// draining, for having gone idle or closed).
    private static let sweepIntervalNanoseconds: UInt64 = 250_000_000
    private static let drainSweepIntervalNanoseconds: UInt64 = 20_000_000
    /// The handler's buffered output waits at most this long (lines written
    /// outside `answer`, such as refusals, wait for this timer).
    private static let flushIntervalNanoseconds: UInt64 = 50_000_000
    /// Idle connections closed each time accept() fails for want of descriptors.
    private static let idleClosedOnAcceptError = 16
    /// What a reply's head is counted as in the memory budget.
    private static let replyHeadAllowanceBytes = 1_024

    init(worker: EventLoopWorker) {
        self.worker = worker
        self.handler = worker.handler
        self.configuration = worker.configuration
        connections = ConnectionTable(
            configuration: worker.configuration, handler: worker.handler, budget: worker.budget)
    }

    /// An event base whose epoll backend batches the changes made during one
    /// loop iteration: reading stops while a reply is pending and resumes
    /// once it is out, and the change list folds the `epoll_ctl` calls of
    /// one turn together. libevent documents one condition,
    /// which holds here: no descriptor given to the base is a `dup` of another
    /// (each worker has its own listening socket, and accepted sockets are new).
    static func makeEventBase() -> OpaquePointer? {
        guard let config = event_config_new() else { return nil }
        defer { event_config_free(config) }
        event_config_set_flag(config, Int32(EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST.rawValue))
        return event_base_new_with_config(config)
    }

    /// Sets the loop up on `listeningDescriptor` (closed on every path),
    /// tells the worker it started or why not, serves until drained or
    /// closed, and frees everything.
    func run(listeningDescriptor: Int32) {
        // The listening socket is ours until the listener takes it.
        var unownedDescriptor: Int32? = listeningDescriptor
        defer { if let unownedDescriptor { close(unownedDescriptor) } }
        // Last of all: whatever the handler still buffers on this thread.
        defer { handler.flushBufferedOutput() }

        guard let base = Self.makeEventBase() else { return worker.didFailToStart(.libeventFailed("event_base_new")) }
        defer { event_base_free(base) }
        // Runs before the base is freed: every connection closes.
        defer { connections.releaseAll() }

        let events = LoopEvents(base: base)
        defer { events.free() }
        let listener: WorkerListener
        let handler = self.handler
        do {
            let connections = self.connections
            listener = try WorkerListener.listen(
                on: listeningDescriptor, base: base, events: events,
                onAccept: { socket in connections.accept(socket, on: base) },
                onAcceptError: { errorNumber in
                    handler.didFailToAccept(errorNumber: errorNumber)
                    // Out of descriptors: the connections idle longest make room.
                    connections.closeIdleConnections(count: Self.idleClosedOnAcceptError)
                })
        } catch {
            return worker.didFailToStart(error)
        }
        unownedDescriptor = nil
        defer { listener.close() }
        connections.answerer = { [unowned self] record in self.answer(record) }
        defer { connections.answerer = nil }
        guard let sweepTimer = events.make(.repeatingTimer, { [unowned self] in self.sweep() }),
            let deadlineTimer = events.make(.timer, { [unowned self] in self.forceClose() }),
            let drainEvent = events.make(.user, { [unowned self] in self.beginDrain() }),
            let forceCloseEvent = events.make(.user, { [unowned self] in self.forceClose() }),
            let deferredWork = events.make(.user, { [unowned self] in self.connections.runDeferredWork() }),
            let flushEvent = events.make(.user, { [unowned self] in self.flushBufferedOutput() }),
            let flushTimer = events.make(.repeatingTimer, { [handler] in handler.flushBufferedOutput() }),
            let sweptCloseTimer = events.make(.timer, { [unowned self] in self.connections.closeSwept() })
        else { return worker.didFailToStart(.libeventFailed("event_new(worker)")) }
        connections.deferredWork = deferredWork
        connections.sweptCloseTimer = sweptCloseTimer
        // Before the events are freed: nothing may reach them afterwards.
        defer {
            connections.deferredWork = nil
            connections.sweptCloseTimer = nil
        }

        self.base = base
        self.listener = listener
        self.sweepTimer = sweepTimer
        self.deadlineTimer = deadlineTimer
        self.flushEvent = flushEvent
        sweepTimer.schedule(afterNanoseconds: Self.sweepIntervalNanoseconds)
        flushTimer.schedule(afterNanoseconds: Self.flushIntervalNanoseconds)

        worker.didStart(wakeups: EventLoopWorker.Wakeups(drain: drainEvent.remote, forceClose: forceCloseEvent.remote))
        if event_base_loop(base, EVLOOP_NO_EXIT_ON_EMPTY) < 0 {
            DiagnosticLog.write(
                "{\"event\":\"worker-error\",\"worker\":\(worker.index),\"detail\":\"event_base_loop failed\"}",
                to: DiagnosticLog.standardOutput)
        }
        // From here on the control thread can no longer wake this loop.
        worker.didStop()
        self.base = nil
        self.listener = nil
        self.sweepTimer = nil
        self.deadlineTimer = nil
        self.flushEvent = nil
    }

    /// The request of `record` is whole in its input: the one place that
    /// replies. The reply is written into the connection's output; the
    /// request's bytes leave the input (a pipelined one stays behind).
    private func answer(_ record: ConnectionRecord) {
        let completedAt = MonotonicClock.nanoseconds()
        record.noteRequestComplete()
        let input = record.input
        let extent = record.requestExtent
        let head = record.framer.head
        let (value, rejection) = requests.read(
            input, at: extent, method: head.methodName, maxURIBytes: configuration.maxURIBytes)
        evbuffer_drain(input, extent.bodyEnd)
        var response: HTTPResponse
        if let rejection {
            response = handler.reject(value, because: rejection)
        } else if let probation = record.life.probation, !handler.answersBeyondCapacity(value) {
            // Past capacity only a probe is answered.
            response = handler.reject(value, because: connections.rejection(holding: probation))
        } else {
            response = handler.handle(value)
        }
        // The reply stays in the connection's output until the client reads
        // it: charged to the memory budget (head included, roughly), and
        // refused when the budget cannot take it, but for a probe's.
        if !record.chargeReply(byteCount: response.body.count + Self.replyHeadAllowanceBytes),
            !handler.answersBeyondCapacity(value)
        {
            response = handler.reject(value, because: connections.rejection(holding: .memoryBudget))
        }
        let closes = reply.write(
            response, to: record.output,
            exchange: ReplyWriter.Exchange(
                isHEAD: head.method == .head, minorVersion: head.minorVersion,
                asksToKeepAlive: head.asksToKeepAlive,
                closes: connections.isDraining || head.asksToClose || record.isOnProbation))
        record.noteReplyQueued(closes: closes)
        handler.didRespond(to: value, with: response, durationNanoseconds: MonotonicClock.nanoseconds() &- completedAt)
        requests.recycle(value)
        if !flushPending, let flushEvent {
            // Activated now, it runs after the other callbacks libevent has
            // queued in this iteration: one flush for all their requests.
            flushPending = true
            flushEvent.activate()
        }
    }

    private func flushBufferedOutput() {
        flushPending = false
        handler.flushBufferedOutput()
    }

    /// A draining loop ends once it has no connection left and its listener
    /// is closed: until then the kernel may still hold connections made before
    /// the drain, which ending the loop would reset.
    private func sweep() {
        connections.sweep()
        if connections.isDraining && connections.isEmpty && listener?.isClosed != false, let base {
            event_base_loopexit(base, nil)
        }
    }

    /// Stop accepting, let requests in flight finish (replies from now on
    /// close their connection); idle connections stay open for a last request
    /// until the worker's drain deadline, when `forceClose` closes the rest.
    private func beginDrain() {
        guard !connections.isDraining, let sweepTimer, let deadlineTimer else { return }
        connections.beginDrain()
        listener?.closeOnceQueueIsEmpty()
        let now = MonotonicClock.nanoseconds()
        let deadline = worker.drainDeadlineNanoseconds.load(ordering: .acquiring)
        deadlineTimer.schedule(afterNanoseconds: deadline > now ? deadline - now : 0)
        sweepTimer.schedule(afterNanoseconds: Self.drainSweepIntervalNanoseconds)
        sweep()
    }

    private func forceClose() {
        worker.forcedCloseCount.add(connections.closeAll(), ordering: .relaxed)
        if let base { event_base_loopexit(base, nil) }
    }
}
