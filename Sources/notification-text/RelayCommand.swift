import NotificationEngine
import NotificationService

/// `relay`: a `POST /relay` request on stdin (docs/relay.md: the relay's
/// core, an `event`, `loop`, `gave-up`, `answer` or `wake` with the stored
/// record), its answer on stdout, exactly as the route answers. A bad
/// request prints the problem's code and detail on stderr and exits 65.
/// `--json-lines` answers one request per line (see `JSONLines`), so a
/// relay can keep one process and feed it.
enum RelayCommand {
    static let options = ComposeCommand.options(route: "/relay")

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
        ComposeCommand.answer(settings) { request, appName, catalogs throws(Problem) in
            try ServiceAnswers.relay(request: request, appName: appName, catalogs: catalogs)
        }
    }
}
