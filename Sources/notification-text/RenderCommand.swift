import NotificationEngine
import NotificationService

/// `render`: Markdown on stdin, the body and a newline on stdout (the body's
/// own line breaks stay; the last newline ends the output, as a shell expects);
/// `--json` prints `POST /body`'s answer instead, and `--json-lines` answers
/// one `POST /body` request per line (see `JSONLines`).
enum RenderCommand {
    struct Settings: CommandSettings {
        /// nil: `BodyRenderer.defaultMaxUnits`, as a request without `maxUnits` gets.
        var maxUnits: Int?
        var json = false
        var jsonLines = false
        var maxLineBytes = defaultMaxBodyBytes
    }

    static let options: [CommandOption<Settings>] = [
        CommandOption(
            flag: "--max-units", environmentVariable: nil, valueName: "N",
            meaning: "longest body in UTF-16 units (the request's maxUnits)",
            value: .integer(BodyRenderer.maxUnitsRange, \.maxUnits, unset: String(BodyRenderer.defaultMaxUnits))
        ),
        .switch(
            "--json",
            meaning: "print the POST /body answer for the Markdown: {\"body\",\"units\",\"truncated\",\"inputCut\"}",
            \.json),
        .switch(
            "--json-lines",
            meaning: "read one POST /body request ({\"text\",\"maxUnits\"}) per line, print its answer or problem"
                + " per line",
            \.jsonLines),
        .maxBodyBytes(
            \.maxLineBytes, meaning: "with --json-lines: the longest line (a longer one gets the 413 problem)"),
    ]

    static var help: String {
        OptionParser.help(
            usage: "render [options] < input",
            about: "Markdown on stdin, the notification body and a newline on stdout (docs/spec/body.md).",
            options: options,
            notes: JSONLines.helpNotes + "\n\nexit status: 0; 64 for a bad option; 65 for stdin that is not UTF-8")
    }

    static func run(_ arguments: [String]) {
        let settings = OptionParser.settingsOrExit(arguments, command: "render", options: options, help: { help })
        if settings.json && settings.jsonLines {
            CLI.fail("render: --json and --json-lines exclude each other", status: CLI.usageError)
        }
        if settings.jsonLines {
            if settings.maxUnits != nil {
                CLI.fail(
                    "render: --max-units does not apply to --json-lines (each request has its own maxUnits)",
                    status: CLI.usageError)
            }
            JSONLines.runOnStandardStreams(maxLineBytes: settings.maxLineBytes) { line in
                do throws(Problem) {
                    return try ServiceAnswers.body(request: line)
                } catch {
                    return error.jsonBody()
                }
            }
            return
        }
        let maxUnits = settings.maxUnits ?? BodyRenderer.defaultMaxUnits
        if settings.json {
            var output = jsonAnswer(markdown: CLI.readStdinText(), maxUnits: maxUnits)
            output.append(0x0A)
            CLI.writeAll(output, to: 1)
        } else {
            CLI.writeStdout(BodyRenderer.render(CLI.readStdinText(), maxUnits: maxUnits).body + "\n")
        }
    }

    /// `render --json`: the `POST /body` answer for the Markdown.
    static func jsonAnswer(markdown: String, maxUnits: Int) -> [UInt8] {
        ServiceAnswers.body(markdown: markdown, maxUnits: maxUnits)
    }
}
