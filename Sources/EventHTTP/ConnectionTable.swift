import CLibevent

/// Every client connection of one event loop, from accept to close: gives
/// each its timeouts, closes slow requests, and closes idle connections
/// while draining. Confined to its loop's thread.
final class ConnectionTable {
    /// Keyed by the bufferevent's address (kept valid by the record's reference).
    private var records: [UInt: ConnectionRecord] = [:]
    private let readTimeoutNanoseconds: UInt64
    private let writeTimeoutNanoseconds: UInt64
    /// Set once by `beginDrain`; replies from then on close their connection.
    private(set) var isDraining = false

    init(readTimeoutNanoseconds: UInt64, writeTimeoutNanoseconds: UInt64) {
        self.readTimeoutNanoseconds = readTimeoutNanoseconds
        self.writeTimeoutNanoseconds = writeTimeoutNanoseconds
    }

    var isEmpty: Bool { records.isEmpty }

    /// evhttp's hook for a new connection's bufferevent: we create it so we
    /// can set its read and write timeouts and track the connection.
    ///
    /// The bufferevent owns the socket (`BEV_OPT_CLOSE_ON_FREE`), so the
    /// descriptor is closed only when the last reference goes, ours included.
    /// Without it evhttp closes the descriptor itself when it frees the
    /// connection, while our reference keeps the bufferevent, and its still
    /// registered read event, alive until the next sweep: a new connection
    /// accepted on the reused descriptor number then had bytes of its request
    /// read away by the dead bufferevent (seen as oversized heads answered 200
    /// and requests closed unanswered when garbled requests ran alongside).
    func makeBufferEvent(on base: OpaquePointer) -> OpaquePointer? {
        guard let bufferEvent = bufferevent_socket_new(base, -1, Int32(BEV_OPT_CLOSE_ON_FREE.rawValue)) else {
            return nil
        }
        var readTimeout = MonotonicClock.timeval(nanoseconds: readTimeoutNanoseconds)
        var writeTimeout = MonotonicClock.timeval(nanoseconds: writeTimeoutNanoseconds)
        bufferevent_set_timeouts(bufferEvent, &readTimeout, &writeTimeout)
        bufferevent_incref(bufferEvent)
        let record = ConnectionRecord(bufferEvent: bufferEvent)
        record.watchInput()
        records[UInt(bitPattern: bufferEvent)] = record
        return bufferEvent
    }

    /// A request on one of our connections is complete: its connection is
    /// busy until the reply has been written out.
    func noteRequestComplete(_ request: OpaquePointer) {
        guard let connection = evhttp_request_get_connection(request),
            let bufferEvent = evhttp_connection_get_bufferevent(connection),
            let record = records[UInt(bitPattern: bufferEvent)]
        else { return }
        record.noteRequestComplete()
        // The record outlives this callback: it leaves `records` only once
        // evhttp has freed the connection, and the request with it.
        evhttp_request_set_on_complete_cb(
            request,
            { _, argument in
                guard let argument else { return }
                Unmanaged<ConnectionRecord>.fromOpaque(argument)._withUnsafeGuaranteedRef { $0.noteReplyWritten() }
            }, Unmanaged.passUnretained(record).toOpaque())
    }

    /// Drops records of closed connections; closes connections whose request
    /// is arriving too slowly and, while draining, idle ones.
    func sweep() {
        let now = MonotonicClock.nanoseconds()
        for (key, record) in records {
            guard let connection = record.connection else {
                record.release()
                records[key] = nil
                continue
            }
            let isTooSlow =
                !record.isHandlingRequest
                && record.requestStartNanoseconds.map { now &- $0 > readTimeoutNanoseconds } == true
            if isTooSlow || (isDraining && record.isIdle) {
                evhttp_connection_free(connection)
                record.release()
                records[key] = nil
            }
        }
    }

    /// From now on idle connections close at the next sweep, and replies
    /// close theirs.
    func beginDrain() {
        isDraining = true
    }

    /// Closes every connection still open; returns how many there were.
    func closeAll() -> Int {
        var closedCount = 0
        for record in records.values {
            if let connection = record.connection {
                evhttp_connection_free(connection)
                closedCount += 1
            }
            record.release()
        }
        records.removeAll()
        return closedCount
    }

    /// Drops every record once evhttp has freed its connections.
    func releaseAll() {
        for record in records.values { record.release() }
        records.removeAll()
    }
}
