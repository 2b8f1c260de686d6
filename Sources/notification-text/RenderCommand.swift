import NotificationText

/// `render [--max-units N]`: Markdown on stdin, the body on stdout (no newline added).
enum RenderCommand {
    static func run(_ arguments: [String]) {
        var maxUnits = BodyRenderer.defaultMaxUnits
        CLI.forEachOption(in: arguments, of: "render", named: ["--max-units"]) { name, value in
            maxUnits = CLI.integerOption(name, value, in: BodyRenderer.maxUnitsRange)
        }
        let rendering = BodyRenderer.render(CLI.readStdinText(), maxUnits: maxUnits)
        CLI.writeStdout(rendering.body)
    }
}
