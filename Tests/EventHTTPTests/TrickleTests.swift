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
}
