import EventHTTP
import Foundation
import HTTPTestSupport
import Testing

@testable import notification_text

/// What `serve` does for operations: the connection limit's default, and
/// SIGHUP re-reading the token file while it serves.
@Suite struct ServeOperationsTests {
    static let mebibyte = 1 << 20

    @Test func connectionLimit_isWhatTheBudgetHoldsOfIdleConnections() {
        // A 128 MiB pod, one thread, the default limits: the budget (128 - 32 - 8) MiB over
        // an idle connection's 8 KiB (requests are charged as their bytes arrive).
        let limit = ConnectionLimit.derived(
            memoryBytes: 128 * Self.mebibyte, descriptorLimit: nil, threadCount: 1, maxBodyBytes: Self.mebibyte,
            maxHeaderBytes: 16_384)
        #expect(limit == 88 * Self.mebibyte / 8_192)
        #expect(limit == 11_264)
        #expect(
            ConnectionLimit.budgetBytes(
                memoryBytes: 128 * Self.mebibyte, threadCount: 2, maxBodyBytes: Self.mebibyte, maxHeaderBytes: 16_384)
                == 80 * Self.mebibyte)
    }

    @Test func memoryLimitFlag_setsTheBudget_andTheDerivedLimit() throws {
        let loaded = try ServeConfiguration.load(
            arguments: ["--memory-limit-bytes", "\(256 * Self.mebibyte)", "--threads", "1"], environment: { _ in nil }
        ).get()
        #expect(loaded.server.memoryBudgetBytes == 216 * Self.mebibyte)
        let descriptors =
            ConnectionLimit.descriptorLimit().map { $0 - ConnectionLimit.descriptorReserve(threadCount: 1) } ?? .max
        #expect(loaded.server.maxConnections == min(216 * Self.mebibyte / 8_192, descriptors))
        #expect(loaded.metricsServer == nil)
        let flagged = try ServeConfiguration.load(
            arguments: ["--memory-limit-bytes", "\(256 * Self.mebibyte)", "--max-connections", "500"],
            environment: { _ in nil }
        ).get()
        // A limit set by hand keeps the budget: bodies and replies past it get 503.
        #expect(flagged.server.maxConnections == 500)
        #expect(flagged.server.memoryBudgetBytes != nil)
    }

    @Test func connectionLimit_keepsItsFloor_andStaysWithinTheDescriptors() {
        // Past the reserves nothing is left: the budget's floor, one largest body and its
        // reply beside 16 idle connections, holds 404 idle ones.
        #expect(
            ConnectionLimit.derived(
                memoryBytes: 16 * Self.mebibyte, descriptorLimit: nil, threadCount: 4, maxBodyBytes: Self.mebibyte,
                maxHeaderBytes: 16_384) == (3 * Self.mebibyte + 2 * 16_384 + 16 * 8_192) / 8_192)
        #expect(
            ConnectionLimit.derived(
                memoryBytes: 16 * Self.mebibyte, descriptorLimit: 70, threadCount: 4, maxBodyBytes: Self.mebibyte,
                maxHeaderBytes: 16_384) == ConnectionLimit.minimum)
        #expect(
            ConnectionLimit.derived(
                memoryBytes: 64 << 30, descriptorLimit: 1_024, threadCount: 2, maxBodyBytes: 1_024,
                maxHeaderBytes: 1_024) == 1_024 - ConnectionLimit.descriptorReserve(threadCount: 2))
    }

    @Test func descriptorReserve_exceedsEveryPlaceBesideTheLimitThatHoldsOne() {
        // RLIMIT_NOFILE 4,096, one thread: 64 probation places and 64 refusals holding no slot
        // a loop, the metrics listener's 64 connections and its loop's places, and each loop's own
        // descriptors.
        for threads in [1, 2, 8] {
            let perLoop =
                HTTPServerConfiguration.probationPlacesPerThread + HTTPServerConfiguration.refusalPlacesPerThread
            let places = perLoop * (threads + 1) + 64
            #expect(ConnectionLimit.descriptorReserve(threadCount: threads) > places + 8 * (threads + 1), "\(threads)")
        }
        #expect(
            ConnectionLimit.derived(
                memoryBytes: 128 * Self.mebibyte, descriptorLimit: 4_096, threadCount: 1, maxBodyBytes: Self.mebibyte,
                maxHeaderBytes: 16_384) == 4_096 - 64 - 200 - 136)
    }

    @Test func maxConnections_flagWinsOverTheDerivedDefault() {
        let flagged = ServeConfiguration.load(arguments: ["--max-connections", "7"], environment: { _ in nil })
        #expect((try? flagged.get())?.server.maxConnections == 7)
        let derived = ServeConfiguration.load(arguments: [], environment: { _ in nil })
        #expect(((try? derived.get())?.server.maxConnections ?? 0) >= ConnectionLimit.minimum)
    }

    @Test func serve_startLineNamesTheConnectionLimit() throws {
        let serve = try ServeProcess(arguments: ["--port", "0", "--threads", "1", "--max-connections", "9"])
        defer { serve.terminateIfRunning() }
        #expect(try serve.readStartLine()["maxConnections"] as? Int == 9)
        #expect(kill(serve.process.processIdentifier, SIGTERM) == 0)
        #expect(try serve.waitForExit(timeoutSeconds: 15) == 0)
    }

    @Test func serve_onSIGHUP_rereadsTheTokenFile_andKeepsServing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "serve-rotate-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tokenFile = directory.appendingPathComponent("tokens")
        try Data("old-Token_1\n".utf8).write(to: tokenFile)
        let serve = try ServeProcess(arguments: [
            "--port", "0", "--threads", "1", "--access-log", "off", "--auth-token-file", tokenFile.path,
        ])
        defer { serve.terminateIfRunning() }
        _ = try serve.readStartLine()

        func status(_ token: String) throws -> Int {
            let connection = try RawHTTPConnection(port: serve.port)
            try connection.send("GET /metrics HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(token)\r\n\r\n")
            return try connection.readResponse().status
        }
        #expect(try status("new-Token_2") == 401)
        try Data("old-Token_1\nnew-Token_2\n".utf8).write(to: tokenFile)
        #expect(kill(serve.process.processIdentifier, SIGHUP) == 0)
        let reloaded = try serve.nextStdoutObject(timeoutSeconds: 5)
        #expect(reloaded["event"] as? String == "auth-tokens-reloaded")
        #expect(reloaded["tokens"] as? Int == 2)
        #expect(try status("new-Token_2") == 200)
        #expect(try status("old-Token_1") == 200)

        #expect(kill(serve.process.processIdentifier, SIGTERM) == 0)
        #expect(try serve.waitForExit(timeoutSeconds: 15) == 0)
        #expect(!serve.standardError().contains("Token_"))
    }
}
