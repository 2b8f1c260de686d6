import CLibevent

#if canImport(Glibc)
import Glibc
#endif

/// One loop's listening socket, on an `evconnlistener` of the loop's base:
/// each accepted socket goes to `onAccept`; accepting pauses for a moment
/// when accept() fails for lack of descriptors (never at the connection
/// limit: a connection past it is answered, not left waiting in the
/// backlog); while draining the socket closes only once the kernel's accept
/// queue is empty. Confined to its loop's thread.
final class WorkerListener {
    /// The listener until the drain closes it.
    private var listener: OpaquePointer?
    private var acceptResumeTimer: LoopEvent!
    private var closeRetryTimer: LoopEvent!
    private var closeRetries = 0
    private let onAccept: (Int32) -> Void
    private let onAcceptError: (Int32) -> Void
    private var isPausedAfterError = false
    private var isClosing = false

    /// How long accepting pauses after accept() fails with EMFILE and the like.
    private static let acceptPauseNanoseconds: UInt64 = 100_000_000
    /// Closing drops queued connections with a reset, so the close waits for
    /// an empty accept queue, checked this often and at most this many times.
    private static let closeRetryNanoseconds: UInt64 = 1_000_000
    private static let closeMaxRetries = 50

    private init(onAccept: @escaping (Int32) -> Void, onAcceptError: @escaping (Int32) -> Void) {
        self.onAccept = onAccept
        self.onAcceptError = onAcceptError
    }

    /// Listens on `descriptor` (already listening) on `base`; the listener
    /// owns it from then on (`close` or `closeOnceQueueIsEmpty` closes it);
    /// on failure it is still the caller's. `onAccept` gets each accepted
    /// socket (non-blocking), `onAcceptError` the errno of each failed accept().
    static func listen(
        on descriptor: Int32, base: OpaquePointer, events: LoopEvents, onAccept: @escaping (Int32) -> Void,
        onAcceptError: @escaping (Int32) -> Void
    ) throws(HTTPServerError) -> WorkerListener {
        let listener = WorkerListener(onAccept: onAccept, onAcceptError: onAcceptError)
        guard let resume = events.make(.timer, { [unowned listener] in listener.resumeAccepting() }),
            let retry = events.make(.timer, { [unowned listener] in listener.closeOnceQueueIsEmpty() })
        else { throw .libeventFailed("event_new(listener)") }
        listener.acceptResumeTimer = resume
        listener.closeRetryTimer = retry
        // Backlog 0: the socket is listening already. The loop outlives the
        // listener, which holds it unretained.
        guard
            let made = evconnlistener_new(
                base,
                { _, socket, _, _, argument in
                    guard let argument else { return }
                    Unmanaged<WorkerListener>.fromOpaque(argument).takeUnretainedValue().onAccept(socket)
                }, Unmanaged.passUnretained(listener).toOpaque(),
                UInt32(LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC), 0, descriptor)
        else { throw .libeventFailed("evconnlistener_new") }
        listener.listener = made
        evconnlistener_set_error_cb(made) { _, argument in
            let errorNumber = errno
            guard let argument else { return }
            Unmanaged<WorkerListener>.fromOpaque(argument).takeUnretainedValue().acceptFailed(errorNumber: errorNumber)
        }
        return listener
    }

    /// True once `closeOnceQueueIsEmpty` or `close` has closed the socket.
    var isClosed: Bool { listener == nil }

    /// Closes the listening socket now (the loop ends).
    func close() {
        guard let listener else { return }
        evconnlistener_free(listener)
        self.listener = nil
    }

    /// Closes the listener, after letting the loop accept what the kernel
    /// has already queued (those clients connected before the drain).
    func closeOnceQueueIsEmpty() {
        guard let listener else { return }
        isClosing = true
        var poller = pollfd(fd: evconnlistener_get_fd(listener), events: Int16(POLLIN), revents: 0)
        if poll(&poller, 1, 0) > 0 && closeRetries < Self.closeMaxRetries {
            closeRetries += 1
            evconnlistener_enable(listener)
            closeRetryTimer.schedule(afterNanoseconds: Self.closeRetryNanoseconds)
            return
        }
        close()
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
        guard let listener, !isClosing else { return }
        if isPausedAfterError {
            evconnlistener_disable(listener)
        } else {
            evconnlistener_enable(listener)
        }
    }
}
