import CLibevent

#if canImport(Glibc)
import Glibc
#endif

/// What one worker knows about one client connection, from accept to close.
///
/// evhttp 2.1 exposes no hook when it creates or frees a server connection,
/// but it lets us create each connection's bufferevent (`evhttp_set_bevcb`).
/// The record holds a reference on that bufferevent, so the pointer stays
/// valid after evhttp frees the connection; evhttp's free clears the
/// bufferevent's callbacks, which is how a sweep learns the connection is gone.
/// Confined to its worker's thread.
final class ConnectionRecord {
    let bufferEvent: OpaquePointer
    /// Our callback on the input buffer, present only while waiting for a
    /// request's first bytes: evhttp changes the buffer many times per
    /// request (it drains each line it parses), only the first arrival
    /// matters, and any callback on the buffer makes every change dearer.
    private var inputCallback: OpaquePointer?
    /// True from the moment the handler got a request until its reply is
    /// written out (or the connection dies).
    var isHandlingRequest = false
    /// When the first bytes since the last reply came in: set while a request
    /// is arriving, nil while the connection is idle or being answered.
    var requestStartNanoseconds: UInt64?

    init(bufferEvent: OpaquePointer) {
        self.bufferEvent = bufferEvent
    }

    /// The evhttp connection, while evhttp still owns the bufferevent.
    /// evhttp always sets an event callback on a server connection's
    /// bufferevent (the read callback is unset while a reply is written),
    /// and bufferevent_free clears them all.
    var connection: OpaquePointer? {
        var eventCallback: bufferevent_event_cb?
        var argument: UnsafeMutableRawPointer?
        bufferevent_getcb(bufferEvent, nil, nil, &eventCallback, &argument)
        guard eventCallback != nil, let argument else { return nil }
        return OpaquePointer(argument)
    }

    /// Waiting between requests: nothing received, nothing being answered,
    /// and nothing waiting in the kernel that libevent has not read yet.
    var isIdle: Bool {
        guard !isHandlingRequest && requestStartNanoseconds == nil else { return false }
        let descriptor = bufferevent_getfd(bufferEvent)
        guard descriptor >= 0 else { return true }
        var unreadByteCount: Int32 = 0
        return ioctl(descriptor, UInt(FIONREAD), &unreadByteCount) != 0 || unreadByteCount == 0
    }

    /// Starts watching the input buffer for a request's first bytes.
    func watchInput() {
        guard inputCallback == nil else { return }
        inputCallback = evbuffer_add_cb(
            bufferevent_get_input(bufferEvent),
            { _, info, argument in
                guard let info, info.pointee.n_added > 0, let argument else { return }
                // The record removes this callback before it can go: no retain needed.
                Unmanaged<ConnectionRecord>.fromOpaque(argument)._withUnsafeGuaranteedRef {
                    $0.noteReceived(byteCount: info.pointee.n_added)
                }
            }, Unmanaged.passUnretained(self).toOpaque())
        if inputCallback == nil {
            // Out of memory: count the request as arriving from now, so the
            // sweep still closes the connection if no request completes.
            requestStartNanoseconds = MonotonicClock.nanoseconds()
        }
    }

    /// Bytes came in: the first since the last reply start a request's clock.
    private func noteReceived(byteCount: Int) {
        guard byteCount > 0, requestStartNanoseconds == nil, !isHandlingRequest else { return }
        requestStartNanoseconds = MonotonicClock.nanoseconds()
        // Removing itself from within the callback is safe: libevent reads
        // the next entry before calling this one.
        unwatchInput()
    }

    /// Called when the handler got a complete request.
    func noteRequestComplete() {
        isHandlingRequest = true
        requestStartNanoseconds = nil
    }

    /// Called when a reply has been written out; bytes of a pipelined request
    /// may already be waiting in the input buffer.
    func noteReplyWritten() {
        isHandlingRequest = false
        requestStartNanoseconds = nil
        let pendingByteCount = evbuffer_get_length(bufferevent_get_input(bufferEvent))
        if pendingByteCount > 0 {
            requestStartNanoseconds = MonotonicClock.nanoseconds()
        } else {
            watchInput()
        }
    }

    private func unwatchInput() {
        guard let inputCallback else { return }
        evbuffer_remove_cb_entry(bufferevent_get_input(bufferEvent), inputCallback)
        self.inputCallback = nil
    }

    /// Drops our callback and our reference; the record is unusable afterwards.
    func release() {
        unwatchInput()
        bufferevent_decref(bufferEvent)
    }
}
