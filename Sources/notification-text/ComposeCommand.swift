import NotificationService
import NotificationText

/// `compose [--app NAME] [--default-locale TAG]`: a compose request as JSON
/// on stdin, the response JSON on stdout, decoded and validated exactly as
/// `POST /compose` does (`--default-locale` as `serve` reads it). A bad
/// request prints the problem's code and detail on stderr and exits 65.
enum ComposeCommand {
    static func run(_ arguments: [String]) {
        var app = ComposeRequest.defaultApp
        var catalogs = CatalogSet.builtIn
        CLI.forEachOption(in: arguments, of: "compose", named: ["--app", "--default-locale"]) { name, value in
            if name == "--app" {
                app = value
            } else if let problem = ServeConfiguration.defaultLocale(value, store: { catalogs = $0 }) {
                CLI.fail("\(name) \(problem), got '\(value)'", status: CLI.usageError)
            }
        }
        let request: ComposeRequest
        do {
            request = try ComposeRequest.decode(
                CLI.readStdin(), serverApp: app, catalogs: catalogs, now: WallClock.system.timestamp)
        } catch {
            CLI.fail("\(error.code): \(error.detail)", status: CLI.dataError)
        }
        var output = Composer.compose(request).jsonBody()
        output.append(UInt8(ascii: "\n"))
        CLI.writeStdout(String(decoding: output, as: UTF8.self))
    }
}
