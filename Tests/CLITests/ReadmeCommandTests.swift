import Foundation
import Testing

/// The README's "Without a server" commands, run as written there from the
/// repository root (with this build's binary for `.build/debug/notification-text`),
/// and the `--json-lines` ones' answers read line by line.
@Suite struct ReadmeCommandTests {
    /// The commands of the README's block under "### Without a server", comments dropped.
    static func commands() -> [String] {
        let url = FixtureCLITests.root.appendingPathComponent("README.md")
        let readme = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        guard let section = readme.components(separatedBy: "### Without a server").dropFirst().first,
            let block = section.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```")
                .first
        else { return [] }
        // A comment on its own line is the output the README shows (checks/readme/readme_blocks.py compares it).
        return block.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let command = line.range(of: " #").map { line[..<$0.lowerBound] } ?? line[...]
            return command.trimmingCharacters(in: .whitespaces)
        }
    }

    static func run(_ command: String) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let binary = try BuiltExecutable.path()
        process.arguments = ["-c", command.replacingOccurrences(of: ".build/debug/notification-text", with: binary)]
        process.currentDirectoryURL = FixtureCLITests.root
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    static func lines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) ?? [:]
        }
    }

    @Test func everyCommand_runsAsWritten() throws {
        let commands = Self.commands()
        #expect(commands.count >= 6, "\(commands)")
        for command in commands {
            let result = try Self.run(command)
            #expect(result.status == 0, "\(command)")
            #expect(!result.stdout.isEmpty, "\(command)")
        }
    }

    @Test func jsonLinesCommands_answerEveryLineOfTheirExampleFile() throws {
        let commands = Self.commands().filter { $0.contains("--json-lines <") }
        let render = try #require(commands.first { $0.contains(" render ") && $0.hasSuffix("examples/bodies.jsonl") })
        let compose = try #require(
            commands.first { $0.contains(" compose ") && $0.hasSuffix("examples/requests.jsonl") })
        let root = FixtureCLITests.root
        let bodyLines = try String(contentsOf: root.appendingPathComponent("examples/bodies.jsonl"), encoding: .utf8)
            .split(separator: "\n").count
        let bodies = Self.lines(try Self.run(render).stdout)
        #expect(bodies.count == bodyLines && bodyLines >= 3)
        #expect(bodies.allSatisfy { $0["body"] is String && $0["units"] is Int }, "\(bodies)")
        let requestLines = try String(
            contentsOf: root.appendingPathComponent("examples/requests.jsonl"), encoding: .utf8
        ).split(separator: "\n").count
        let answers = Self.lines(try Self.run(compose).stdout)
        #expect(answers.count == requestLines && requestLines >= 3)
        #expect(answers.dropLast().allSatisfy { $0["kind"] is String }, "\(answers)")
        // The last line is refused, as the README's comment says, and the stream went on to it.
        #expect(answers.last?["code"] as? String == "invalid-timestamp")
        #expect(answers.last?["pointer"] as? String == "/notifications/0/timestamp")
    }
}
