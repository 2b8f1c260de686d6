import Foundation
import HTTPCore
import NotificationService
import Testing

/// `render --json-lines` and `compose --json-lines`, run as the built binary:
/// one answer per line, in order, the same bytes as the HTTP routes, a bad
/// line answered by its problem without stopping the stream.
@Suite struct JSONLinesTests {
    static let service = NotificationTextService(configuration: ServiceConfiguration(accessLogEnabled: false))

    /// What `POST path` answers for `body`: the bytes of the 200 answer or of the problem.
    static func http(_ path: String, _ body: [UInt8], service: NotificationTextService = service) -> String {
        let response = service.handle(
            HTTPRequest(method: "POST", path: path, headers: [("content-type", "application/json")], body: body))
        return String(decoding: response.body, as: UTF8.self)
    }

    @Test func renderJSONLines_badLinesInTheMiddle_getTheirProblem_andTheStreamGoesOn() throws {
        let lines = [
            #"{"text": "Hello **world**"}"#,
            #"{"text": "unterminated"#,
            "",
            #"{"text": 42}"#,
            #"{"text": "x", "maxUnits": 10}"#,
            #"[1, 2]"#,
            #"{"text": "still **here**", "maxUnits": 300}"#,
        ]
        let result = try BuiltExecutable.run(
            ["render", "--json-lines"], stdin: Array(lines.joined(separator: "\n").utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let answers = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(answers.count == lines.count + 1, "one line per request, then the final newline")
        #expect(answers.last == "")
        for (index, line) in lines.enumerated() {
            #expect(String(answers[index]) == Self.http("/body", Array(line.utf8)), "line \(index + 1)")
        }
        #expect(answers[0].contains(#""body":"Hello world""#))
        #expect(answers[1].contains(#""code":"invalid-json""#))
        #expect(answers[2].contains(#""code":"invalid-json""#))
        #expect(answers[3].contains(#""code":"invalid-type""#))
        #expect(answers[4].contains(#""code":"out-of-range""#))
        #expect(answers[6].contains(#""body":"still here""#))
    }

    @Test func renderJSONLines_invalidUTF8Line_isInvalidUTF8_likeHTTP() throws {
        let bad: [UInt8] = Array(#"{"text": "a"#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        let input = bad + [0x0A] + Array(#"{"text": "b"}"#.utf8) + [0x0A]
        let result = try BuiltExecutable.run(["render", "--json-lines"], stdin: input)
        let answers = result.stdout.split(separator: "\n")
        #expect(answers.count == 2)
        #expect(String(answers[0]) == Self.http("/body", bad))
        #expect(answers[0].contains(#""code":"invalid-utf8""#))
        #expect(answers[1].contains(#""body":"b""#))
    }

    @Test func jsonLines_lineOverTheBodyLimit_gets413Problem_nextLineIsAnswered() throws {
        let long = #"{"text": ""# + String(repeating: "a", count: 3_000) + #""}"#
        let input = Array((long + "\n" + #"{"text": "ok"}"# + "\n").utf8)
        let result = try BuiltExecutable.run(["render", "--json-lines", "--max-body-bytes", "2048"], stdin: input)
        #expect(result.status == 0)
        let answers = result.stdout.split(separator: "\n")
        #expect(answers.count == 2)
        let rejected = Self.service.reject(
            HTTPRequest(method: "POST", path: "/body"), because: .bodyTooLarge(maxBytes: 2_048))
        #expect(String(answers[0]) == String(decoding: rejected.body, as: UTF8.self))
        #expect(answers[0].contains(#""status":413"#))
        #expect(answers[1].contains(#""body":"ok""#))
        // The environment sets the same limit, as it does for serve.
        let fromEnvironment = try BuiltExecutable.run(
            ["compose", "--json-lines"], stdin: input, environment: ["NOTIFICATION_TEXT_MAX_BODY_BYTES": "2048"])
        #expect(fromEnvironment.stdout.hasPrefix(String(answers[0]) + "\n"))
    }

    @Test func composeJSONLines_eachLineAnsweredAsHTTPDoes_withTheAppName() throws {
        let lines = [
            #"{"now": "2026-11-29T12:00:00Z", "notifications": [{"id": "1", "type": "message", "timestamp": "2026-11-29T11:59:00Z", "text": "Hi **there**", "sender": {"name": "Ana"}}]}"#,
            #"{"notifications": [{"id": "1", "type": "m", "timestamp": "noon", "text": "private words"}]}"#,
            // With `now`: a fallback's next state records it (compose.md C10), so the clock would differ.
            #"{"now": "2026-11-29T12:00:00Z", "fetch": "timeout"}"#,
        ]
        let result = try BuiltExecutable.run(
            ["compose", "--json-lines", "--app-name", "Wiki"], stdin: Array(lines.joined(separator: "\n").utf8))
        #expect(result.status == 0)
        let answers = result.stdout.split(separator: "\n")
        #expect(answers.count == 3)
        let wiki = NotificationTextService(
            configuration: ServiceConfiguration(appName: "Wiki", accessLogEnabled: false))
        for (index, line) in lines.enumerated() {
            #expect(
                String(answers[index]) == Self.http("/compose", Array(line.utf8), service: wiki), "line \(index + 1)")
        }
        #expect(answers[1].contains(#""code":"invalid-timestamp""#))
        #expect(!result.stdout.contains("private words"))
        #expect(answers[2].contains(#""title":"Wiki""#))
    }

    /// A caller that writes one line and waits gets its answer before it
    /// writes the next (stdin is a pipe here, not even a terminal).
    @Test func jsonLines_answerEachLineBeforeTheNextArrives() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try BuiltExecutable.path())
        process.arguments = ["render", "--json-lines"]
        process.environment = BuiltExecutable.environment([:])
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var received: [UInt8] = []
        for word in ["one", "two", "three"] {
            try input.fileHandleForWriting.write(contentsOf: Data(#"{"text": "**\#(word)**"}"#.utf8 + [0x0A]))
            let line = try Self.readLine(from: output.fileHandleForReading.fileDescriptor, into: &received)
            #expect(line == #"{"body":"\#(word)","units":\#(word.utf16.count),"truncated":false,"inputCut":false}"#)
        }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// The next line from `descriptor`, waiting at most 10 s for it.
    static func readLine(from descriptor: Int32, into buffer: inout [UInt8]) throws -> String {
        let deadline = Date().addingTimeInterval(10)
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let remaining = Int32(max(0, deadline.timeIntervalSinceNow * 1_000))
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard remaining > 0, poll(&poller, 1, remaining) == 1 else {
                throw CLITestFailure("no answer line within 10 s")
            }
            var chunk = [UInt8](repeating: 0, count: 4_096)
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { throw CLITestFailure("stdout closed before an answer line") }
            buffer += chunk[..<count]
        }
    }
}

struct CLITestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
