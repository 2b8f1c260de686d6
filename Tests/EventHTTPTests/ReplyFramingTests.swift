import HTTPCore
import HTTPTestSupport
import Testing

@testable import EventHTTP

/// The reply's framing as the adapter writes it: its Date and
/// Content-Length, its version and `Connection`, and the handler's fields.
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

    @Test func requestID_isWrittenAfterTheHandlersFields() throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        try connection.send("GET /request-id HTTP/1.1\r\nHost: t\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.headers.map(\.name) == ["x-before", "x-request-id", "date", "content-length"])
        #expect(response.header("x-request-id") == EchoHandler.requestIDText)
        #expect(response.text == "id")
    }

    @Test func http11Reply_saysHTTP11_andTheConnectionStaysOpen() throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        try connection.send("GET /first HTTP/1.1\r\nHost: t\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.version == "HTTP/1.1")
        #expect(response.header("connection") == nil)
        #expect(
            response.headers.map(\.name) == ["content-type", "x-method", "x-path", "x-test", "date", "content-length"])
        try connection.send("GET /second HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try connection.readResponse().header("x-path") == "/second")
    }

    @Test func http10KeepAliveRequest_isAnsweredInKind_andKeptOpen() throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        try connection.send("GET /old HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.version == "HTTP/1.0")
        #expect(response.header("connection") == "keep-alive")
        #expect(response.header("content-length") == "0")
        try connection.send("GET /again HTTP/1.1\r\nHost: t\r\n\r\n")
        let again = try connection.readResponse()
        #expect(again.version == "HTTP/1.1")
        #expect(again.header("x-path") == "/again")
    }

    @Test func requestAskingForClose_getsConnectionClose_andTheConnectionCloses() throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        try connection.send("GET /last HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.headers.filter { $0.name == "connection" }.map(\.value) == ["close"])
        #expect(response.header("x-path") == "/last")
        #expect(connection.isClosedByPeer())
    }

    /// A field that could end a line or hide in a C string is dropped, the
    /// rest are sent as given; the handler's own `Connection: close` is
    /// honoured (sent once, and the connection closes).
    @Test func unsendableFields_areDropped_andTheHandlersConnectionCloseIsHonoured() throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        try connection.send("GET /unsendable HTTP/1.1\r\nHost: t\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.text == "unsendable")
        #expect(response.headers.map(\.name) == ["x-before", "x-after", "connection", "date", "content-length"])
        #expect(response.header("connection") == "close")
        #expect(response.header("injected") == nil)
        #expect(connection.isClosedByPeer())
    }

    @Test func fieldCheck_refusesLineBreaksNulAndColonNames_atEveryPosition() {
        for length in 0...24 {
            let clean = String(repeating: "v", count: length)
            #expect(ReplyHead.isSendable(name: "X-Name", value: clean))
            #expect(ReplyHead.isSendable(name: "X-Name", value: clean + ":"), "a colon is fine in a value")
            for position in 0..<length {
                for bad: Character in ["\r", "\n", "\u{0}"] {
                    var value = Array(clean)
                    value[position] = bad
                    #expect(!ReplyHead.isSendable(name: "X-Name", value: String(value)), "\(bad) at \(position)")
                    #expect(!ReplyHead.isSendable(name: String(value), value: "v"), "\(bad) in a name at \(position)")
                }
                var name = Array(clean)
                name[position] = ":"
                #expect(!ReplyHead.isSendable(name: String(name), value: "v"), "colon in a name at \(position)")
            }
        }
        #expect(!ReplyHead.isSendable(name: "", value: "v"))
        // Bytes above 0x7F (UTF-8) and tabs are not line breaks.
        #expect(ReplyHead.isSendable(name: "X-Name", value: "caf\u{E9}\tnaïve, 日本語 and more text"))
    }

    @Test func refusalAnswer_isTheExactHead_withTheBodyExceptToHEAD() {
        let response = HTTPResponse(
            status: 413,
            headers: [
                ("Content-Type", "application/problem+json"), ("content-length", "1"), ("X-Split", "a\r\nb"),
                ("Connection", "keep-alive"), ("X-Request-Id", "r1"),
            ],
            body: Array("too large".utf8), route: "/body")
        let date = "Sun, 06 Nov 1994 08:49:37 GMT"
        let head =
            "HTTP/1.1 413 Content Too Large\r\nContent-Type: application/problem+json\r\nX-Request-Id: r1\r\n"
            + "Date: \(date)\r\nContent-Length: 9\r\nConnection: close\r\n\r\n"
        let get = date.withCString { RefusalAnswer.bytes(for: response, toHEAD: false, date: $0) }
        #expect(String(decoding: get, as: UTF8.self) == head + "too large")
        let headOnly = date.withCString { RefusalAnswer.bytes(for: response, toHEAD: true, date: $0) }
        #expect(String(decoding: headOnly, as: UTF8.self) == head)
        var identified = response
        identified.requestID = HTTPRequestID("caller-7")
        let withID = date.withCString { RefusalAnswer.bytes(for: identified, toHEAD: true, date: $0) }
        #expect(
            String(decoding: withID, as: UTF8.self)
                == "HTTP/1.1 413 Content Too Large\r\nContent-Type: application/problem+json\r\nX-Request-Id: r1\r\n"
                + "X-Request-Id: caller-7\r\nDate: \(date)\r\nContent-Length: 9\r\nConnection: close\r\n\r\n")
        identified.requestID = HTTPRequestID("a\r\nInjected: yes")
        let unsendable = date.withCString { RefusalAnswer.bytes(for: identified, toHEAD: true, date: $0) }
        #expect(String(decoding: unsendable, as: UTF8.self) == head)
        let undated = RefusalAnswer.bytes(for: HTTPResponse(status: 999, route: "-"), toHEAD: false, date: nil)
        #expect(
            String(decoding: undated, as: UTF8.self)
                == "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    }
}
