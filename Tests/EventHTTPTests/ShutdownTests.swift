import Dispatch
import EventHTTP
import HTTPCore
import HTTPTestSupport
import Testing

/// Live tests of the drain (`HTTPServer.shutdown()`, as SIGTERM starts it):
/// requests in flight finish, listeners close, idle connections get one more
/// answer (with `Connection: close`), and what is left at the deadline is closed. Each waits for an event it can
/// see (acknowledged bytes, a refused connect, a state change), never a pause.
@Suite struct ShutdownTests {
    /// A second request begun on a connection before the drain is not taken
    /// for an idle connection: it is answered, then the connection closes.
    @Test func shutdown_secondRequestArrivingOnAnsweredConnection_isFinished() throws {
        let handler = EchoHandler()
        let live = try LiveServer(handler: handler) { handler.setState($0) }
        let connection = try RawHTTPConnection(port: live.port)
        try connection.send("GET /warm HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try connection.readResponse().status == 200)
        try connection.send("GET /second HTTP/1.1\r\nHost: t\r\n")  // head not finished yet
        #expect(connection.waitUntilSentBytesAreAcknowledged())
        live.server.shutdown()
        // Every loop has begun its drain (and swept) once no listener is left.
        #expect(connectionsAreRefused(port: live.port, withinSeconds: 2))
        try connection.send("\r\n")
        let response = try connection.readResponse()
        #expect(response.header("x-path") == "/second")
        #expect(response.header("connection") == "close")
        #expect(connection.isClosedByPeer())
        #expect(try live.waitForStop(timeoutSeconds: 10).forcedCloseCount == 0)
    }

    @Test func shutdown_finishesRequestInFlight_answersIdleConnectionsOnceMore_refusesNewOnes() throws {
        let handler = EchoHandler()
        let states = Locked<[ServerState]>([])
        let live = try LiveServer(handler: handler) { state in
            handler.setState(state)
            states.withLock { $0.append(state) }
        }
        let idle = try RawHTTPConnection(port: live.port)
        try idle.send("GET /warm HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try idle.readResponse().status == 200)
        let inFlight = try RawHTTPConnection(port: live.port)
        try inFlight.send("GET /readyz HTTP/1.1\r\nHost: t\r\n")  // head not finished yet
        // Bytes the server has not even received yet cannot tell it a request
        // is coming (that race is inherent in closing idle connections).
        #expect(inFlight.waitUntilSentBytesAreAcknowledged())

        live.server.shutdown()
        #expect(connectionsAreRefused(port: live.port, withinSeconds: 2))
        // The idle keep-alive connection stays open: a client that reuses it
        // gets its answer, with Connection: close, instead of a reset.
        try idle.send("GET /late HTTP/1.1\r\nHost: t\r\n\r\n")
        let late = try idle.readResponse()
        #expect(late.header("x-path") == "/late")
        #expect(late.header("connection") == "close")
        #expect(idle.isClosedByPeer())

        try inFlight.send("\r\n")
        let response = try inFlight.readResponse()
        #expect(response.status == 503, "readiness says draining")
        #expect(response.header("connection") == "close")
        #expect(inFlight.isClosedByPeer())

        let report = try live.waitForStop(timeoutSeconds: 10)
        #expect(report.reason == "shutdown")
        #expect(report.forcedCloseCount == 0)
        #expect(states.withLock { $0 } == [.running, .draining, .stopped])
    }

    @Test func shutdown_whileHandlerRuns_requestCompletesThenConnectionCloses() throws {
        let handler = EchoHandler()
        let draining = DispatchSemaphore(value: 0)
        let live = try LiveServer(handler: handler) { if $0 == .draining { draining.signal() } }
        let connection = try RawHTTPConnection(port: live.port)
        try connection.send("GET /gated HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(handler.gateReached.wait(timeout: .now() + 5) == .success)
        live.server.shutdown()
        #expect(draining.wait(timeout: .now() + 5) == .success)
        handler.openGate()
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.header("x-path") == "/gated")
        #expect(connection.isClosedByPeer())
        let report = try live.waitForStop(timeoutSeconds: 10)
        #expect(report.forcedCloseCount == 0)
    }

    @Test func shutdown_closesStalledConnectionsAtDrainDeadline() throws {
        var configuration = LiveServer.testConfiguration()
        configuration.drainSeconds = 0.5
        configuration.readTimeoutSeconds = 30
        let live = try LiveServer(configuration: configuration, handler: EchoHandler())
        let stalled = try RawHTTPConnection(port: live.port)
        try stalled.send("POST /never-finished HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\npartial")
        #expect(stalled.waitUntilSentBytesAreAcknowledged())
        let report = try live.stop(timeoutSeconds: 10)
        #expect(report.forcedCloseCount == 1)
        #expect(report.drainNanoseconds >= 400_000_000)
        #expect(stalled.isClosedByPeer())
    }

    /// Only a connection silent through the whole drain is closed, at its
    /// end; it had no request under way, so it is no forced close.
    @Test func shutdown_silentIdleConnection_isClosedAtTheDeadline_notCountedAsForced() throws {
        var configuration = LiveServer.testConfiguration()
        configuration.drainSeconds = 0.5
        let live = try LiveServer(configuration: configuration, handler: EchoHandler())
        let idle = try RawHTTPConnection(port: live.port)
        try idle.send("GET /warm HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try idle.readResponse().status == 200)
        let report = try live.stop(timeoutSeconds: 10)
        #expect(report.forcedCloseCount == 0)
        #expect(report.drainNanoseconds >= 400_000_000)
        #expect(idle.isClosedByPeer())
    }

    /// Where clients reconnect at once (the metrics listener's scrapers),
    /// idle connections close as the drain starts.
    @Test func shutdown_withoutKeepingIdleConnections_closesThemAtOnce() throws {
        var configuration = LiveServer.testConfiguration()
        configuration.keepsIdleConnectionsWhileDraining = false
        configuration.drainSeconds = 30
        let live = try LiveServer(configuration: configuration, handler: EchoHandler())
        let idle = try RawHTTPConnection(port: live.port)
        try idle.send("GET /warm HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try idle.readResponse().status == 200)
        live.server.shutdown()
        #expect(idle.isClosedByPeer())
        let report = try live.waitForStop(timeoutSeconds: 10)
        #expect(report.drainNanoseconds < 5_000_000_000)
    }
}
