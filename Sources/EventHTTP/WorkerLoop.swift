import CLibevent
import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

/// One worker's event loop, on the worker's own thread: its `event_base`,
/// `evhttp`, listener, connections and timers from set-up to tear-down.
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
    /// loop iteration: evhttp disables and re-enables a connection's events
    /// around every exchange, and the change list turns the 4 `epoll_ctl`
    /// calls per keep-alive request into 2. libevent documents one condition,
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
        // The listening socket is ours until evhttp's listener takes it.
        var unownedDescriptor: Int32? = listeningDescriptor
        defer { if let unownedDescriptor { close(unownedDescriptor) } }
        // Last of all: whatever the handler still buffers on this thread.
        defer { handler.flushBufferedOutput() }

        guard let base = Self.makeEventBase() else { return worker.didFailToStart(.libeventFailed("event_base_new")) }
        defer { event_base_free(base) }
        // Runs after evhttp_free below has closed every connection.
        defer { connections.releaseAll() }
        guard let http = evhttp_new(base) else { return worker.didFailToStart(.libeventFailed("evhttp_new")) }
        defer { evhttp_free(http) }
        configure(http)

        let events = LoopEvents(base: base)
        defer { events.free() }
        let listener: WorkerListener
        let handler = self.handler
        do {
            let connections = self.connections
            listener = try WorkerListener.bind(listeningDescriptor, to: http, events: events) { errorNumber in
                handler.didFailToAccept(errorNumber: errorNumber)
                // Out of descriptors: the connections idle longest make room.
                connections.closeIdleConnections(count: Self.idleClosedOnAcceptError)
            }
        } catch {
            return worker.didFailToStart(error)
        }
        unownedDescriptor = nil
        defer { listener.detach() }
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

    /// evhttp's limits, the methods it lets through, and our two callbacks.
    private func configure(_ http: OpaquePointer) {
        evhttp_set_max_headers_size(http, configuration.maxHeaderBytes)
        evhttp_set_max_body_size(http, configuration.evhttpBodyLimitBytes)
        // These methods reach the handler, which answers 405 in its own shape.
        // TRACE and CONNECT do not: evhttp never reads their bodies, so a body
        // would be parsed as the next request on a keep-alive connection;
        // evhttp answers them 501 and closes the connection instead.
        evhttp_set_allowed_methods(
            http,
            UInt16(
                truncatingIfNeeded:
                    EVHTTP_REQ_GET.rawValue | EVHTTP_REQ_POST.rawValue | EVHTTP_REQ_HEAD.rawValue
                    | EVHTTP_REQ_PUT.rawValue | EVHTTP_REQ_DELETE.rawValue | EVHTTP_REQ_OPTIONS.rawValue
                    | EVHTTP_REQ_PATCH.rawValue))
        // The handler sets Content-Type itself; evhttp must not add text/html.
        evhttp_set_default_content_type(http, nil)
        // The loop outlives its evhttp, which holds the context unretained.
        let context = Unmanaged.passUnretained(self).toOpaque()
        evhttp_set_gencb(
            http,
            { request, argument in
                guard let request, let argument else { return }
                Unmanaged<WorkerLoop>.fromOpaque(argument).takeUnretainedValue().answer(request)
            }, context)
        evhttp_set_bevcb(
            http,
            { base, argument in
                guard let base, let argument else { return nil }
                return Unmanaged<WorkerLoop>.fromOpaque(argument).takeUnretainedValue().connections
                    .makeBufferEvent(on: base)
            }, context)
    }

    /// evhttp's callback for a complete request: the one place that replies.
    private func answer(_ request: OpaquePointer) {
        let completedAt = MonotonicClock.nanoseconds()
        let record = connections.noteRequestComplete(request)
        let (value, rejection) = requests.read(
            request, maxURIBytes: configuration.maxURIBytes, maxBodyBytes: configuration.maxBodyBytes)
        var response: HTTPResponse
        if let rejection {
            response = handler.reject(value, because: rejection)
        } else if let probation = record?.life.probation, !handler.answersBeyondCapacity(value) {
            // Past capacity only a probe is answered.
            response = handler.reject(value, because: connections.rejection(holding: probation))
        } else {
            response = handler.handle(value)
        }
        // The reply stays in the connection's output until the client reads
        // it: charged to the memory budget (head included, roughly), and
        // refused when the budget cannot take it, but for a probe's.
        if let record, !record.chargeReply(byteCount: response.body.count + Self.replyHeadAllowanceBytes),
            !handler.answersBeyondCapacity(value)
        {
            response = handler.reject(value, because: connections.rejection(holding: .memoryBudget))
        }
        reply.send(
            response, for: request, minorVersion: record?.requestMinorVersion ?? 1,
            closingConnection: connections.isDraining || record?.requestAsksToClose == true
                || record?.isOnProbation == true)
        record?.noteReplyQueued()
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
