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
    /// Our callback on the input buffer; removed before the reference is dropped.
    var inputCallback: OpaquePointer?
    /// True from the moment the handler got a request until its reply is
    /// written out (or the connection dies).
    var isHandlingRequest = false
    /// Bytes received since the last reply was written out: a connection with
    /// none is idle (waiting between requests), otherwise a request is arriving.
    var receivedBytesSinceReply = 0
    /// When the first byte of the request now arriving came in.
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
        guard !isHandlingRequest && receivedBytesSinceReply == 0 else { return false }
        let descriptor = bufferevent_getfd(bufferEvent)
        guard descriptor >= 0 else { return true }
        var unreadByteCount: Int32 = 0
        return ioctl(descriptor, UInt(FIONREAD), &unreadByteCount) != 0 || unreadByteCount == 0
    }

    /// Reads the clock only for a request's first bytes: the input buffer
    /// changes many times per request (each header line evhttp drains is one).
    func noteReceived(byteCount: Int) {
        guard byteCount > 0 else { return }
        if receivedBytesSinceReply == 0 { requestStartNanoseconds = MonotonicClock.nanoseconds() }
        receivedBytesSinceReply += byteCount
    }

    /// Called when the handler got a complete request.
    func noteRequestComplete() {
        isHandlingRequest = true
        receivedBytesSinceReply = 0
        requestStartNanoseconds = nil
    }

    /// Called when a reply has been written out; bytes of a pipelined request
    /// may already be waiting in the input buffer.
    func noteReplyWritten() {
        isHandlingRequest = false
        receivedBytesSinceReply = 0
        requestStartNanoseconds = nil
        noteReceived(byteCount: evbuffer_get_length(bufferevent_get_input(bufferEvent)))
    }

    /// Drops our callback and our reference; the record is unusable afterwards.
    func release() {
        if let inputCallback {
            evbuffer_remove_cb_entry(bufferevent_get_input(bufferEvent), inputCallback)
            self.inputCallback = nil
        }
        bufferevent_decref(bufferEvent)
    }
}
