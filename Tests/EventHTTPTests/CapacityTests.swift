import EventHTTP
import HTTPCore
import HTTPTestSupport
import Testing

/// Live tests of what happens when connections run short of slots or of
/// memory: idle connections make room first, slow bodies are closed, bodies
/// are charged as their bytes arrive, and probes are answered whatever the
/// load (docs/adr/0036-connections-charged-for-bytes-held.md).
@Suite struct CapacityTests {
    static func configuration(maxConnections: Int, memoryBudgetBytes: Int? = nil) -> HTTPServerConfiguration {
        var configuration = LiveServer.testConfiguration()
        configuration.threadCount = 1
        configuration.maxConnections = maxConnections
        configuration.memoryBudgetBytes = memoryBudgetBytes
        configuration.maxBodyBytes = 262_144
        // Uploads here pause as they like, but the one test of the rate.
        configuration.minBodyBytesPerSecond = 0
        return configuration
    }

    /// A connection that has sent a head declaring `bodyBytes` and the first
    /// bytes of the body: an upload under way, neither idle nor a head. Its
    /// `100 Continue` shows the server has read the head (a connection whose
    /// head is not read yet counts as a slow head, which a new one may displace).
    static func upload(port: Int, bodyBytes: Int = 4_000) throws -> RawHTTPConnection {
        let connection = try RawHTTPConnection(port: port)
        try connection.send(
            "POST /up HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: \(bodyBytes)\r\n\r\n")
        #expect(try connection.readResponse(isBodyless: true).status == 100)
        try connection.send("abc")
        _ = connection.waitUntilSentBytesAreAcknowledged()
        return connection
    }

    @Test func probe_pastTheLimitWithNothingToMakeRoom_isAnswered_andAnythingElseGets503() throws {
        let live = try LiveServer(configuration: Self.configuration(maxConnections: 2), handler: EchoHandler())
        defer { _ = try? live.stop() }
        let uploads = [try Self.upload(port: live.port), try Self.upload(port: live.port)]
        for _ in 0..<3 {
            let probe = try RawHTTPConnection(port: live.port)
            try probe.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            let answer = try probe.readResponse()
            #expect(answer.status == 200)
            #expect(answer.header("connection") == "close")
        }
        let other = try RawHTTPConnection(port: live.port)
        try other.send("GET /echo HTTP/1.1\r\nHost: t\r\n\r\n")
        let refused = try other.readResponse()
        #expect(refused.status == 503)
        #expect(refused.text.contains("tooManyConnections(limit: 2)"), "the limit held is the connections'")
        let otherUpload = try RawHTTPConnection(port: live.port)
        try otherUpload.send("POST /up HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nabc")
        #expect(try otherUpload.readResponse().status == 503)
        // The uploads were not disturbed.
        for upload in uploads {
            try upload.send(String(repeating: "b", count: 3_997))
            #expect(try upload.readResponse().status == 200)
        }
    }

    @Test func idleConnections_makeRoomForANewOne_idleLongestFirst() throws {
        let live = try LiveServer(configuration: Self.configuration(maxConnections: 3), handler: EchoHandler())
        defer { _ = try? live.stop() }
        var idle: [RawHTTPConnection] = []
        for _ in 0..<3 {
            let connection = try RawHTTPConnection(port: live.port)
            try connection.send("GET /a HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try connection.readResponse().status == 200)
            idle.append(connection)
        }
        // Used again: now the most recently idle.
        try idle[0].send("GET /again HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try idle[0].readResponse().status == 200)
        let new = try RawHTTPConnection(port: live.port)
        try new.send("GET /new HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try new.readResponse().status == 200)
        #expect(idle[1].closes(withinSeconds: 2))
        for connection in [idle[0], idle[2]] {
            try connection.send("GET /still HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try connection.readResponse().status == 200)
        }
    }

    @Test func body_belowTheMinimumRate_isClosed_afterTheGrace() throws {
        var configuration = Self.configuration(maxConnections: 16)
        configuration.headGraceSeconds = 0.5
        configuration.minBodyBytesPerSecond = 500
        let live = try LiveServer(configuration: configuration, handler: EchoHandler())
        defer { _ = try? live.stop() }
        let slow = try Self.upload(port: live.port)
        #expect(slow.closes(withinSeconds: 3))
        // One at the rate is answered.
        let steady = try RawHTTPConnection(port: live.port)
        try steady.send("POST /up HTTP/1.1\r\nHost: t\r\nContent-Length: 1200\r\n\r\n")
        for _ in 0..<4 {
            try steady.send(String(repeating: "c", count: 300))
            _ = steady.waitUntilReadable(timeoutSeconds: 0.2)
        }
        #expect(try steady.readResponse().status == 200)
    }

    @Test func idleConnections_costAFewKibibytes_andMakeRoomForABody_idleLongestFirst() throws {
        // 24 idle connections at 8 KiB each and a 60 KB body (charged twice:
        // the input's chains) fit; its reply, with what the kernel may
        // hold while it is pending, does not until 8 idle ones are closed.
        // Charged a head and a largest body each, none would fit.
        let budget = 25 * 8_192 + 150 * 1_024 + HTTPServerConfiguration.socketHeldBytes
        let live = try LiveServer(
            configuration: Self.configuration(maxConnections: 1_000, memoryBudgetBytes: budget), handler: EchoHandler())
        defer { _ = try? live.stop() }
        var idle: [RawHTTPConnection] = []
        for _ in 0..<24 {
            let connection = try RawHTTPConnection(port: live.port)
            try connection.send("GET /a HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try connection.readResponse().status == 200)
            idle.append(connection)
        }
        let body = String(repeating: "d", count: 60_000)
        let upload = try RawHTTPConnection(port: live.port)
        try upload.send("POST /up HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
        let answer = try upload.readResponse()
        #expect(answer.status == 200)
        #expect(answer.body.count == body.utf8.count)
        #expect(idle[0].closes(withinSeconds: 2))
        try idle[23].send("GET /still HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try idle[23].readResponse().status == 200)
    }

    @Test func slowUpload_isClosed_whenALargeBodyNeedsRoom() throws {
        // The fast body's promise (4 x 100 KB + 64 KiB, and what the kernel may hold) fits only once the
        // slow upload's charge is gone.
        let budget = 500 * 1_024 + HTTPServerConfiguration.socketHeldBytes
        var configuration = Self.configuration(maxConnections: 100, memoryBudgetBytes: budget)
        configuration.slowUploadBytesPerSecond = 16_384
        let live = try LiveServer(configuration: configuration, handler: EchoHandler())
        defer { _ = try? live.stop() }
        let slow = try Self.upload(port: live.port, bodyBytes: 60_000)
        try slow.send(String(repeating: "s", count: 30_000))
        // Its average falls under 16 KiB a second, and the grace passes.
        #expect(!slow.waitUntilReadable(timeoutSeconds: 2.5))
        let body = String(repeating: "f", count: 100_000)
        let fast = try RawHTTPConnection(port: live.port)
        try fast.send("POST /up HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
        #expect(try fast.readResponse().status == 200)
        // Closed at once, so its body's buffers are free at once: no answer.
        #expect(slow.closes(withinSeconds: 2))
    }

    @Test func largeBody_thatCouldNotFinishBesideTheOnesUnderWay_gets503BeforeItIsRead() throws {
        let live = try LiveServer(
            configuration: Self.configuration(maxConnections: 100, memoryBudgetBytes: 700 * 1_024),
            handler: EchoHandler())
        defer { _ = try? live.stop() }
        let first = try Self.upload(port: live.port, bodyBytes: 100_000)
        try first.send(String(repeating: "g", count: 90_000))
        _ = first.waitUntilSentBytesAreAcknowledged()
        let second = try RawHTTPConnection(port: live.port)
        try second.send("POST /up HTTP/1.1\r\nHost: t\r\nContent-Length: 100000\r\n\r\n")
        let refused = try second.readResponse()
        #expect(refused.status == 503)
        #expect(refused.header("connection") == "close")
        #expect(refused.text.contains("memoryBudgetSpent(budgetBytes: 716800)"), "the limit held is the memory budget")
        try first.send(String(repeating: "g", count: 9_997))
        #expect(try first.readResponse().status == 200)
    }
}
