import Testing

/// `notification-text render`, run as the built binary: Markdown on stdin,
/// the body and a newline on stdout.
@Suite struct RenderCommandTests {
    @Test func render_printsTheBodyAndANewline() throws {
        let result = try BuiltExecutable.run(["render"], stdin: Array("Hello **world** and `code`".utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Hello world and code\n")
    }

    @Test func render_withMaxUnits_capsAtThatLength() throws {
        let text = String(repeating: "word ", count: 300)
        let capped = try BuiltExecutable.run(["render", "--max-units", "300"], stdin: Array(text.utf8))
        #expect(capped.status == 0)
        #expect(capped.stdout.utf16.count == 300 + 1)
        #expect(capped.stdout.hasSuffix("…\n"))
        let uncapped = try BuiltExecutable.run(["render", "--max-units=4096"], stdin: Array(text.utf8))
        #expect(uncapped.stdout == String(text.dropLast()) + "\n")
    }

    @Test(arguments: [
        (["render", "--max-units", "10"], "notification-text: --max-units must be an integer in 256…4096, got '10'\n"),
        (["render", "--max-units"], "notification-text: --max-units needs a value\n"),
        (
            ["render", "--colour"],
            "notification-text: render: unknown argument '--colour' (see notification-text render --help)\n"
        ),
    ])
    func render_badArgument_exits64WithMessage(arguments: [String], message: String) throws {
        let result = try BuiltExecutable.run(arguments, stdin: Array("a".utf8))
        #expect(result.status == 64)
        #expect(result.stderr == message)
        #expect(result.stdout.isEmpty)
    }

    @Test func render_stdinNotUTF8_exits65() throws {
        let result = try BuiltExecutable.run(["render"], stdin: [0x61, 0xC3, 0x28])
        #expect(result.status == 65)
        #expect(result.stderr == "notification-text: stdin is not valid UTF-8\n")
    }
}
