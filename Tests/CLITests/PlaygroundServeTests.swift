import Foundation
import HTTPTestSupport
import Testing

/// `serve --playground` on the built binary: on by default, off by flag or
/// environment, and a bad value is a usage error.
@Suite struct PlaygroundServeTests {
    func rootStatus(_ serve: ServeProcess) throws -> RawHTTPConnection.Response {
        _ = try serve.readStartLine()
        let connection = try RawHTTPConnection(port: serve.port)
        try connection.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
        return try connection.readResponse()
    }

    @Test func serve_byDefault_servesThePage() throws {
        let serve = try ServeProcess(arguments: ["--port", "0", "--threads", "1", "--access-log", "off"])
        defer { serve.terminateIfRunning() }
        let response = try rootStatus(serve)
        #expect(response.status == 200)
        #expect(response.header("content-type") == "text/html; charset=utf-8")
        #expect(response.header("content-security-policy")?.hasPrefix("default-src 'self'") == true)
        #expect(response.text.contains(#"<script src="/playground.js" defer></script>"#))
        #expect(kill(serve.process.processIdentifier, SIGTERM) == 0)
        #expect(try serve.waitForExit(timeoutSeconds: 10) == 0)
    }

    @Test(arguments: [
        (["--playground", "off"], [String: String]()),
        (["--playground=false"], [:]),
        ([], ["NOTIFICATION_TEXT_PLAYGROUND": "off"]),
    ])
    func serve_playgroundOff_answersRootWith404(_ arguments: [String], _ environment: [String: String]) throws {
        let serve = try ServeProcess(
            arguments: ["--port", "0", "--threads", "1", "--access-log", "off"] + arguments, environment: environment)
        defer { serve.terminateIfRunning() }
        let response = try rootStatus(serve)
        #expect(response.status == 404)
        #expect(response.text.contains(#""code":"not-found""#))
        #expect(kill(serve.process.processIdentifier, SIGTERM) == 0)
        #expect(try serve.waitForExit(timeoutSeconds: 10) == 0)
    }

    @Test func serve_badPlaygroundValue_exits64() throws {
        let serve = try ServeProcess(arguments: ["--playground", "maybe"])
        defer { serve.terminateIfRunning() }
        #expect(try serve.waitForExit(timeoutSeconds: 10) == 64)
        #expect(serve.standardError() == "notification-text: --playground must be on or off, got 'maybe'\n")
    }
}
