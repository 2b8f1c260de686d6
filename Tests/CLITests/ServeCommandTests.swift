import Foundation
import HTTPTestSupport
import Testing

@testable import notification_text

/// The built `notification-text serve` binary as a subprocess: start line,
/// settings from flags and environment, and the drain on SIGTERM/SIGINT.
@Suite struct ServeCommandTests {
    @Test func serve_onSIGTERM_finishesRequestsInFlight_reportsNotReady_exitsZero() throws {
        let serve = try ServeProcess(arguments: [
            "--port", "0", "--threads", "2", "--drain-seconds", "5", "--access-log", "off",
        ])
        defer { serve.terminateIfRunning() }
        let start = try serve.readStartLine()
        #expect(start["event"] as? String == "start")
        #expect(start["address"] as? String == "127.0.0.1:\(serve.port)")
        #expect(start["threads"] as? Int == 2)
        #expect(start["version"] as? String == BuildVersion.version)
        #expect(start["revision"] as? String == BuildVersion.revision)

        let body = "{\"text\":\"Hello **world**\"}"
        let upload = try RawHTTPConnection(port: serve.port)
        try upload.send(
            "POST /body HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
                + body.prefix(10))
        let readiness = try RawHTTPConnection(port: serve.port)
        try readiness.send("GET /readyz HTTP/1.1\r\nHost: t\r\n")
        let idle = try RawHTTPConnection(port: serve.port)
        try idle.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try idle.readResponse().status == 200)
        // The server has the partial requests before the signal.
        #expect(upload.waitUntilSentBytesAreAcknowledged())
        #expect(readiness.waitUntilSentBytesAreAcknowledged())

        #expect(kill(serve.process.processIdentifier, SIGTERM) == 0)
        // Every loop is draining (so its replies close their connection) once
        // no listener is left.
        #expect(connectionsAreRefused(port: serve.port, withinSeconds: 2))

        try readiness.send("\r\n")
        let ready = try readiness.readResponse()
        #expect(ready.status == 503)
        #expect(ready.text.contains("\"code\":\"not-ready\""))

        try upload.send(String(body.dropFirst(10)))
        let rendered = try upload.readResponse()
        #expect(rendered.status == 200)
        #expect(rendered.text.contains("\"body\":\"Hello world\""))
        #expect(rendered.header("connection") == "close")

        // The idle keep-alive connection was kept for one more request.
        try idle.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        let last = try idle.readResponse()
        #expect(last.status == 200)
        #expect(last.header("connection") == "close")
        #expect(idle.isClosedByPeer())

        let status = try serve.waitForExit(timeoutSeconds: 10)
        #expect(status == 0)
        let stop = try serve.lastStdoutObject()
        #expect(stop["event"] as? String == "stop")
        #expect(stop["reason"] as? String == "SIGTERM")
        #expect(stop["forcedCloses"] as? Int == 0)
    }

    @Test func serve_stalledRequest_isClosedAtDrainDeadline_exitZero() throws {
        let serve = try ServeProcess(arguments: ["--port=0", "--threads=1", "--drain-seconds=0.5", "--access-log=off"])
        defer { serve.terminateIfRunning() }
        _ = try serve.readStartLine()
        let stalled = try RawHTTPConnection(port: serve.port)
        try stalled.send("POST /body HTTP/1.1\r\nHost: t\r\nContent-Length: 50\r\n\r\n{\"te")
        #expect(stalled.waitUntilSentBytesAreAcknowledged())
        #expect(kill(serve.process.processIdentifier, SIGINT) == 0)
        #expect(try serve.waitForExit(timeoutSeconds: 5) == 0)
        #expect(stalled.isClosedByPeer())
        let stop = try serve.lastStdoutObject()
        #expect(stop["reason"] as? String == "SIGINT")
        #expect(stop["forcedCloses"] as? Int == 1)
    }

    @Test func serve_flagWinsOverEnvironment() throws {
        let serve = try ServeProcess(
            arguments: ["--port", "0", "--threads", "1"],
            environment: ["NOTIFICATION_TEXT_THREADS": "0", "NOTIFICATION_TEXT_ACCESS_LOG": "off"])
        defer { serve.terminateIfRunning() }
        let start = try serve.readStartLine()
        #expect(start["threads"] as? Int == 1)
        #expect(kill(serve.process.processIdentifier, SIGTERM) == 0)
        #expect(try serve.waitForExit(timeoutSeconds: 10) == 0)
    }

    /// `NOTIFICATION_TEXT_DEFAULT_LOCALE` is chosen like a request's locale
    /// (pt-AO: the pt-PT catalog) and answers a request without one.
    @Test func serve_defaultLocaleFromEnvironment_writesComposeTextsInIt() throws {
        let serve = try ServeProcess(
            arguments: ["--port", "0", "--threads", "1", "--access-log", "off"],
            environment: ["NOTIFICATION_TEXT_DEFAULT_LOCALE": "pt-AO"])
        defer { serve.terminateIfRunning() }
        _ = try serve.readStartLine()
        let body = #"{"fetch":"failed"}"#
        let connection = try RawHTTPConnection(port: serve.port)
        try connection.send(
            "POST /compose HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
                + body)
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.text.contains(#""body":"Poderá haver novidades em Buzz.""#), "\(response.text)")
        #expect(response.text.hasSuffix(#","locale":"pt-PT","direction":"ltr"}"#), "\(response.text)")
        #expect(kill(serve.process.processIdentifier, SIGTERM) == 0)
        #expect(try serve.waitForExit(timeoutSeconds: 10) == 0)
    }

    @Test func serve_environmentSetsWhatNoFlagSets() throws {
        let serve = try ServeProcess(
            arguments: ["--access-log", "off"],
            environment: ["NOTIFICATION_TEXT_PORT": "0", "NOTIFICATION_TEXT_THREADS": "3"])
        defer { serve.terminateIfRunning() }
        let start = try serve.readStartLine()
        #expect(start["threads"] as? Int == 3)
        #expect(serve.port > 0)
        #expect(kill(serve.process.processIdentifier, SIGTERM) == 0)
        #expect(try serve.waitForExit(timeoutSeconds: 10) == 0)
    }

    @Test func serve_withTokenAndMetricsPort_guardsMainPort_servesMetricsOnItsOwnListener() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "serve-token-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tokenFile = directory.appendingPathComponent("token")
        try Data("live-Token_7\n".utf8).write(to: tokenFile)
        let serve = try ServeProcess(arguments: [
            "--port", "0", "--threads", "1", "--metrics-port", "0",
            "--auth-token-file", tokenFile.path,
        ])
        defer { serve.terminateIfRunning() }
        let start = try serve.readStartLine()
        let metricsPort = try #require(start["metricsPort"] as? Int)
        #expect(start["metricsAddress"] as? String == "127.0.0.1:\(metricsPort)")
        #expect(metricsPort != serve.port)

        let main = try RawHTTPConnection(port: serve.port)
        try main.send("GET /metrics HTTP/1.1\r\nHost: t\r\n\r\n")
        let refused = try main.readResponse()
        #expect(refused.status == 401)
        #expect(refused.reasonPhrase == "Unauthorized")
        #expect(refused.header("www-authenticate") == #"Bearer realm="notification-text""#)
        try main.send("GET /metrics HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer live-Token_7\r\n\r\n")
        #expect(try main.readResponse().status == 200)

        let metrics = try RawHTTPConnection(port: metricsPort)
        try metrics.send("GET /metrics HTTP/1.1\r\nHost: t\r\n\r\n")
        let scrape = try metrics.readResponse()
        #expect(scrape.status == 200)
        #expect(
            scrape.text.contains(
                "notification_text_build_info{version=\"\(BuildVersion.version)\",revision=\"\(BuildVersion.revision)\","
                    + "unicode_version=\""))
        #expect(scrape.text.contains(#"notification_text_http_requests_total{route="/metrics",status="401"} 1"#))
        try metrics.send("POST /body HTTP/1.1\r\nHost: t\r\nContent-Length: 12\r\n\r\n{\"text\":\"a\"}")
        #expect(try metrics.readResponse().status == 404)

        #expect(kill(serve.process.processIdentifier, SIGTERM) == 0)
        #expect(try serve.waitForExit(timeoutSeconds: 15) == 0)
    }

    @Test(arguments: [
        (
            "bad-port-flag", ["--port", "70000"], [String: String](),
            "--port must be an integer in 0…65535, got '70000'"
        ),
        (
            "bad-threads-env", [], ["NOTIFICATION_TEXT_THREADS": "many"],
            "NOTIFICATION_TEXT_THREADS must be an integer in 1…256, got 'many'"
        ),
        (
            "bad-drain-flag", ["--drain-seconds=-1"], [:],
            "--drain-seconds must be a number of seconds in 0…3600, got '-1'"
        ),
        (
            "unknown-flag", ["--colour", "red"], [:],
            "serve: unknown argument '--colour' (see notification-text serve --help)"
        ),
        ("missing-value", ["--port"], [:], "--port needs a value"),
        (
            "bad-body-limit", ["--max-body-bytes", "10"], [:],
            "--max-body-bytes must be an integer in 1024…1073741824, got '10'"
        ),
        (
            "token-file-missing", ["--auth-token-file", "/nonexistent/token"], [:],
            "--auth-token-file cannot be opened: No such file or directory, got '/nonexistent/token'"
        ),
        (
            // A device (or a FIFO) is refused without being read: reading one could block.
            "token-file-not-regular", [], ["NOTIFICATION_TEXT_AUTH_TOKEN_FILE": "/dev/null"],
            "NOTIFICATION_TEXT_AUTH_TOKEN_FILE is not a regular file, got '/dev/null'"
        ),
        ("bad-metrics-port", ["--metrics-port", "x"], [:], "--metrics-port must be an integer in 0…65535, got 'x'"),
        (
            "default-locale-no-catalog", ["--default-locale", "sr"], [:],
            "--default-locale fits no catalog (they are ar, de, en, es, fr, he, hi, it, ja, ko, pl, pt-PT, pt, ru, tr, uk, zh-Hans, zh-Hant), got 'sr'"
        ),
        (
            "default-locale-malformed-env", [], ["NOTIFICATION_TEXT_DEFAULT_LOCALE": "en_US.UTF-8"],
            "NOTIFICATION_TEXT_DEFAULT_LOCALE must be a BCP 47 language tag such as pt-BR, got 'en_US.UTF-8'"
        ),
        (
            "bad-max-connections", ["--max-connections", "0"], [:],
            "--max-connections must be an integer in 1…1000000, got '0'"
        ),
        (
            "bad-shutdown-delay", [], ["NOTIFICATION_TEXT_SHUTDOWN_DELAY_SECONDS": "soon"],
            "NOTIFICATION_TEXT_SHUTDOWN_DELAY_SECONDS must be a number of seconds in 0…3600, got 'soon'"
        ),
    ])
    func serve_badSetting_exits64WithMessage(
        id: String, arguments: [String], environment: [String: String], message: String
    ) throws {
        let serve = try ServeProcess(arguments: arguments, environment: environment)
        defer { serve.terminateIfRunning() }
        #expect(try serve.waitForExit(timeoutSeconds: 10) == 64, "\(id)")
        #expect(serve.standardError() == "notification-text: \(message)\n", "\(id)")
    }
}
