import EventHTTP
import HTTPTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// When a loop gives the allocator's unused memory back (`FreedMemory`,
/// `ConnectionTable.sweep`): after large bodies and replies, not after many
/// small requests, whose reply allowance is reserved but never allocated.
/// Live: a real `HTTPServer` on 127.0.0.1 with one loop; the count comes
/// from its stop report.
@Suite struct MemoryGiveBackTests {
    private static func request(body: [UInt8]) -> [UInt8] {
        Array("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
    }

    private static func configuration() -> HTTPServerConfiguration {
        var configuration = LiveServer.testConfiguration()
        configuration.threadCount = 1
        configuration.maxBodyBytes = 1 << 20
        return configuration
    }

    /// 300 requests of 100 bytes reserve 300 × 64 KiB of reply allowance
    /// (19 MiB, past the 8 MiB threshold) but hold 300 bytes each: no give-back.
    @Test func manySmallRequests_giveNothingBack() throws {
        let live = try LiveServer(configuration: Self.configuration(), handler: EchoHandler())
        let connection = try RawHTTPConnection(port: live.port)
        let body = [UInt8](repeating: UInt8(ascii: "a"), count: 100)
        for index in 0..<300 {
            try connection.send(Self.request(body: body))
            #expect(try connection.readResponse().status == 200, "request \(index)")
        }
        // Past two sweeps (every 250 ms) and the second of quiet.
        usleep(1_300_000)
        connection.close()
        let report = try live.stop()
        #expect(report.memoryGiveBackCount == 0)
    }

    /// Six bodies of 800,000 bytes, each echoed (9.6 MB held in all), then a
    /// quiet second: the loop gives memory back.
    @Test func largeBodies_thenQuiet_giveMemoryBack() throws {
        let live = try LiveServer(configuration: Self.configuration(), handler: EchoHandler())
        let connection = try RawHTTPConnection(port: live.port)
        let body = [UInt8](repeating: UInt8(ascii: "b"), count: 800_000)
        for index in 0..<6 {
            try connection.send(Self.request(body: body))
            let response = try connection.readResponse()
            #expect(response.status == 200 && response.body.count == body.count, "request \(index)")
        }
        usleep(1_600_000)
        connection.close()
        let report = try live.stop()
        #expect(report.memoryGiveBackCount >= 1)
    }
}
