import CLibevent
import HTTPCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on libevent's event loop: one loop per thread, each
/// with its own SO_REUSEPORT listening socket on the same address, all
/// answering through one thread-safe `HTTPHandler`.
///
/// Life cycle (`ServerState`): `starting` while sockets and loops are set up,
/// `running` once every loop accepts, `draining` after SIGTERM/SIGINT or
/// `shutdown()` (`/readyz` can say 503; after a signal the server first
/// serves on for `shutdownDelaySeconds`; then listeners close, requests in
/// flight finish, each request on a keep-alive connection is answered with
/// `Connection: close`), `stopped` when every loop has ended — at the latest
/// `drainSeconds` after the drain began.
public final class HTTPServer: Sendable {
    public let configuration: HTTPServerConfiguration
    private let handler: any HTTPHandler
    private let stateDidChange: @Sendable (ServerState) -> Void
    private let stateValue = Atomic<UInt8>(ServerState.starting.rawValue)
    /// The connection limit and memory budget the event loops share.
    private let budget: ConnectionBudget
    /// The control loop's stop event while `run` is inside its loop.
    private let stopEvent = Locked<EventPointer?>(nil)
    private let stopRequested = Atomic<Bool>(false)

    /// How the server came to stop, for the caller's stop line.
    public struct StopReport: Sendable, Equatable {
        /// "SIGTERM", "SIGINT" or "shutdown" (a `shutdown()` call).
        public var reason: String
        /// Connections with a request under way at the drain deadline (or at
        /// a second signal), closed without waiting for it; idle ones closed
        /// then are not counted.
        public var forcedCloseCount: Int
        /// From the start of the drain (after any shutdown delay) to the end
        /// of the last loop.
        public var drainNanoseconds: UInt64
        /// Times a loop gave the allocator's unused memory back to the
        /// kernel: after at least 8 MiB of large bodies and replies (or
        /// closed connections) and a second without a large one.
        public var memoryGiveBackCount: Int = 0
    }

    /// - Parameter stateDidChange: called on the control thread at every
    ///   state change, before anything else happens in the new state; the
    ///   serve command passes the service's readiness here.
    public init(
        configuration: HTTPServerConfiguration, handler: any HTTPHandler,
        stateDidChange: @escaping @Sendable (ServerState) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.handler = handler
        self.stateDidChange = stateDidChange
        budget = ConnectionBudget(limit: configuration.maxConnections, memoryBytes: configuration.memoryBudgetBytes)
    }

    public var state: ServerState {
        ServerState(rawValue: stateValue.load(ordering: .acquiring)) ?? .stopped
    }

    /// The bytes charged to the memory budget now: what the connections'
    /// buffers hold by the budget's count (`memoryBudgetBytes` bounds it);
    /// 0 without a budget. Readable from any thread.
    public var chargedMemoryBytes: Int { budget.chargedByteCount }

    /// Starts draining; callable from any thread, any number of times, even
    /// before `run` has reached its loop.
    public func shutdown() {
        stopRequested.store(true, ordering: .releasing)
        stopEvent.withLock { event in event?.activate() }
    }

    /// Binds, starts the loops, calls `onStart` with the bound address, then
    /// blocks until the server has stopped. With `handlingSignals`, SIGTERM
    /// and SIGINT start draining (after `shutdownDelaySeconds`), a second one
    /// closes everything at once, and SIGHUP calls `onHangup` on the control
    /// thread (it never ends the process).
    public func run(
        handlingSignals: Bool, onHangup: @escaping () -> Void = {}, onStart: (BoundAddress) -> Void
    ) throws(HTTPServerError) -> StopReport {
        LibeventRuntime.prepare()
        if handlingSignals {
            // A parent may have blocked them (a test runner does); threads
            // started below inherit this mask.
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGTERM)
            sigaddset(&signals, SIGINT)
            sigaddset(&signals, SIGHUP)
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        }
        let (descriptors, address) = try ListeningSocket.openAll(
            host: configuration.host, port: configuration.port, count: max(1, configuration.threadCount))

        guard let controlBase = event_base_new() else {
            for descriptor in descriptors { close(descriptor) }
            throw .libeventFailed("event_base_new")
        }
        defer { event_base_free(controlBase) }
        let events = LoopEvents(base: controlBase)
        defer { events.free() }
        let control = ControlLoop(
            server: self, base: controlBase, drainSeconds: configuration.drainSeconds,
            shutdownDelaySeconds: configuration.shutdownDelaySeconds)
        control.delayTimer = events.make(.timer, { [unowned control] in control.beginDrain() })
        guard let exitEvent = events.make(.user, { [unowned control] in control.workerDidExit() }) else {
            for descriptor in descriptors { close(descriptor) }
            throw .libeventFailed("event_new(exit)")
        }

        let exitedWorkers = control.exitedWorkers
        let workers = descriptors.enumerated().map { index, descriptor in
            EventLoopWorker(
                index: index, configuration: configuration, handler: handler, budget: budget,
                listeningDescriptor: descriptor,
                onExit: { [exitEvent = exitEvent.remote] in
                    // Count first: activations of one event coalesce.
                    exitedWorkers.value.add(1, ordering: .releasing)
                    exitEvent.activate()
                })
        }
        control.workers = workers
        // Before the exit event is freed: every worker activates it as it ends.
        defer { for worker in workers { worker.join() } }
        for (index, worker) in workers.enumerated() {
            do {
                try worker.start()
            } catch {
                for started in workers[..<index] { started.requestForcedClose() }
                for unstarted in workers[(index + 1)...] { unstarted.closeUnusedSocket() }
                throw error
            }
        }

        guard let stop = events.make(.user, { [unowned control] in control.stop(reason: "shutdown") }) else {
            for worker in workers { worker.requestForcedClose() }
            throw .libeventFailed("event_new(stop)")
        }
        if handlingSignals {
            for signalNumber in [SIGTERM, SIGINT] {
                let reason = signalNumber == SIGINT ? "SIGINT" : "SIGTERM"
                guard
                    let signal = events.make(
                        .signal(signalNumber), { [unowned control] in control.stop(reason: reason) })
                else {
                    for worker in workers { worker.requestForcedClose() }
                    throw .libeventFailed("evsignal_new")
                }
                signal.waitForSignal()
            }
            guard let hangup = events.make(.signal(SIGHUP), onHangup) else {
                for worker in workers { worker.requestForcedClose() }
                throw .libeventFailed("evsignal_new")
            }
            hangup.waitForSignal()
        }

        setState(.running)
        onStart(address)
        stopEvent.withLock { $0 = stop.remote }
        if stopRequested.load(ordering: .acquiring) {
            stop.activate()
        }
        // The control base has no pending events (only user events), so it
        // must not exit merely for being empty.
        event_base_loop(controlBase, EVLOOP_NO_EXIT_ON_EMPTY)
        stopEvent.withLock { $0 = nil }
        for worker in workers { worker.join() }
        setState(.stopped)
        return StopReport(
            reason: control.stopReason ?? "worker-exit",
            forcedCloseCount: workers.reduce(0) { $0 + $1.forcedCloseCount.load(ordering: .relaxed) },
            drainNanoseconds: control.drainStartNanoseconds.map { MonotonicClock.nanoseconds() &- $0 } ?? 0,
            memoryGiveBackCount: budget.memoryGiveBacks.load(ordering: .relaxed))
    }

    func setState(_ state: ServerState) {
        stateValue.store(state.rawValue, ordering: .releasing)
        stateDidChange(state)
    }
}
