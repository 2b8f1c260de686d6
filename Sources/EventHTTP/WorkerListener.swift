import CLibevent

#if canImport(Glibc)
import Glibc
#endif

/// One loop's listening socket, bound into its `evhttp`: accepting pauses
/// for a moment when accept() fails for lack of descriptors (never at the
/// connection limit: a connection past it is answered, not left waiting in
/// the backlog); while draining the socket closes only once the kernel's
/// accept queue is empty. Confined to its loop's thread.
final class WorkerListener {
    private let http: OpaquePointer
    /// evhttp's bound socket until the drain closes it.
    private var boundSocket: OpaquePointer?
    private var acceptResumeTimer: LoopEvent!
    private var closeRetryTimer: LoopEvent!
    private var closeRetries = 0
    private let onAcceptError: (Int32) -> Void
    private var isPausedAfterError = false
    private var isClosing = false

    /// How long accepting pauses after accept() fails with EMFILE and the like.
    private static let acceptPauseNanoseconds: UInt64 = 100_000_000
    /// Closing drops queued connections with a reset, so the close waits for
    /// an empty accept queue, checked this often and at most this many times.
    private static let closeRetryNanoseconds: UInt64 = 1_000_000
    private static let closeMaxRetries = 50

    private init(http: OpaquePointer, onAcceptError: @escaping (Int32) -> Void) {
        self.http = http
        self.onAcceptError = onAcceptError
    }

    /// Binds `descriptor` into `http`, which owns it from then on (evhttp_free
    /// or `closeOnceQueueIsEmpty` closes it); on failure it is still the caller's.
    /// `onAcceptError` gets the errno of each failed accept().
    static func bind(
        _ descriptor: Int32, to http: OpaquePointer, events: LoopEvents, onAcceptError: @escaping (Int32) -> Void
    ) throws(HTTPServerError) -> WorkerListener {
        let listener = WorkerListener(http: http, onAcceptError: onAcceptError)
        guard let resume = events.make(.timer, { [unowned listener] in listener.resumeAccepting() }),
            let retry = events.make(.timer, { [unowned listener] in listener.closeOnceQueueIsEmpty() })
        else { throw .libeventFailed("event_new(listener)") }
        listener.acceptResumeTimer = resume
        listener.closeRetryTimer = retry
        guard let bound = evhttp_accept_socket_with_handle(http, descriptor) else {
            throw .libeventFailed("evhttp_accept_socket_with_handle")
        }
        listener.boundSocket = bound
        ErrorRoute.register(http: http, listener: listener)
        evconnlistener_set_error_cb(evhttp_bound_socket_get_listener(bound)) { _, http in
            let errorNumber = errno
            ErrorRoute.listener(for: http)?.acceptFailed(errorNumber: errorNumber)
        }
        return listener
    }

    /// True once `closeOnceQueueIsEmpty` has closed the socket.
    var isClosed: Bool { boundSocket == nil }

    /// Stops routing accept errors here; call before the `evhttp` is freed.
    func detach() {
        ErrorRoute.unregister(http: http)
    }

    /// Closes the listener, after letting the loop accept what the kernel
    /// has already queued (those clients connected before the drain).
    func closeOnceQueueIsEmpty() {
        guard let boundSocket else { return }
        isClosing = true
        let listener = evhttp_bound_socket_get_listener(boundSocket)
        var poller = pollfd(fd: evconnlistener_get_fd(listener), events: Int16(POLLIN), revents: 0)
        if poll(&poller, 1, 0) > 0 && closeRetries < Self.closeMaxRetries {
            closeRetries += 1
            evconnlistener_enable(listener)
            closeRetryTimer.schedule(afterNanoseconds: Self.closeRetryNanoseconds)
            return
        }
        evhttp_del_accept_socket(http, boundSocket)
        self.boundSocket = nil
    }

    /// accept() failed for a reason a retry will not fix soon (EMFILE,
    /// ENFILE, ENOBUFS): stop watching the listener for a moment instead of
    /// spinning on it.
    private func acceptFailed(errorNumber: Int32) {
        onAcceptError(errorNumber)
        isPausedAfterError = true
        updateAccepting()
        acceptResumeTimer.schedule(afterNanoseconds: Self.acceptPauseNanoseconds)
    }

    private func resumeAccepting() {
        isPausedAfterError = false
        updateAccepting()
    }

    /// While closing, the listener accepts what the kernel queued whatever
    /// the pauses say: those clients connected before the drain.
    private func updateAccepting() {
        guard let boundSocket, !isClosing else { return }
        let listener = evhttp_bound_socket_get_listener(boundSocket)
        if isPausedAfterError {
            evconnlistener_disable(listener)
        } else {
            evconnlistener_enable(listener)
        }
    }

    /// Finds the listener for a listener's error callback, whose argument is
    /// the `evhttp` (evhttp owns the listener's callback argument). Entries
    /// are object addresses: only the loop thread that owns a listener turns
    /// its entry back into the object, while it is registered.
    private enum ErrorRoute {
        private static let listeners = Locked<[UInt: UInt]>([:])

        static func register(http: OpaquePointer, listener: WorkerListener) {
            let address = UInt(bitPattern: Unmanaged.passUnretained(listener).toOpaque())
            listeners.withLock { $0[UInt(bitPattern: http)] = address }
        }

        static func unregister(http: OpaquePointer) {
            _ = listeners.withLock { $0.removeValue(forKey: UInt(bitPattern: http)) }
        }

        static func listener(for http: UnsafeMutableRawPointer?) -> WorkerListener? {
            guard let http,
                let address = listeners.withLock({ $0[UInt(bitPattern: http)] }),
                let pointer = UnsafeRawPointer(bitPattern: address)
            else { return nil }
            return Unmanaged<WorkerListener>.fromOpaque(pointer).takeUnretainedValue()
        }
    }
}
