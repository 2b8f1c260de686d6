import Foundation
import HTTPTestSupport
import Testing

@testable import EventHTTP

/// A chunked body stays in the connection's input as it came, the framer
/// following its chunks; once its last chunk and trailers are in, the
/// handler gets its data, however the reads cut it, and what is pipelined
/// behind it is the next request.
@Suite struct ChunkedBodyTests {
    @Test func tinyChunks_readByRead_reachTheHandlerWhole_andThePipelinedRequestFollows() throws {
        let live = try LiveServer(handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port)
        try connection.send("POST /tiny HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na")
        // Each piece ends with a chunk's data, as a trickling client sends it.
        for index in 1..<60 {
            try connection.send("\r\n1\r\n\(index % 10)")
            if index % 10 == 0 { Thread.sleep(forTimeInterval: 0.01) }
        }
        try connection.send("\r\n0\r\nX-Trailer: t\r\n\r\nGET /after HTTP/1.1\r\nHost: t\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "a" + (1..<60).map { "\($0 % 10)" }.joined())
        let after = try connection.readResponse()
        #expect(after.header("x-path") == "/after")
        #expect(after.text == "")
    }

    @Test func chunksSpanningManyReads_areReassembledInOrder() throws {
        var configuration = LiveServer.testConfiguration()
        configuration.maxBodyBytes = 65_536
        let live = try LiveServer(configuration: configuration, handler: EchoHandler())
        defer { _ = try? live.stop() }
        let connection = try RawHTTPConnection(port: live.port, timeoutSeconds: 10)
        // 40 chunks of 1,000 bytes, each of one letter: more than libevent reads at once.
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN")
        var request = "POST /big HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
        for letter in letters {
            request += "3e8\r\n" + String(repeating: letter, count: 1_000) + "\r\n"
        }
        try connection.send(request + "0\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.text == letters.map { String(repeating: $0, count: 1_000) }.joined())
    }
}
