import EventHTTP
import HTTPTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A body that trickles in is handed over by the kernel in pieces of 2 KiB
/// (`SO_RCVLOWAT`), and its last bytes as soon as they come; what the kernel
/// holds back still counts toward the body's rate. Live: a real
/// `HTTPServer` on 127.0.0.1, raw sockets as the client.
@Suite struct TrickleTests {
    private static func configuration() -> HTTPServerConfiguration {
        var configuration = LiveServer.testConfiguration()
        configuration.maxBodyBytes = 65_536
        configuration.headGraceSeconds = 0.5
        configuration.minBodyBytesPerSecond = 500
        return configuration
    }

    private static func body(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: 0x41 + $0 % 26) }
    }

    /// 5,000 bytes in pieces of 50, then the last 3 only after a pause: the
    /// body arrives whole, its end is not held back, and the request sent
    /// behind it on the same connection is read at once.
    @Test func tricklingBody_arrivesWhole_andItsLastBytesAreNotHeldBack() throws {
        let live = try LiveServer(configuration: Self.configuration(), handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        let body = Self.body(5_000)
        try connection.send("POST /trickle HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.count)\r\n\r\n")
        var sent = 0
        while sent < body.count - 3 {
            let piece = min(50, body.count - 3 - sent)
            try connection.send(Array(body[sent..<(sent + piece)]))
            sent += piece
            usleep(2_000)
        }
        #expect(!connection.waitUntilReadable(timeoutSeconds: 0.3), "no answer before the body's end")
        try connection.send(Array(body[sent...]))
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.body == body)
        try connection.send("GET /next HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(connection.waitUntilReadable(timeoutSeconds: 1), "the next head is read at once")
        #expect(try connection.readResponse().header("x-path") == "/next")
    }

    /// 100 bytes every 50 ms (2 KB/s, four times the 500 B/s minimum, so a
    /// busy host's late wake-ups keep it above) for 1.6 s, past the 0.5 s
    /// grace: the loop sees the first 100 bytes alone until 2 KiB or the
    /// body's end wait in the kernel, yet the body is not closed as too
    /// slow, and is answered whole.
    @Test func bodyAboveTheMinimumRate_isNotClosed_whileTheKernelHoldsItsBytesBack() throws {
        let live = try LiveServer(configuration: Self.configuration(), handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        let body = Self.body(3_200)
        try connection.send("POST /steady HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.count)\r\n\r\n")
        for start in stride(from: 0, to: body.count, by: 100) {
            try connection.send(Array(body[start..<(start + 100)]))
            usleep(50_000)
        }
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.body == body)
    }

    /// While the mark is up the kernel may hold back up to the mark's bytes
    /// with each segment's overhead: the budget is charged four times the
    /// mark for them (8 KiB beside the connection's own 8 KiB), and no longer
    /// once the body is whole.
    @Test func heldBackBytes_areCharged_whileTheMarkIsUp() throws {
        var configuration = Self.configuration()
        configuration.threadCount = 1
        configuration.memoryBudgetBytes = 64 << 20
        let live = try LiveServer(configuration: configuration, handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        let body = Self.body(3_000)
        try connection.send("POST /held HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.count)\r\n\r\n")
        usleep(20_000)
        try connection.send(Array(body[..<100]))
        #expect(Self.charged(live, becomes: 16_384), "8 KiB for the connection, 8 KiB held back")
        try connection.send(Array(body[100...]))
        let response = try connection.readResponse()
        #expect(response.body == body)
        #expect(Self.charged(live, becomes: 8_192), "the connection's own 8 KiB once the mark is down")
    }

    /// Waits (2 s at most) until the server's charge is `bytes`.
    private static func charged(_ live: LiveServer, becomes bytes: Int) -> Bool {
        for _ in 0..<200 {
            if live.server.chargedMemoryBytes == bytes { return true }
            usleep(10_000)
        }
        return live.server.chargedMemoryBytes == bytes
    }
}
