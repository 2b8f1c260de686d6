import NotificationEngine
import NotificationService

/// `compose`: a `POST /compose` request on stdin, its answer on stdout,
/// decoded and validated exactly as the route does. A bad request prints
/// the problem's code and detail on stderr and exits 65. `--json-lines`
/// answers one request per line (see `JSONLines`).
enum ComposeCommand {
    struct Settings: CommandSettings {
        var appName = ComposeRequest.defaultApp
        var catalogs = CatalogSet.builtIn
        var jsonLines = false
        var maxLineBytes = defaultMaxBodyBytes
    }

    static let options = options(route: "/compose")

    /// The options of a command that answers one route's requests (`compose`, `relay`).
    static func options(route: String) -> [CommandOption<Settings>] {
        [
            .appName(\.appName),
            .defaultLocale(\.catalogs),
            .switch(
                "--json-lines",
                meaning: "read one POST \(route) request per line, print its answer or problem per line",
                \.jsonLines),
            .maxBodyBytes(
                \.maxLineBytes, meaning: "with --json-lines: the longest line (a longer one gets the 413 problem)"),
        ]
    }

    static var help: String {
        OptionParser.help(
            usage: "compose [options] < request.json",
            about: "A POST /compose request (JSON) on stdin, the answer JSON and a newline on stdout\n"
                + "(docs/spec/compose.md); `now` defaults to the clock.",
            options: options,
            notes: JSONLines.helpNotes
                + "\n\nexit status: 0; 64 for a bad option; 65 for a bad request (its code and detail on stderr)")
    }

    static func run(_ arguments: [String]) {
        let settings = OptionParser.settingsOrExit(arguments, command: "compose", options: options, help: { help })
        answer(settings) { request, appName, catalogs throws(Problem) in
            try ServiceAnswers.compose(
                request: request, appName: appName, catalogs: catalogs, now: WallClock.system.timestamp)
        }
    }

    /// Answers stdin with `answer`: one request, or one per line with
    /// `--json-lines` (a problem is then that line's answer); a bad single
    /// request prints its code and detail on stderr and exits 65.
    static func answer(
        _ settings: Settings,
        _ answer: ([UInt8], String, CatalogSet) throws(Problem) -> [UInt8]
    ) {
        let appName = settings.appName
        let catalogs = settings.catalogs
        if settings.jsonLines {
            JSONLines.runOnStandardStreams(maxLineBytes: settings.maxLineBytes) { line in
                do throws(Problem) {
                    return try answer(line, appName, catalogs)
                } catch {
                    return error.jsonBody()
                }
            }
            return
        }
        var output: [UInt8]
        do {
            output = try answer(CLI.readStdin(), appName, catalogs)
        } catch {
            CLI.fail("\(error.code): \(error.detail)", status: CLI.dataError)
        }
        output.append(0x0A)
        CLI.writeAll(output, to: 1)
    }
}
