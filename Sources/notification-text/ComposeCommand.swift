import NotificationService
import NotificationText

/// `compose [--app NAME]`: a compose request as JSON on stdin, the response
/// JSON on stdout, decoded and validated exactly as `POST /compose` does.
/// A bad request prints the problem's detail on stderr and exits 65.
enum ComposeCommand {
    static func run(_ arguments: [String]) {
        var app = ComposeRequest.defaultApp
        CLI.forEachOption(in: arguments, of: "compose", named: ["--app"]) { _, value in app = value }
        let input: ComposeInput
        do {
            input = try ComposeInput.decode(CLI.readStdin(), serverApp: app, now: WallClock.system.timestamp)
        } catch {
            CLI.fail("\(error.code): \(error.detail)", status: CLI.dataError)
        }
        var output = Composer.compose(input).jsonBody(input: input)
        output.append(UInt8(ascii: "\n"))
        CLI.writeStdout(String(decoding: output, as: UTF8.self))
    }
}
