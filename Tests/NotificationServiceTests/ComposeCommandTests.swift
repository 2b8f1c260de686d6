import Foundation
import Testing

@testable import NotificationService

/// `notification-text compose`, run as the built binary: the same decoder and
/// validation as `POST /compose`.
@Suite struct ComposeCommandTests {
    /// The binary SwiftPM built beside this test bundle.
    private static func executablePath() throws -> String {
        let bundle = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var directory = URL(fileURLWithPath: bundle).deletingLastPathComponent()
        while !directory.path.hasSuffix("/debug") && !directory.path.hasSuffix("/release") && directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("notification-text").path
    }

    private func run(_ arguments: [String], stdin: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.executablePath())
        process.arguments = arguments
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    @Test func compose_validRequest_printsTheSameResponseAsTheHTTPRoute() throws {
        let request =
            #"{"now": "2026-11-29T12:00:00Z", "notifications": [{"id": "1", "type": "message", "timestamp": "2026-11-29T11:59:00Z", "text": "Hi **there**", "sender": {"name": "Ana"}}]}"#
        let result = try run(["compose"], stdin: request)
        #expect(result.status == 0, "\(result.stderr)")
        let http = ServiceHarness().post("/compose", request)
        #expect(result.stdout == http.text + "\n")
    }

    @Test func compose_withApp_usesItForGenericTexts() throws {
        let result = try run(["compose", "--app", "Wiki"], stdin: #"{"fetch": "timeout"}"#)
        #expect(result.status == 0)
        #expect(result.stdout.contains(#""title":"Wiki""#))
    }

    @Test func compose_badRequest_printsTheProblemAndExits65() throws {
        let result = try run(
            ["compose"],
            stdin: #"{"notifications": [{"id": "1", "type": "m", "timestamp": "noon", "text": "private words"}]}"#)
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("invalid-timestamp: notifications[0].timestamp must be an RFC 3339 date-time"))
        #expect(!result.stderr.contains("private words"))
    }
}
