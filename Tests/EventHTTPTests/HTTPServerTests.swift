import Dispatch
import EventHTTP
import HTTPCore
import HTTPTestSupport
import NotificationService
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Live tests: a real `HTTPServer` on 127.0.0.1 port 0, raw sockets as the
/// client. Timeouts bound every wait; none of them asserts a speed.
@Suite struct HTTPServerTests {
    @Test func keepAlive_severalRequestsOnOneConnection_allAnsweredOnIt() throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        for index in 0..<5 {
            try connection.send(
                "POST /echo/\(index) HTTP/1.1\r\nHost: t\r\nX-Test: n\(index)\r\nContent-Length: 5\r\n\r\nhello")
            let response = try connection.readResponse()
            #expect(response.status == 200, "request \(index)")
            #expect(response.header("x-path") == "/echo/\(index)")
            #expect(response.header("x-test") == "n\(index)")
            #expect(response.text == "hello")
            #expect(response.header("connection") != "close")
        }
    }

    /// A loop reuses a request's header and body storage for the next: each
    /// request on a connection still sees its own fields and body only.
    @Test func keepAlive_requestsOfDifferentShapes_eachSeesOnlyItsOwnFieldsAndBody() throws {
        var configuration = LiveServer.testConfiguration()
        configuration.maxBodyBytes = 200_000
        let live = try LiveServer(configuration: configuration, handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        let bodies = [
            String(repeating: "0123456789", count: 10_000), "abc", "", String(repeating: "q", count: 20_000), "xy",
        ]
        for (index, body) in bodies.enumerated() {
            let test = index % 2 == 0 ? "X-Test: n\(index)\r\n" : ""
            try connection.send(
                "POST /echo/\(index) HTTP/1.1\r\nHost: t\r\n\(test)Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
            let response = try connection.readResponse()
            #expect(response.status == 200, "request \(index)")
            #expect(response.text == body, "request \(index)")
            #expect(response.header("x-test") == (index % 2 == 0 ? "n\(index)" : "-"), "request \(index)")
        }
    }

    @Test func pipelinedRequests_areAnsweredInOrder() throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        try connection.send("GET /first HTTP/1.1\r\nHost: t\r\n\r\nGET /second HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try connection.readResponse().header("x-path") == "/first")
        #expect(try connection.readResponse().header("x-path") == "/second")
    }

    /// A reply larger than the client takes in at once is written in parts
    /// as the client reads, arrives whole, and the connection then serves
    /// its next request.
    @Test func largeReply_toClientReadingLate_arrivesWhole_thenConnectionServesNextRequest() throws {
        var configuration = LiveServer.testConfiguration()
        configuration.maxBodyBytes = 1_048_576
        let live = try LiveServer(configuration: configuration, handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port, receiveBufferBytes: 4_096)
        let body = (0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        try connection.send(
            Array("POST /large HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
        // The first part of the reply has arrived; the rest waits in the
        // server until the client reads.
        #expect(connection.waitUntilReadable())
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.body.count == body.count)
        #expect(response.body == body)
        try connection.send("GET /next HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try connection.readResponse().header("x-path") == "/next")
    }

    @Test func concurrentClients_eachGetsItsOwnAnswers() throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let failures = Locked<[String]>([])
        let port = live.port
        DispatchQueue.concurrentPerform(iterations: 8) { client in
            do {
                let connection = try RawHTTPConnection(port: port)
                for request in 0..<10 {
                    let body = "client \(client) request \(request)"
                    try connection.send(
                        "POST /c\(client) HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                    let response = try connection.readResponse()
                    if response.status != 200 || response.text != body || response.header("x-path") != "/c\(client)" {
                        failures.withLock {
                            $0.append("client \(client) request \(request): \(response.status) \(response.text)")
                        }
                    }
                }
            } catch {
                failures.withLock { $0.append("client \(client): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
    }

    @Test func chunkedRequestBody_reachesHandlerReassembled() throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        try connection.send(
            "POST /chunked HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5\r\nhello\r\n1\r\n \r\n6\r\nworld!\r\n0\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "hello world!")
    }

    @Test func body256KB_realService_isRendered() throws {
        var configuration = LiveServer.testConfiguration()
        configuration.maxBodyBytes = HTTPServerConfiguration().maxBodyBytes
        let service = NotificationTextService(configuration: ServiceConfiguration(accessLogEnabled: false))
        let live = try LiveServer(configuration: configuration, handler: service) { service.setState($0) }
        defer { _ = try? live.stop() }
        let text = String(repeating: "word **bold** `code` ", count: 256 * 1_024 / 21)
        let body = "{\"text\":\"\(text)\"}"
        #expect(body.utf8.count > 256 * 1_000)
        let connection = try RawHTTPConnection(port: live.port, timeoutSeconds: 10)
        try connection.send(
            "POST /body HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        )
        let response = try connection.readResponse()
        #expect(response.status == 200, "\(response.text)")
        #expect(response.text.contains("\"truncated\":true"))
    }

    /// Refused when the head arrives: the body is never read, the answer
    /// closes the connection, and a request sent after it is not answered.
    @Test func bodyOverLimit_gets413FromHandlerRejection_atTheHead_andTheConnectionCloses() throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        let body = String(repeating: "x", count: 4_097)
        try connection.send("POST /big HTTP/1.1\r\nHost: t\r\nContent-Length: 4097\r\n\r\n\(body)")
        try? connection.send("GET /after HTTP/1.1\r\nHost: t\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(response.header("content-type") == "application/problem+json")
        #expect(response.header("connection") == "close")
        // A refusal in the head names no path unless the handler screens heads.
        #expect(response.text == #"{"rejection":"bodyTooLarge(maxBytes: 4096)","path":""}"#)
        #expect(connection.isClosedByPeer())
    }

    @Test func expectContinue_overLimit_gets413WithoutContinue() throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        try connection.send("POST /big HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 5000\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(connection.isClosedByPeer())
    }

    /// Refusals found in the head reach the handler's `didReject`, once each.
    @Test func framingRefusal_isReportedToTheHandler_once() throws {
        let handler = EchoHandler()
        let live = try LiveServer(handler: handler)
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        try connection.send(
            "POST /x HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\nContent-Length: 35\r\n\r\n"
                + "GET /smuggled HTTP/1.1\r\nHost: t\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 400)
        #expect(response.text.hasPrefix(#"{"rejection":"badFraming("#))
        #expect(connection.isClosedByPeer())
        #expect(handler.rejected.withLock { $0 } == ["badFraming"])
    }

    @Test func expectContinue_withinLimit_gets100ThenTheAnswer() throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        try connection.send("POST /continue HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        #expect(try connection.readResponse().status == 100)
        try connection.send("body")
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "body")
    }

    @Test func bodyAtLimit_reachesHandler() throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        try connection.send(
            "POST /exact HTTP/1.1\r\nHost: t\r\nContent-Length: 4096\r\n\r\n" + String(repeating: "y", count: 4_096))
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.body.count == 4_096)
    }

    @Test func declaredLengthFarOverLimit_gets413AndClose_withoutSendingTheBody() throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        try connection.send("POST /huge HTTP/1.1\r\nHost: t\r\nContent-Length: 100000000\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(connection.isClosedByPeer())
    }

    @Test func chunkedBodyOverLimit_gets413() throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        for size in [5_000, 200_000] {
            let connection = try RawHTTPConnection(port: live.port)
            let chunk = String(repeating: "z", count: size)
            try connection.send(
                "POST /chunks HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + String(size, radix: 16) + "\r\n" + chunk + "\r\n0\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 413, "chunk of \(size) bytes")
        }
    }

    @Test func uriOverLimit_gets414FromHandlerRejection() throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        try connection.send("GET /" + String(repeating: "u", count: 5_000) + " HTTP/1.1\r\nHost: t\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 414)
        #expect(response.text == #"{"rejection":"uriTooLong(maxBytes: 4096)","path":"/uuuuuuuuuuuuuuu"}"#)
    }

    /// Malformed requests by id (the ids keep test output short).
    static let malformedRequests: [String: String] = [
        "oversized-header-field": "GET / HTTP/1.1\r\nHost: t\r\nX-Big: " + String(repeating: "h", count: 20_000)
            + "\r\n\r\n",
        "oversized-request-line": "GET /" + String(repeating: "r", count: 200_000) + " HTTP/1.1\r\nHost: t\r\n\r\n",
        "garbled-request-line": "THIS IS NOT HTTP\r\n\r\n",
        "no-spaces-request-line": "GARBAGE\r\n\r\n",
        "bad-version": "GET / HTTP/9.9\r\nHost: t\r\n\r\n",
        "header-without-colon": "GET / HTTP/1.1\r\nHost t\r\n\r\n",
        "bad-content-length": "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 12abc\r\n\r\n",
        "bad-chunk-size": "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n",
    ]

    @Test(arguments: malformedRequests.keys.sorted())
    func malformedRequest_gets4xxOrClose_andServerKeepsServing(id: String) throws {
        let request = Self.malformedRequests[id]!
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        try? connection.send(request)  // the server may close before it has read everything
        if let response = try? connection.readResponse() {
            #expect((400...499).contains(response.status), "\(id): status \(response.status)")
        }
        #expect(connection.isClosedByPeer(), "\(id): connection left open")
        let next = try RawHTTPConnection(port: live.port)
        try next.send("GET /still-serving HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try next.readResponse().status == 200, "\(id)")
    }

    @Test(arguments: ["TRACE", "CONNECT"])
    func unroutedMethodWithBody_gets501AndClose_soItsBodyIsNeverReadAsARequest(method: String) throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        let smuggled = "GET /smuggled HTTP/1.1\r\nHost: t\r\n\r\n"
        try? connection.send(
            "\(method) / HTTP/1.1\r\nHost: t\r\nContent-Length: \(smuggled.utf8.count)\r\n\r\n" + smuggled)
        let response = try connection.readResponse()
        #expect(response.status == 501)
        #expect(connection.isClosedByPeer(), "the connection stayed open after \(method)")
        let next = try RawHTTPConnection(port: live.port)
        try next.send("GET /still-serving HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try next.readResponse().status == 200)
    }

    /// Garbled requests close their connections while other clients
    /// connect; a new connection often gets a freed descriptor's number (and
    /// its bufferevent a freed one's address). Its bytes must all reach its
    /// own request.
    @Test func garbledRequests_amongValidOnes_everyValidOneIsAnsweredWhole() throws {
        var configuration = LiveServer.testConfiguration()
        configuration.maxBodyBytes = 200_000
        let live = try LiveServer(configuration: configuration, handler: EchoHandler())
        defer { _ = try? live.stop() }
        // Large enough to arrive in several reads.
        let body = String(repeating: "0123456789", count: 10_000)
        let port = live.port
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { client in
            for round in 0..<30 {
                do {
                    if (round + client) % 2 == 0 {
                        let garbled = try RawHTTPConnection(port: port, timeoutSeconds: 2)
                        try? garbled.send("GARBAGE\r\n\r\n")
                        _ = try? garbled.readResponse()
                        continue
                    }
                    let valid = try RawHTTPConnection(port: port, timeoutSeconds: 2)
                    try valid.send(
                        "POST /c\(client)/\(round) HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                    )
                    let response = try valid.readResponse()
                    if response.status != 200 || response.text != body {
                        failures.withLock {
                            $0.append(
                                "client \(client) round \(round): status \(response.status), \(response.body.count) body bytes"
                            )
                        }
                    }
                } catch {
                    failures.withLock { $0.append("client \(client) round \(round): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
    }

    @Test func slowClient_doesNotBlockOthers_andIsClosedAfterReadTimeout() throws {
        var configuration = LiveServer.testConfiguration()
        configuration.threadCount = 1
        configuration.readTimeoutSeconds = 1
        let live = try LiveServer(configuration: configuration, handler: EchoHandler())
        defer { _ = try? live.stop() }
        let slow = try RawHTTPConnection(port: live.port, timeoutSeconds: 5)
        try slow.send("POST /slow-upload HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\nabc")
        // The only event-loop thread still answers someone else.
        let other = try RawHTTPConnection(port: live.port, timeoutSeconds: 2)
        try other.send("GET /other HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try other.readResponse().header("x-path") == "/other")
        // The stalled request is dropped (within the 5 s read bound of the client).
        #expect(slow.isClosedByPeer())
    }

    @Test func tricklingClient_isCutWhenOneRequestTakesLongerThanReadTimeout() throws {
        var configuration = LiveServer.testConfiguration()
        configuration.readTimeoutSeconds = 1
        let live = try LiveServer(configuration: configuration, handler: EchoHandler())
        defer { _ = try? live.stop() }
        let trickler = try RawHTTPConnection(port: live.port, timeoutSeconds: 1)
        // One byte every 200 ms never trips the idle timeout, only the request deadline.
        #expect(
            Self.isCut(
                trickling: "GET /trickle HTTP/1.1\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n",
                to: trickler))
    }

    /// Sends `text` one byte every 200 ms (each pause a wait for the close);
    /// whether the server closed the connection meanwhile.
    private static func isCut(trickling text: String, to connection: RawHTTPConnection) -> Bool {
        for byte in text.utf8 {
            do {
                try connection.send([byte])
            } catch {
                return true
            }
            if connection.closes(withinSeconds: 0.2) { return true }
        }
        return connection.isClosedByPeer()
    }

    /// The first bytes of every request on a connection start its clock, not
    /// only those of the first one.
    @Test func tricklingClient_afterAnsweredRequestOnSameConnection_isCut() throws {
        var configuration = LiveServer.testConfiguration()
        configuration.readTimeoutSeconds = 1
        let live = try LiveServer(configuration: configuration, handler: EchoHandler())
        defer { _ = try? live.stop() }
        let trickler = try RawHTTPConnection(port: live.port, timeoutSeconds: 1)
        try trickler.send("GET /first HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try trickler.readResponse().header("x-path") == "/first")
        // About 3 s of trickle: several times the read timeout.
        #expect(Self.isCut(trickling: "GET /trickle HTTP", to: trickler))
    }

    @Test func boundAddress_bracketsIPv6Hosts() {
        #expect(BoundAddress(host: "127.0.0.1", port: 8080).description == "127.0.0.1:8080")
        #expect(BoundAddress(host: "::1", port: 8080).description == "[::1]:8080")
    }

    @Test func portZero_everyThreadListensOnTheOnePortReported() throws {
        var configuration = LiveServer.testConfiguration()
        configuration.threadCount = 4
        let live = try LiveServer(configuration: configuration, handler: EchoHandler())
        defer { _ = try? live.stop() }
        #expect(live.port > 0)
        // Many short connections: the kernel spreads them over all four
        // sockets, and every one of them answers on the reported port.
        for index in 0..<40 {
            let connection = try RawHTTPConnection(port: live.port)
            try connection.send("GET /spread/\(index) HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            #expect(try connection.readResponse().header("x-path") == "/spread/\(index)")
        }
    }

    @Test func start_onAddressInUseWithoutReusePort_throwsListenFailed() throws {
        // A plain socket (no SO_REUSEPORT) holding a port makes our bind fail.
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                _ = bind(holder, $0, length)
                _ = listen(holder, 1)
                _ = getsockname(holder, $0, &length)
            }
        }
        var configuration = LiveServer.testConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = Int(UInt16(bigEndian: address.sin_port))
        let server = HTTPServer(configuration: configuration, handler: EchoHandler())
        #expect {
            _ = try server.run(handlingSignals: false) { _ in }
        } throws: { error in
            guard case .listenFailed(_, "bind", EADDRINUSE)? = error as? HTTPServerError else { return false }
            return true
        }
    }

}
