import NotificationEngine
import NotificationService

/// `relay`: a `POST /relay` request on stdin (docs/relay.md: the relay's
/// core, an `event`, `loop`, `gave-up`, `answer` or `wake` with the stored
/// record), its answer on stdout, exactly as the route answers. A bad
/// request prints the problem's code and detail on stderr and exits 65.
/// `--json-lines` answers one request per line (see `JSONLines`), so a
/// relay can keep one process and feed it.
enum RelayCommand {
    struct Settings: CommandSettings {
        var appName = ComposeRequest.defaultApp
        var catalogs = CatalogSet.builtIn
        var jsonLines = false
        var maxLineBytes = defaultMaxBodyBytes
    }

    static let options: [CommandOption<Settings>] = [
        .appName(\.appName),
        .defaultLocale(\.catalogs),
        .switch(
            "--json-lines", meaning: "read one POST /relay request per line, print its answer or problem per line",
            \.jsonLines),
        .maxBodyBytes(
            \.maxLineBytes, meaning: "with --json-lines: the longest line (a longer one gets the 413 problem)"),
    ]

    static var help: String {
        OptionParser.help(
            usage: "relay [options] < request.json",
            about: "A POST /relay request (JSON) on stdin, the answer JSON and a newline on stdout\n"
                + "(docs/relay.md: the relay's decisions without IO).",
            options: options,
            notes: JSONLines.helpNotes
                + "\n\nexit status: 0; 64 for a bad option; 65 for a bad request (its code and detail on stderr)")
    }

    static func run(_ arguments: [String]) {
        let settings = OptionParser.settingsOrExit(arguments, command: "relay", options: options, help: { help })
        let appName = settings.appName
        let catalogs = settings.catalogs
        if settings.jsonLines {
            JSONLines.runOnStandardStreams(maxLineBytes: settings.maxLineBytes) { line in
                do throws(Problem) {
                    return try ServiceAnswers.relay(request: line, appName: appName, catalogs: catalogs)
                } catch {
                    return error.jsonBody()
                }
            }
            return
        }
        var output: [UInt8]
        do {
            output = try ServiceAnswers.relay(request: CLI.readStdin(), appName: appName, catalogs: catalogs)
        } catch {
            CLI.fail("\(error.code): \(error.detail)", status: CLI.dataError)
        }
        output.append(0x0A)
        CLI.writeAll(output, to: 1)
    }
}
