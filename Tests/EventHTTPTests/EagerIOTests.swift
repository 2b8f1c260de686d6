import EventHTTP
import HTTPTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The adapter reads the rest of a `Content-Length` body as soon as the
/// head is complete (libevent reads 4 KiB a turn; ADR 0019). Live: a real
/// `HTTPServer` on 127.0.0.1, raw sockets as the client.
@Suite struct EagerIOTests {
    private static func body(_ count: Int, seed: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 &+ seed) &* 131 &+ $0 >> 7) }
    }

    private static func request(_ path: String, body: [UInt8]) -> [UInt8] {
        Array("POST \(path) HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
    }

    /// Bodies that end just before, at and after the first read's 4 KiB,
    /// past the 64 KiB read at once, each sent in one piece with the next
    /// request right behind it: each arrives whole, and the request behind
    /// it is answered on the same connection.
    @Test func bodiesAroundTheReadSizes_arriveWhole_andTheRequestBehindIsAnswered() throws {
        var configuration = LiveServer.testConfiguration()
        configuration.maxBodyBytes = 262_144
        let live = try LiveServer(configuration: configuration, handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        let head = Self.request("/sized", body: []).count
        for count in [4_000, 4_096 - head - 1, 4_096 - head, 4_096 - head + 1, 6_300, 8_192, 65_536, 70_000, 200_000] {
            let body = Self.body(count, seed: count)
            try connection.send(Self.request("/sized", body: body) + Self.request("/behind", body: Array("next".utf8)))
            let response = try connection.readResponse()
            #expect(response.status == 200, "body of \(count)")
            #expect(response.body == body, "body of \(count)")
            let behind = try connection.readResponse()
            #expect(behind.header("x-path") == "/behind", "after a body of \(count)")
            #expect(behind.text == "next", "after a body of \(count)")
        }
    }

    /// The head and the body's first part sent as exactly one libevent read
    /// (4 KiB), the rest only after a pause: the read at once finds the
    /// kernel empty (nothing is committed), and libevent reads the rest when
    /// it comes. Then the same with more than one read's worth first, so
    /// the read at once takes part of the body and libevent the rest.
    @Test func bodyWhoseRestComesLater_isReadWhenItComes() throws {
        var configuration = LiveServer.testConfiguration()
        configuration.maxBodyBytes = 65_536
        let live = try LiveServer(configuration: configuration, handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        let body = Self.body(12_000, seed: 7)
        let whole = Self.request("/later", body: body)
        for split in [4_096, 6_000] {
            try connection.send(Array(whole[..<split]))
            #expect(connection.waitUntilSentBytesAreAcknowledged())
            usleep(100_000)
            try connection.send(Array(whole[split...]))
            let response = try connection.readResponse()
            #expect(response.status == 200, "first \(split) bytes")
            #expect(response.body == body, "first \(split) bytes")
        }
        try connection.send("GET /next HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try connection.readResponse().header("x-path") == "/next")
    }
}
