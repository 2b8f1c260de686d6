import CLibevent
import Dispatch
import HTTPCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One event-loop thread: its own `event_base`, `evhttp` and listening socket.
///
/// Everything below "Loop-thread state" is touched only by the worker's own
/// thread (libevent calls back on the thread that runs the base). The control
/// thread talks to a running worker only through `requestDrain` and
/// `requestForcedClose`, which activate events under a lock.
final class EventLoopWorker: @unchecked Sendable {
    let index: Int
    private let configuration: HTTPServerConfiguration
    private let handler: any HTTPHandler
    private let listeningDescriptor: Int32
    private let onExit: @Sendable () -> Void

    /// Connections closed because the drain deadline passed or a second signal came.
    let forcedCloseCount = Atomic<Int>(0)
    /// Events the control thread may activate, present while the loop runs.
    private let wakeups = Locked<Wakeups?>(nil)
    private let drainDeadlineNanoseconds = Atomic<UInt64>(0)
    private let started = DispatchSemaphore(value: 0)
    private let startError = Locked<HTTPServerError?>(nil)
    private let thread = Locked<pthread_t?>(nil)

    private let readTimeoutNanoseconds: UInt64
    private let writeTimeoutNanoseconds: UInt64
    /// How often connections are checked for slow requests (and, while
    /// draining, for having gone idle or closed).
    private static let sweepIntervalNanoseconds: UInt64 = 250_000_000
    private static let drainSweepIntervalNanoseconds: UInt64 = 20_000_000
    /// How long accepting pauses after accept() fails with EMFILE and the like.
    private static let acceptPauseNanoseconds: UInt64 = 100_000_000
    /// While draining, the listener closes only once its accept queue is
    /// empty (closing drops queued connections with a reset), checked this
    /// often and at most this many times.
    private static let listenerCloseRetryNanoseconds: UInt64 = 1_000_000
    private static let listenerCloseMaxRetries = 50

    // Loop-thread state.
    private var base: OpaquePointer?
    private var http: OpaquePointer?
    private var boundSocket: OpaquePointer?
    private var sweepTimer: OpaquePointer?
    private var deadlineTimer: OpaquePointer?
    private var acceptResumeTimer: OpaquePointer?
    private var listenerCloseTimer: OpaquePointer?
    private var listenerCloseRetries = 0
    /// Keyed by the bufferevent's address (kept valid by the record's reference).
    private var connections: [UInt: ConnectionRecord] = [:]
    private var isDraining = false
    private var dateField = DateField()

    private struct Wakeups: @unchecked Sendable {
        let drain: OpaquePointer
        let forceClose: OpaquePointer
    }

    init(
        index: Int, configuration: HTTPServerConfiguration, handler: any HTTPHandler,
        listeningDescriptor: Int32, onExit: @escaping @Sendable () -> Void
    ) {
        self.index = index
        self.configuration = configuration
        self.handler = handler
        self.listeningDescriptor = listeningDescriptor
        self.onExit = onExit
        readTimeoutNanoseconds = MonotonicClock.nanoseconds(fromSeconds: configuration.readTimeoutSeconds)
        writeTimeoutNanoseconds = MonotonicClock.nanoseconds(fromSeconds: configuration.writeTimeoutSeconds)
    }

    // MARK: - Control thread

    /// Starts the thread and waits until its loop is set up. Takes ownership
    /// of the listening socket, which is closed on every path.
    func start() throws(HTTPServerError) {
        var handle = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let result = pthread_create(
            &handle, nil,
            { argument in
                let worker = Unmanaged<EventLoopWorker>.fromOpaque(argument!).takeRetainedValue()
                worker.runLoop()
                worker.onExit()
                return nil
            }, context)
        guard result == 0 else {
            Unmanaged<EventLoopWorker>.fromOpaque(context).release()
            close(listeningDescriptor)
            throw .libeventFailed("pthread_create: \(HTTPServerError.errorText(result))")
        }
        thread.withLock { $0 = handle }
        started.wait()
        if let error = startError.withLock({ $0 }) {
            join()
            throw error
        }
    }

    /// Stop accepting, let requests in flight finish, close idle connections;
    /// close whatever is left at `deadlineNanoseconds` (monotonic clock).
    func requestDrain(deadlineNanoseconds: UInt64) {
        drainDeadlineNanoseconds.store(deadlineNanoseconds, ordering: .releasing)
        wakeups.withLock { wakeups in
            if let wakeups { event_active(wakeups.drain, 0, 0) }
        }
    }

    /// Close every connection now and stop the loop.
    func requestForcedClose() {
        wakeups.withLock { wakeups in
            if let wakeups { event_active(wakeups.forceClose, 0, 0) }
        }
    }

    /// Closes the listening socket of a worker that was never started.
    func closeUnusedSocket() {
        guard thread.withLock({ $0 == nil }) else { return }
        close(listeningDescriptor)
    }

    /// Waits for the thread to end (once).
    func join() {
        guard
            let handle = thread.withLock({ current -> pthread_t? in
                defer { current = nil }
                return current
            })
        else { return }
        pthread_join(handle, nil)
    }

    // MARK: - Loop thread: set-up and tear-down

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

    private func runLoop() {
        // The listening socket is ours until evhttp's listener takes it.
        var unownedDescriptor: Int32? = listeningDescriptor
        defer { if let unownedDescriptor { close(unownedDescriptor) } }
        let context = Unmanaged.passUnretained(self).toOpaque()

        guard let base = Self.makeEventBase() else { return failStart("event_base_new") }
        defer { event_base_free(base) }
        // Runs after evhttp_free below has closed every connection.
        defer { releaseAllConnections() }
        guard let http = evhttp_new(base) else { return failStart("evhttp_new") }
        defer { evhttp_free(http) }

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
        evhttp_set_gencb(
            http,
            { request, argument in
                guard let request, let argument else { return }
                Unmanaged<EventLoopWorker>.fromOpaque(argument).takeUnretainedValue().answer(request)
            }, context)
        evhttp_set_bevcb(
            http,
            { base, argument in
                guard let base, let argument else { return nil }
                return Unmanaged<EventLoopWorker>.fromOpaque(argument).takeUnretainedValue().makeBufferEvent(base)
            }, context)

        guard let bound = evhttp_accept_socket_with_handle(http, listeningDescriptor) else {
            return failStart("evhttp_accept_socket_with_handle")
        }
        unownedDescriptor = nil
        // evhttp_free (or the drain) frees the bound socket and closes it.
        ListenerErrorRoute.register(http: http, worker: self)
        defer { ListenerErrorRoute.unregister(http: http) }
        evconnlistener_set_error_cb(evhttp_bound_socket_get_listener(bound)) { listener, http in
            ListenerErrorRoute.worker(for: http)?.pauseAccepting()
        }

        guard
            let sweepTimer = clibevent_timer_new(
                base, 1,
                { _, _, argument in
                    guard let argument else { return }
                    Unmanaged<EventLoopWorker>.fromOpaque(argument).takeUnretainedValue().sweep()
                }, context)
        else { return failStart("event_new(sweep)") }
        defer { event_free(sweepTimer) }
        guard
            let deadlineTimer = clibevent_timer_new(
                base, 0,
                { _, _, argument in
                    guard let argument else { return }
                    Unmanaged<EventLoopWorker>.fromOpaque(argument).takeUnretainedValue().forceClose()
                }, context)
        else { return failStart("event_new(deadline)") }
        defer { event_free(deadlineTimer) }
        guard
            let acceptResumeTimer = clibevent_timer_new(
                base, 0,
                { _, _, argument in
                    guard let argument else { return }
                    Unmanaged<EventLoopWorker>.fromOpaque(argument).takeUnretainedValue().resumeAccepting()
                }, context)
        else { return failStart("event_new(accept)") }
        defer { event_free(acceptResumeTimer) }
        guard
            let listenerCloseTimer = clibevent_timer_new(
                base, 0,
                { _, _, argument in
                    guard let argument else { return }
                    Unmanaged<EventLoopWorker>.fromOpaque(argument).takeUnretainedValue()
                        .closeListenerOnceQueueIsEmpty()
                }, context)
        else { return failStart("event_new(listener close)") }
        defer { event_free(listenerCloseTimer) }
        guard
            let drainEvent = clibevent_user_event_new(
                base,
                { _, _, argument in
                    guard let argument else { return }
                    Unmanaged<EventLoopWorker>.fromOpaque(argument).takeUnretainedValue().beginDrain()
                }, context)
        else { return failStart("event_new(drain)") }
        defer { event_free(drainEvent) }
        guard
            let forceEvent = clibevent_user_event_new(
                base,
                { _, _, argument in
                    guard let argument else { return }
                    Unmanaged<EventLoopWorker>.fromOpaque(argument).takeUnretainedValue().forceClose()
                }, context)
        else { return failStart("event_new(force)") }
        defer { event_free(forceEvent) }

        self.base = base
        self.http = http
        self.boundSocket = bound
        self.sweepTimer = sweepTimer
        self.deadlineTimer = deadlineTimer
        self.acceptResumeTimer = acceptResumeTimer
        self.listenerCloseTimer = listenerCloseTimer
        var interval = MonotonicClock.timeval(nanoseconds: Self.sweepIntervalNanoseconds)
        event_add(sweepTimer, &interval)

        wakeups.withLock { $0 = Wakeups(drain: drainEvent, forceClose: forceEvent) }
        started.signal()
        if event_base_loop(base, EVLOOP_NO_EXIT_ON_EMPTY) < 0 {
            DiagnosticLog.write(
                "{\"event\":\"worker-error\",\"worker\":\(index),\"detail\":\"event_base_loop failed\"}",
                to: DiagnosticLog.standardOutput)
        }
        // From here on the control thread can no longer wake this loop.
        wakeups.withLock { $0 = nil }
        self.base = nil
        self.http = nil
        self.boundSocket = nil
        self.sweepTimer = nil
        self.deadlineTimer = nil
        self.acceptResumeTimer = nil
        self.listenerCloseTimer = nil
    }

    private func failStart(_ what: String) {
        startError.withLock { $0 = .libeventFailed(what) }
        started.signal()
    }

    private func releaseAllConnections() {
        for record in connections.values { record.release() }
        connections.removeAll()
    }

    // MARK: - Loop thread: connections

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
    private func makeBufferEvent(_ base: OpaquePointer) -> OpaquePointer? {
        guard let bufferEvent = bufferevent_socket_new(base, -1, Int32(BEV_OPT_CLOSE_ON_FREE.rawValue)) else {
            return nil
        }
        var readTimeout = MonotonicClock.timeval(nanoseconds: readTimeoutNanoseconds)
        var writeTimeout = MonotonicClock.timeval(nanoseconds: writeTimeoutNanoseconds)
        bufferevent_set_timeouts(bufferEvent, &readTimeout, &writeTimeout)
        bufferevent_incref(bufferEvent)
        let record = ConnectionRecord(bufferEvent: bufferEvent)
        record.watchInput()
        connections[UInt(bitPattern: bufferEvent)] = record
        return bufferEvent
    }

    private func record(for request: OpaquePointer) -> ConnectionRecord? {
        guard let connection = evhttp_request_get_connection(request),
            let bufferEvent = evhttp_connection_get_bufferevent(connection)
        else { return nil }
        return connections[UInt(bitPattern: bufferEvent)]
    }

    /// Drops records of closed connections; closes connections whose request
    /// is arriving too slowly and, while draining, idle ones.
    private func sweep() {
        let now = MonotonicClock.nanoseconds()
        for (key, record) in connections {
            guard let connection = record.connection else {
                record.release()
                connections[key] = nil
                continue
            }
            let isTooSlow =
                !record.isHandlingRequest
                && record.requestStartNanoseconds.map { now &- $0 > readTimeoutNanoseconds } == true
            if isTooSlow || (isDraining && record.isIdle) {
                evhttp_connection_free(connection)
                record.release()
                connections[key] = nil
            }
        }
        if isDraining && connections.isEmpty, let base {
            event_base_loopexit(base, nil)
        }
    }

    private func beginDrain() {
        guard !isDraining, let sweepTimer, let deadlineTimer else { return }
        isDraining = true
        closeListenerOnceQueueIsEmpty()
        let now = MonotonicClock.nanoseconds()
        let deadline = drainDeadlineNanoseconds.load(ordering: .acquiring)
        var remaining = MonotonicClock.timeval(nanoseconds: deadline > now ? deadline - now : 0)
        event_add(deadlineTimer, &remaining)
        var interval = MonotonicClock.timeval(nanoseconds: Self.drainSweepIntervalNanoseconds)
        event_add(sweepTimer, &interval)
        sweep()
    }

    /// Closes the listener, after letting the loop accept what the kernel
    /// has already queued (those clients connected before the drain).
    private func closeListenerOnceQueueIsEmpty() {
        guard let http, let boundSocket, let listenerCloseTimer else { return }
        let listener = evhttp_bound_socket_get_listener(boundSocket)
        var poller = pollfd(fd: evconnlistener_get_fd(listener), events: Int16(POLLIN), revents: 0)
        if poll(&poller, 1, 0) > 0 && listenerCloseRetries < Self.listenerCloseMaxRetries {
            listenerCloseRetries += 1
            evconnlistener_enable(listener)
            var retry = MonotonicClock.timeval(nanoseconds: Self.listenerCloseRetryNanoseconds)
            event_add(listenerCloseTimer, &retry)
            return
        }
        evhttp_del_accept_socket(http, boundSocket)
        self.boundSocket = nil
    }

    private func forceClose() {
        for record in connections.values {
            if let connection = record.connection {
                evhttp_connection_free(connection)
                forcedCloseCount.add(1, ordering: .relaxed)
            }
            record.release()
        }
        connections.removeAll()
        if let base { event_base_loopexit(base, nil) }
    }

    /// accept() failed for a reason a retry will not fix soon (EMFILE,
    /// ENFILE, ENOBUFS): stop watching the listener for a moment instead of
    /// spinning on it.
    fileprivate func pauseAccepting() {
        guard let boundSocket, let acceptResumeTimer else { return }
        evconnlistener_disable(evhttp_bound_socket_get_listener(boundSocket))
        var pause = MonotonicClock.timeval(nanoseconds: Self.acceptPauseNanoseconds)
        event_add(acceptResumeTimer, &pause)
    }

    private func resumeAccepting() {
        guard let boundSocket else { return }
        evconnlistener_enable(evhttp_bound_socket_get_listener(boundSocket))
    }

    // MARK: - Loop thread: requests

    /// evhttp's callback for a complete request: the one place that replies.
    private func answer(_ request: OpaquePointer) {
        let completedAt = MonotonicClock.nanoseconds()
        if let record = record(for: request) {
            record.noteRequestComplete()
            // The record outlives this callback: it leaves `connections` only
            // once evhttp has freed the connection, and the request with it.
            evhttp_request_set_on_complete_cb(
                request,
                { _, argument in
                    guard let argument else { return }
                    Unmanaged<ConnectionRecord>.fromOpaque(argument)._withUnsafeGuaranteedRef { $0.noteReplyWritten() }
                }, Unmanaged.passUnretained(record).toOpaque())
        }
        let (value, response) = respond(to: request)
        send(response, for: request)
        handler.didRespond(to: value, with: response, durationNanoseconds: MonotonicClock.nanoseconds() &- completedAt)
    }

    /// The request as a value and the handler's response (or its rejection
    /// when the target or body is over the limit).
    private func respond(to request: OpaquePointer) -> (HTTPRequest, HTTPResponse) {
        let target = evhttp_request_get_uri(request).map { strlen($0) } ?? 0
        var value = HTTPRequest(
            method: Self.methodName(evhttp_request_get_command(request)),
            path: Self.path(of: request),
            headers: Self.headers(of: request))
        if target > configuration.maxURIBytes {
            return (value, handler.reject(value, because: .uriTooLong(maxBytes: configuration.maxURIBytes)))
        }
        guard let input = evhttp_request_get_input_buffer(request) else {
            return (value, handler.handle(value))
        }
        let bodyByteCount = evbuffer_get_length(input)
        if bodyByteCount > configuration.maxBodyBytes {
            return (value, handler.reject(value, because: .bodyTooLarge(maxBytes: configuration.maxBodyBytes)))
        }
        // Copied, not removed: evhttp frees the buffer with the request. A
        // body in one piece (a small one) is copied straight into a new array;
        // Array(unsafeUninitializedCapacity:) looks up its storage type's
        // metadata at run time, which costs more than the copy.
        if bodyByteCount > 0 {
            if evbuffer_get_contiguous_space(input) >= bodyByteCount,
                let contiguous = evbuffer_pullup(input, bodyByteCount)
            {
                value.body = Array(UnsafeBufferPointer(start: contiguous, count: bodyByteCount))
            } else {
                value.body = [UInt8](unsafeUninitializedCapacity: bodyByteCount) { buffer, count in
                    count = max(0, Int(evbuffer_copyout(input, buffer.baseAddress, bodyByteCount)))
                }
            }
        }
        return (value, handler.handle(value))
    }

    private func send(_ response: HTTPResponse, for request: OpaquePointer) {
        let status = (100...599).contains(response.status) ? response.status : 500
        if let headers = evhttp_request_get_output_headers(request) {
            var hasFraming = false
            var hasDate = false
            for header in response.headers {
                // withCString lends a native string's own bytes; passing the
                // String straight to C would copy it into a new array each time.
                header.name.withCString { name in
                    header.value.withCString { value in
                        // evhttp refuses names and values with CR or LF (no header injection).
                        _ = evhttp_add_header(headers, name, value)
                    }
                }
                // Fields evhttp would add are not added twice. Most names
                // differ in length from these and need no lowercasing.
                switch header.name.utf8.count {
                case 4: hasDate = hasDate || header.name.lowercased() == "date"
                case 14: hasFraming = hasFraming || header.name.lowercased() == "content-length"
                case 17: hasFraming = hasFraming || header.name.lowercased() == "transfer-encoding"
                default: break
                }
            }
            // Added here so evhttp does not: it formats both with snprintf per reply.
            if !hasDate {
                dateField.withCurrentValue { date in
                    if let date { _ = evhttp_add_header(headers, "Date", date) }
                }
            }
            // Where evhttp would add Content-Length (a reply that has content),
            // and also for HTTP/1.0 without keep-alive, where it is harmless.
            if !hasFraming && status >= 200 && status != 204 && status != 304
                && evhttp_request_get_command(request) != EVHTTP_REQ_HEAD
            {
                Self.withDecimal(response.body.count) { _ = evhttp_add_header(headers, "Content-Length", $0) }
            }
            if isDraining {
                _ = evhttp_remove_header(headers, "Connection")
                _ = evhttp_add_header(headers, "Connection", "close")
            }
        }
        if let output = evhttp_request_get_output_buffer(request), !response.body.isEmpty {
            response.body.withUnsafeBytes { bytes in
                _ = evbuffer_add(output, bytes.baseAddress, bytes.count)
            }
        }
        let reason = HTTPStatus.reasonPhrase(status)
        reason.utf8Start.withMemoryRebound(to: CChar.self, capacity: reason.utf8CodeUnitCount + 1) {
            evhttp_send_reply(request, Int32(status), $0, nil)
        }
    }

    /// `value` in decimal, NUL-terminated, without snprintf.
    private static func withDecimal<Result>(_ value: Int, _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 24) { digits in
            var remaining = UInt(max(0, value))
            var index = 23
            digits[index] = 0
            repeat {
                index -= 1
                digits[index] = CChar(0x30 + remaining % 10)
                remaining /= 10
            } while remaining > 0
            return body(UnsafePointer(digits.baseAddress! + index))
        }
    }

    private static func methodName(_ command: evhttp_cmd_type) -> String {
        switch command {
        case EVHTTP_REQ_GET: "GET"
        case EVHTTP_REQ_POST: "POST"
        case EVHTTP_REQ_HEAD: "HEAD"
        case EVHTTP_REQ_PUT: "PUT"
        case EVHTTP_REQ_DELETE: "DELETE"
        case EVHTTP_REQ_OPTIONS: "OPTIONS"
        case EVHTTP_REQ_TRACE: "TRACE"
        case EVHTTP_REQ_CONNECT: "CONNECT"
        case EVHTTP_REQ_PATCH: "PATCH"
        default: "UNKNOWN"
        }
    }

    private static func path(of request: OpaquePointer) -> String {
        guard let uri = evhttp_request_get_evhttp_uri(request), let path = evhttp_uri_get_path(uri) else {
            return ""
        }
        return String(cString: path)
    }

    private static func headers(of request: OpaquePointer) -> [(name: String, value: String)] {
        guard let list = evhttp_request_get_input_headers(request) else { return [] }
        var headers: [(name: String, value: String)] = []
        // A request has a handful of fields: one allocation, not a series of regrowths.
        headers.reserveCapacity(8)
        var entry = clibevent_header_first(list)
        while let current = entry {
            if let key = current.pointee.key, let value = current.pointee.value {
                headers.append((name: lowercasedName(key), value: String(cString: value)))
            }
            entry = clibevent_header_next(current)
        }
        return headers
    }

    /// A field name in lower case. Names are ASCII tokens (RFC 9110 section 5.1),
    /// and for ASCII, folding A-Z on the bytes is what `lowercased()` does,
    /// without its Unicode tables; any other name takes the general path.
    private static func lowercasedName(_ name: UnsafePointer<CChar>) -> String {
        let byteCount = strlen(name)
        return name.withMemoryRebound(to: UInt8.self, capacity: byteCount) { start in
            let bytes = UnsafeBufferPointer(start: start, count: byteCount)
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return String(cString: name).lowercased() }
            return String(unsafeUninitializedCapacity: byteCount) { output in
                for index in 0..<byteCount {
                    let byte = bytes[index]
                    output[index] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                }
                return byteCount
            }
        }
    }
}

/// Finds the worker for a listener's error callback, whose argument is the
/// `evhttp` (evhttp owns the listener's callback argument).
private enum ListenerErrorRoute {
    private static let workers = Locked<[UInt: Unmanaged<EventLoopWorker>]>([:])

    static func register(http: OpaquePointer, worker: EventLoopWorker) {
        workers.withLock { $0[UInt(bitPattern: http)] = Unmanaged.passUnretained(worker) }
    }

    static func unregister(http: OpaquePointer) {
        _ = workers.withLock { $0.removeValue(forKey: UInt(bitPattern: http)) }
    }

    static func worker(for http: UnsafeMutableRawPointer?) -> EventLoopWorker? {
        guard let http else { return nil }
        return workers.withLock { $0[UInt(bitPattern: http)]?.takeUnretainedValue() }
    }
}
