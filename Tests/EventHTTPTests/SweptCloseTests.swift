import EventHTTP
import HTTPTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The sweep closes at most `maxSweptClosesPerTurn` connections in one turn
/// of the loop and the rest a moment later, so a wave of connections that
/// go past a limit together is closed within the same sweep's time, and
/// another client's request is answered meanwhile. Live: one loop, raw
/// sockets as clients.
@Suite struct SweptCloseTests {
    /// 400 connections send a request line and no more, all within a few
    /// milliseconds: past the 0.5 s grace they go under the minimum rate
    /// together. All are closed within 0.2 s of the first (the next sweep
    /// would come 0.25 s later), and a request sent as they go is answered.
    @Test func waveOfSlowHeads_isClosedInTurns_withinOneSweep() throws {
        var configuration = LiveServer.testConfiguration()
        configuration.threadCount = 1
        configuration.maxConnections = 1_000
        configuration.headGraceSeconds = 0.5
        let live = try LiveServer(configuration: configuration, handler: EchoHandler())
        defer { _ = try? live.stop() }
        var slow: [RawHTTPConnection] = []
        for _ in 0..<400 { slow.append(try RawHTTPConnection(port: live.port)) }
        for connection in slow { try connection.send("POST /slow HTTP/1.1\r\n") }
        #expect(slow[0].closes(withinSeconds: 3))
        let firstClosed = MonotonicClock.seconds()
        let other = try RawHTTPConnection(port: live.port)
        try other.send("GET /meanwhile HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try other.readResponse().status == 200)
        var open = 0
        for connection in slow.dropFirst()
        where !connection.closes(withinSeconds: max(0.001, firstClosed + 0.2 - MonotonicClock.seconds())) {
            open += 1
        }
        #expect(open == 0, "\(open) of 400 slow heads open 0.2 s after the first closed")
    }
}

/// Seconds on the monotonic clock, for the test's own deadlines.
private enum MonotonicClock {
    static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
