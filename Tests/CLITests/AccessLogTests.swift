import Foundation
import HTTPTestSupport
import Testing

/// The serve command's buffered access log, through the real binary: every
/// answered request has its line, in order per connection, across a drain;
/// and a line goes out without further traffic.
@Suite struct AccessLogTests {
    @Test func serve_buffersTheAccessLog_andLosesNoLineAcrossASIGTERMDrain() throws {
        let serve = try ServeProcess(arguments: ["--port", "0", "--threads", "2", "--drain-seconds", "5"])
        defer { serve.terminateIfRunning() }
        _ = try serve.readStartLine()
        let clients = 4
        let port = serve.port
        let answered = LockedBox<[Int]>(Array(repeating: 0, count: clients))
        let group = DispatchGroup()
        let body = #"{"text":"Hello **world**"}"#
        for client in 0..<clients {
            DispatchQueue.global().async(group: group) {
                guard let connection = try? RawHTTPConnection(port: port) else { return }
                // Keeps asking on one keep-alive connection until a reply closes it (the drain).
                for number in 0..<5_000 {
                    let request =
                        "POST /body HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                        + "X-Request-Id: c\(client)-\(number)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                    guard (try? connection.send(request)) != nil,
                        let response = try? connection.readResponse(), response.status == 200
                    else { return }
                    answered.withLock { $0[client] += 1 }
                    if response.header("connection") == "close" { return }
                }
            }
        }
        // stdout is read as it comes (a full pipe would stall the loops);
        // SIGTERM once every client has had 200 answers and is still sending.
        var signalled = false
        var objects: [[String: Any]] = []
        while objects.last?["event"] as? String != "stop" {
            objects.append(try serve.nextStdoutObject(timeoutSeconds: 15))
            if !signalled && answered.withLock({ $0.allSatisfy { $0 > 200 } }) {
                signalled = true
                #expect(kill(serve.process.processIdentifier, SIGTERM) == 0)
            }
        }
        #expect(group.wait(timeout: .now() + 20) == .success)
        #expect(try serve.waitForExit(timeoutSeconds: 15) == 0)
        #expect(serve.remainingStdoutLines().isEmpty)

        var seen = Array(repeating: [Int](), count: clients)
        for object in objects {
            guard let id = object["requestId"] as? String else { continue }
            let parts = id.dropFirst().split(separator: "-").compactMap { Int($0) }
            #expect(object["route"] as? String == "/body")
            #expect(parts.count == 2)
            if parts.count == 2, parts[0] < clients { seen[parts[0]].append(parts[1]) }
        }
        let counts = answered.withLock { $0 }
        for client in 0..<clients {
            #expect(counts[client] > 200)
            // Exactly one line per answered request, in the order asked.
            #expect(seen[client] == Array(0..<counts[client]))
        }
        #expect(signalled)
    }

    @Test func serve_writesALine_withoutFurtherTraffic() throws {
        let serve = try ServeProcess(arguments: ["--port", "0", "--threads", "1"])
        defer { serve.terminateIfRunning() }
        _ = try serve.readStartLine()
        let connection = try RawHTTPConnection(port: serve.port)
        try connection.send("GET /healthz HTTP/1.1\r\nHost: t\r\nX-Request-Id: lonely-1\r\n\r\n")
        #expect(try connection.readResponse().status == 200)
        // The connection stays open and idle: only the loop's own flush can bring the line.
        let line = try serve.nextStdoutObject(timeoutSeconds: 5)
        #expect(line["requestId"] as? String == "lonely-1")
        #expect(line["route"] as? String == "/healthz")
        connection.close()
        #expect(kill(serve.process.processIdentifier, SIGTERM) == 0)
        #expect(try serve.waitForExit(timeoutSeconds: 15) == 0)
    }
}
