import NotificationService
import NotificationText

/// `compose [--app NAME]`: a compose request as JSON on stdin, the response
/// JSON on stdout, decoded and validated exactly as `POST /compose` does.
/// A bad request prints the problem's detail on stderr and exits 65.
enum ComposeCommand {
    static func run(_ arguments: [String]) {
        var app = ComposeRequest.defaultApp
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--app" {
                guard let value = rest.popFirst() else { CLI.fail("--app needs a value", status: CLI.usageError) }
                app = value
            } else if argument.hasPrefix("--app=") {
                app = String(argument.dropFirst("--app=".count))
            } else {
                CLI.fail("compose: unknown argument '\(argument)'", status: CLI.usageError)
            }
        }
        let request: ComposeRequest
        do {
            request = try ComposeRequest.decode(CLI.readStdin(), serverApp: app, now: WallClock.system.timestamp)
        } catch {
            CLI.fail("\(error.code): \(error.detail)", status: CLI.dataError)
        }
        var output = Composer.compose(request).jsonBody()
        output.append(UInt8(ascii: "\n"))
        CLI.writeStdout(String(decoding: output, as: UTF8.self))
    }
}
