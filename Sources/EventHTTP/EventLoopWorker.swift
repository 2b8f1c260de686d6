import Dispatch
import HTTPCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One event-loop thread, as the control thread sees it: started, woken to
/// drain or to close everything, and joined. The loop itself (`WorkerLoop`)
/// lives on the thread; the two meet only through `state`, under its lock,
/// and the two atomics below.
final class EventLoopWorker: Sendable {
    /// Where the worker is in its life. The control thread moves it out of
    /// `initial` and into `finished`; the loop thread makes every move in between.
    enum State: Sendable {
        /// Not started: the listening socket is still unused.
        case initial
        /// The thread is setting up its loop.
        case starting(thread: pthread_t)
        /// The loop serves; `wakeups` reach it from other threads.
        case running(thread: pthread_t, wakeups: Wakeups)
        /// The set-up failed; the thread ends without serving.
        case failed(thread: pthread_t, HTTPServerError)
        /// The loop has ended; the thread is yet to be joined.
        case ended(thread: pthread_t)
        /// Joined, or never started and its socket closed.
        case finished
    }

    /// The loop's events other threads may activate while it runs.
    struct Wakeups: Sendable {
        let drain: EventPointer
        let forceClose: EventPointer
    }

    let index: Int
    let configuration: HTTPServerConfiguration
    let handler: any HTTPHandler
    /// The server's connection limit and memory budget, shared by its loops.
    let budget: ConnectionBudget
    /// Connections closed with a request under way because the drain deadline
    /// passed or a second signal came.
    let forcedCloseCount = Atomic<Int>(0)
    /// When the loop closes what is left of a drain (monotonic clock).
    let drainDeadlineNanoseconds = Atomic<UInt64>(0)
    private let listeningDescriptor: Int32
    private let onExit: @Sendable () -> Void
    private let state = Locked<State>(.initial)
    /// Signalled once the loop thread has left `starting`.
    private let startedOrFailed = DispatchSemaphore(value: 0)

    init(
        index: Int, configuration: HTTPServerConfiguration, handler: any HTTPHandler, budget: ConnectionBudget,
        listeningDescriptor: Int32, onExit: @escaping @Sendable () -> Void
    ) {
        self.index = index
        self.configuration = configuration
        self.handler = handler
        self.budget = budget
        self.listeningDescriptor = listeningDescriptor
        self.onExit = onExit
    }

    // MARK: - Control thread

    /// Starts the thread and waits until its loop is set up. Takes ownership
    /// of the listening socket, which is closed on every path.
    func start() throws(HTTPServerError) {
        // Created under the lock, so the thread's first move finds `starting`.
        let created = state.withLock { state -> Int32 in
            guard case .initial = state else { return EINVAL }
            var handle = pthread_t()
            let context = Unmanaged.passRetained(self).toOpaque()
            let result = pthread_create(
                &handle, nil,
                { argument in
                    let worker = Unmanaged<EventLoopWorker>.fromOpaque(argument!).takeRetainedValue()
                    WorkerLoop(worker: worker).run(listeningDescriptor: worker.listeningDescriptor)
                    worker.onExit()
                    return nil
                }, context)
            if result == 0 {
                state = .starting(thread: handle)
            } else {
                Unmanaged<EventLoopWorker>.fromOpaque(context).release()
                close(listeningDescriptor)
                state = .finished
            }
            return result
        }
        guard created == 0 else { throw .libeventFailed("pthread_create: \(HTTPServerError.errorText(created))") }
        startedOrFailed.wait()
        if case .failed(_, let error) = state.withLock({ $0 }) {
            join()
            throw error
        }
    }

    /// Stop accepting, let requests in flight finish, close idle connections;
    /// close whatever is left at `deadlineNanoseconds` (monotonic clock).
    func requestDrain(deadlineNanoseconds: UInt64) {
        drainDeadlineNanoseconds.store(deadlineNanoseconds, ordering: .releasing)
        state.withLock { state in
            if case .running(_, let wakeups) = state { wakeups.drain.activate() }
        }
    }

    /// Close every connection now and stop the loop.
    func requestForcedClose() {
        state.withLock { state in
            if case .running(_, let wakeups) = state { wakeups.forceClose.activate() }
        }
    }

    /// Closes the listening socket of a worker that was never started.
    func closeUnusedSocket() {
        state.withLock { state in
            guard case .initial = state else { return }
            close(listeningDescriptor)
            state = .finished
        }
    }

    /// Waits for the thread to end (once).
    func join() {
        let thread = state.withLock { state -> pthread_t? in
            switch state {
            case .starting(let thread), .running(let thread, _), .failed(let thread, _), .ended(let thread):
                state = .finished
                return thread
            case .initial, .finished:
                return nil
            }
        }
        if let thread { pthread_join(thread, nil) }
    }

    // MARK: - Loop thread

    /// The loop is set up and about to run.
    func didStart(wakeups: Wakeups) {
        state.withLock { state in
            if case .starting(let thread) = state { state = .running(thread: thread, wakeups: wakeups) }
        }
        startedOrFailed.signal()
    }

    /// The set-up failed; the thread is about to end.
    func didFailToStart(_ error: HTTPServerError) {
        state.withLock { state in
            if case .starting(let thread) = state { state = .failed(thread: thread, error) }
        }
        startedOrFailed.signal()
    }

    /// The loop has returned; its wakeup events are about to be freed.
    func didStop() {
        state.withLock { state in
            if case .running(let thread, _) = state { state = .ended(thread: thread) }
        }
    }
}
