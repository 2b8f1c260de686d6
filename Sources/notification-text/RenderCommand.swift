import NotificationText

/// `render [--max-units N]`: Markdown on stdin, the body on stdout (no newline added).
enum RenderCommand {
    static func run(_ arguments: [String]) {
        var maxUnits = BodyRenderer.defaultMaxUnits
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--max-units" {
                guard let value = rest.popFirst() else { CLI.fail("--max-units needs a value", status: CLI.usageError) }
                maxUnits = CLI.integerOption("--max-units", value, in: BodyRenderer.maxUnitsRange)
            } else if argument.hasPrefix("--max-units=") {
                maxUnits = CLI.integerOption(
                    "--max-units", String(argument.dropFirst("--max-units=".count)), in: BodyRenderer.maxUnitsRange)
            } else {
                CLI.fail("render: unknown argument '\(argument)'", status: CLI.usageError)
            }
        }
        let rendering = BodyRenderer.render(CLI.readStdinText(), maxUnits: maxUnits)
        CLI.writeStdout(rendering.body)
    }
}
