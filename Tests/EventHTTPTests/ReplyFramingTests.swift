import HTTPTestSupport
import Testing

@testable import EventHTTP

/// The Date and Content-Length fields the adapter adds to replies itself,
/// where evhttp would otherwise format them for every reply.
@Suite struct ReplyFramingTests {
    @Test func dateField_isIMFFixdate() {
        // RFC 9110 section 5.6.7's own example.
        #expect(DateField.value(at: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(DateField.value(at: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(DateField.value(at: 951_827_696) == "Tue, 29 Feb 2000 12:34:56 GMT")
    }

    @Test func reply_hasOneDateAndOneContentLength_matchingTheBody() throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        for body in ["hello", "", String(repeating: "b", count: 4_000)] {
            try connection.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(response.body.count == body.utf8.count)
            let lengths = response.headers.filter { $0.name == "content-length" }.map(\.value)
            #expect(lengths == [String(body.utf8.count)], "body of \(body.utf8.count) bytes")
            let dates = response.headers.filter { $0.name == "date" }.map(\.value)
            #expect(dates.count == 1)
            #expect(dates.first?.hasSuffix(" GMT") == true && dates.first?.utf8.count == 29, "date \(dates)")
        }
    }

    /// The status line's phrase comes from the one status table: RFC 9110's
    /// name where it lists the status, the class's name for any other.
    @Test(arguments: [
        (200, "OK"), (401, "Unauthorized"), (413, "Content Too Large"), (503, "Service Unavailable"),
        (299, "OK"), (418, "Client Error"), (599, "Server Error"),
    ])
    func statusLine_hasTheTablesReasonPhrase(status: Int, phrase: String) throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        try connection.send("GET /status/\(status) HTTP/1.1\r\nHost: t\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == status)
        #expect(response.reasonPhrase == phrase)
    }

    @Test func noContentReply_hasNoContentLength() throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        try connection.send("GET /no-content HTTP/1.1\r\nHost: t\r\n\r\n")
        let response = try connection.readResponse(isBodyless: true)
        #expect(response.status == 204)
        #expect(response.header("content-length") == nil)
        // The connection stays usable: nothing unexpected followed the head.
        try connection.send("GET /after HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try connection.readResponse().header("x-path") == "/after")
    }

    @Test func headReply_keepsOnlyTheHandlersContentLengthAndDate() throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        try connection.send("HEAD /framed HTTP/1.1\r\nHost: t\r\n\r\n")
        let response = try connection.readResponse(isBodyless: true)
        #expect(response.status == 200)
        #expect(response.headers.filter { $0.name == "content-length" }.map(\.value) == ["5"])
        #expect(response.headers.filter { $0.name == "date" }.map(\.value) == ["Sun, 06 Nov 1994 08:49:37 GMT"])
        try connection.send("GET /after HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try connection.readResponse().header("x-path") == "/after")
    }

    @Test func http10Request_isAnsweredWithItsLengthAndClosed() throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        try connection.send("POST /old HTTP/1.0\r\nContent-Length: 3\r\n\r\nabc")
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "abc")
        #expect(response.header("content-length") == "3")
        #expect(connection.isClosedByPeer())
    }
}
