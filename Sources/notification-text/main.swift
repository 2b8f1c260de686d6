import NotificationService

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// `notification-text <subcommand> [options]`: each subcommand lives in its own file.
let usage = """
    usage: notification-text <command> [options]

    commands:
      render [--max-units N]   Markdown on stdin, the notification body on stdout
      compose [--app NAME]     a compose request (JSON) on stdin, the response JSON on stdout
      serve [options]          the HTTP service (see serve --help); default 127.0.0.1:8080
    """

var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else {
    CLI.fail(usage, status: CLI.usageError)
}
arguments.removeFirst()

switch command {
case "render":
    RenderCommand.run(arguments)
case "compose":
    ComposeCommand.run(arguments)
case "serve":
    MallocTuning.keepFreedMemory()
    ServeCommand.run(arguments)
case "-h", "--help", "help":
    print(usage)
default:
    CLI.fail("unknown command '\(command)'\n\(usage)", status: CLI.usageError)
}
