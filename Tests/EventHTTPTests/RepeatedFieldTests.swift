import EventHTTP
import HTTPCore
import HTTPTestSupport
import Testing

/// The adapter reuses what it made for the previous request's path and
/// fields, and for the previous reply's fields, when the next ones are
/// equal: requests and replies that differ by a byte, at either end and at
/// every length up to the reuse limit and past it, must still be seen as
/// they are.
@Suite struct RepeatedFieldTests {
    @Test func keepAlive_valuesDifferingInOneByte_eachRequestSeesItsOwn() throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        var values: [String] = []
        for length in [1, 3, 4, 5, 7, 8, 9, 15, 16, 17] {
            let base = String(repeating: "v", count: length)
            values += [base, "w" + base.dropFirst(), base.dropLast() + "w", base]
        }
        for (index, value) in values.enumerated() {
            // The name's case changes too: it is still the same field.
            let name = index % 2 == 0 ? "X-Test" : "x-TEST"
            let path = "/p/" + value
            try connection.send("GET \(path) HTTP/1.1\r\nHost: t\r\n\(name): \(value)\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 200, "request \(index)")
            #expect(response.header("x-test") == value, "request \(index)")
            #expect(response.header("x-path") == path, "request \(index)")
        }
    }

    /// Only the first fields' strings are kept by position: a field past
    /// them, and a field that moves to another position, are read as sent.
    @Test func fieldsPastTheKeptOnes_andFieldsThatMove_areSeenAsSent() throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        let filler = (0..<9).map { "X-F\($0): f\($0)\r\n" }.joined()
        for (round, value) in ["a", "b", "b", "c"].enumerated() {
            // Rounds 0 and 1: X-Test tenth, past the kept positions; rounds 2 and 3: second.
            let fields = round < 2 ? filler + "X-Test: \(value)\r\n" : "X-Test: \(value)\r\n" + filler
            try connection.send("GET /echo HTTP/1.1\r\nHost: t\r\n\(fields)\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 200, "round \(round)")
            #expect(response.header("x-test") == value, "round \(round)")
        }
    }

    /// `/unsendable` closes its connection: each round takes a new one, to the one loop.
    @Test func unsendableFieldsBetweenSendableOnes_areStillDropped() throws {
        var configuration = LiveServer.testConfiguration()
        configuration.threadCount = 1
        let live = try LiveServer(configuration: configuration, handler: EchoHandler())
        defer { _ = try? live.stop() }
        for round in 0..<3 {
            let connection = try RawHTTPConnection(port: live.port)
            try connection.send("GET /echo HTTP/1.1\r\nHost: t\r\nX-Test: a\r\n\r\n")
            let echoed = try connection.readResponse()
            #expect(echoed.header("x-test") == "a", "round \(round)")
            try connection.send("GET /unsendable HTTP/1.1\r\nHost: t\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.text == "unsendable", "round \(round)")
            #expect(response.headers.map(\.name) == ["x-before", "x-after", "connection", "date", "content-length"])
            #expect(response.header("injected") == nil, "round \(round)")
        }
    }
}
