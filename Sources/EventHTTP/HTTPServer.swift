import CLibevent
import HTTPCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on libevent's evhttp: one event loop per thread, each
/// with its own SO_REUSEPORT listening socket on the same address, all
/// answering through one thread-safe `HTTPHandler`.
///
/// Life cycle (`ServerState`): `starting` while sockets and loops are set up,
/// `running` once every loop accepts, `draining` after SIGTERM/SIGINT or
/// `shutdown()` (listeners closed, requests in flight finish, idle
/// connections close, `/readyz` can say 503), `stopped` when every loop has
/// ended — at the latest `drainSeconds` after draining began.
public final class HTTPServer: Sendable {
    public let configuration: HTTPServerConfiguration
    private let handler: any HTTPHandler
    private let stateDidChange: @Sendable (ServerState) -> Void
    private let stateValue = Atomic<UInt8>(ServerState.starting.rawValue)
    /// The control loop's stop event while `run` is inside its loop.
    private let stopEvent = Locked<EventPointer?>(nil)
    private let stopRequested = Atomic<Bool>(false)

    /// How the server came to stop, for the caller's stop line.
    public struct StopReport: Sendable, Equatable {
        /// "SIGTERM", "SIGINT" or "shutdown" (a `shutdown()` call).
        public var reason: String
        /// Connections still open at the drain deadline (or at a second
        /// signal), closed without waiting for their requests.
        public var forcedCloseCount: Int
        /// From the start of draining to the end of the last loop.
        public var drainNanoseconds: UInt64
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
    }

    public var state: ServerState {
        ServerState(rawValue: stateValue.load(ordering: .acquiring)) ?? .stopped
    }

    /// Starts draining; callable from any thread, any number of times, even
    /// before `run` has reached its loop.
    public func shutdown() {
        stopRequested.store(true, ordering: .releasing)
        stopEvent.withLock { event in
            if let event { event_active(event.pointer, 0, 0) }
        }
    }

    /// Binds, starts the loops, calls `onStart` with the bound address, then
    /// blocks until the server has stopped. With `handlingSignals`, SIGTERM
    /// and SIGINT start draining, and a second one closes everything at once.
    public func run(handlingSignals: Bool, onStart: (BoundAddress) -> Void) throws(HTTPServerError) -> StopReport {
        LibeventRuntime.prepare()
        if handlingSignals {
            // A parent may have blocked them (a test runner does); threads
            // started below inherit this mask.
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGTERM)
            sigaddset(&signals, SIGINT)
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        }
        let (descriptors, address) = try ListeningSocket.openAll(
            host: configuration.host, port: configuration.port, count: max(1, configuration.threadCount))

        guard let controlBase = event_base_new() else {
            for descriptor in descriptors { close(descriptor) }
            throw .libeventFailed("event_base_new")
        }
        defer { event_base_free(controlBase) }
        let exitedWorkers = ExitedWorkerCount()
        let control = ControlLoop(
            server: self, base: controlBase, drainSeconds: configuration.drainSeconds,
            exitedWorkers: exitedWorkers)
        let context = Unmanaged.passUnretained(control).toOpaque()

        guard
            let exitEvent = clibevent_user_event_new(
                controlBase,
                { _, _, argument in
                    guard let argument else { return }
                    Unmanaged<ControlLoop>.fromOpaque(argument).takeUnretainedValue().workerDidExit()
                }, context)
        else {
            for descriptor in descriptors { close(descriptor) }
            throw .libeventFailed("event_new(exit)")
        }
        defer { event_free(exitEvent) }

        let workers = descriptors.enumerated().map { index, descriptor in
            EventLoopWorker(
                index: index, configuration: configuration, handler: handler,
                listeningDescriptor: descriptor,
                onExit: { [exitEvent = EventPointer(exitEvent)] in
                    // Count first: activations of one event coalesce.
                    exitedWorkers.value.add(1, ordering: .releasing)
                    event_active(exitEvent.pointer, 0, 0)
                })
        }
        control.workers = workers
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

        guard
            let stop = clibevent_user_event_new(
                controlBase,
                { _, _, argument in
                    guard let argument else { return }
                    Unmanaged<ControlLoop>.fromOpaque(argument).takeUnretainedValue().stop(reason: "shutdown")
                }, context)
        else {
            for worker in workers { worker.requestForcedClose() }
            throw .libeventFailed("event_new(stop)")
        }
        defer { event_free(stop) }

        var signalEvents: [OpaquePointer] = []
        defer { for event in signalEvents { event_free(event) } }
        if handlingSignals {
            for signalNumber in [SIGTERM, SIGINT] {
                guard
                    let event = clibevent_signal_new(
                        controlBase, signalNumber,
                        { signalNumber, _, argument in
                            guard let argument else { return }
                            Unmanaged<ControlLoop>.fromOpaque(argument).takeUnretainedValue()
                                .stop(reason: signalNumber == SIGINT ? "SIGINT" : "SIGTERM")
                        }, context)
                else {
                    for worker in workers { worker.requestForcedClose() }
                    throw .libeventFailed("evsignal_new")
                }
                signalEvents.append(event)
                event_add(event, nil)
            }
        }

        setState(.running)
        onStart(address)
        stopEvent.withLock { $0 = EventPointer(stop) }
        if stopRequested.load(ordering: .acquiring) {
            event_active(stop, 0, 0)
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
            drainNanoseconds: control.drainStartNanoseconds.map { MonotonicClock.nanoseconds() &- $0 } ?? 0)
    }

    fileprivate func setState(_ state: ServerState) {
        stateValue.store(state.rawValue, ordering: .releasing)
        stateDidChange(state)
    }
}

/// A libevent event pointer handed between threads; libevent's own locks
/// (evthread_use_pthreads) make `event_active` safe from any thread.
struct EventPointer: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
}

/// The control thread's loop: signals and stop requests in, drain orders out.
/// Confined to the thread inside `HTTPServer.run`.
private final class ControlLoop {
    unowned let server: HTTPServer
    let base: OpaquePointer
    let drainSeconds: Double
    var workers: [EventLoopWorker] = []
    var stopReason: String?
    var drainStartNanoseconds: UInt64?
    private let exitedWorkers: ExitedWorkerCount

    init(server: HTTPServer, base: OpaquePointer, drainSeconds: Double, exitedWorkers: ExitedWorkerCount) {
        self.server = server
        self.base = base
        self.drainSeconds = drainSeconds
        self.exitedWorkers = exitedWorkers
    }

    func stop(reason: String) {
        guard stopReason == nil else {
            // A second signal: the operator does not want to wait.
            if reason != "shutdown" {
                for worker in workers { worker.requestForcedClose() }
            }
            return
        }
        stopReason = reason
        let now = MonotonicClock.nanoseconds()
        drainStartNanoseconds = now
        server.setState(.draining)
        let deadline = now + MonotonicClock.nanoseconds(fromSeconds: drainSeconds)
        for worker in workers { worker.requestDrain(deadlineNanoseconds: deadline) }
    }

    func workerDidExit() {
        if exitedWorkers.value.load(ordering: .acquiring) >= workers.count {
            event_base_loopexit(base, nil)
        }
    }
}

/// Workers whose loop has ended, counted by the workers themselves.
private final class ExitedWorkerCount: Sendable {
    let value = Atomic<Int>(0)
}
