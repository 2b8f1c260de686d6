import NotificationService

// `notification-text <command> [options]`: each command lives in its own file.
let usage = """
    usage: notification-text <command> [options]
           notification-text --version | --help

    commands:
      render    Markdown on stdin, the notification body on stdout (--json, --json-lines: POST /body's answers)
      compose   a POST /compose request on stdin, the answer on stdout (--json-lines: one per line)
      relay     a POST /relay request on stdin, the answer on stdout: the relay's core (--json-lines)
      locale    how a request's locale TAG chooses its catalog, as JSON (the oracle of test-fixtures/l10n.json)
      serve     the HTTP service, on 127.0.0.1:8080 unless told otherwise
      help      this text; `help <command>` is `<command> --help`

    options:
      --version   print `notification-text VERSION (REVISION)` and exit
      -h, --help  print this help and exit

    Each command lists its options, with their defaults, ranges and environment
    variables, under `notification-text <command> --help`.

    """

let commands: [String: (run: ([String]) -> Void, help: () -> String)] = [
    "render": (RenderCommand.run, { RenderCommand.help }),
    "compose": (ComposeCommand.run, { ComposeCommand.help }),
    "relay": (RelayCommand.run, { RelayCommand.help }),
    "locale": (LocaleCommand.run, { LocaleCommand.help }),
    "serve": (
        { arguments in
            MallocTuning.keepFreedMemory()
            ServeCommand.run(arguments)
        }, { ServeCommand.help }
    ),
]

var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else {
    CLI.fail("a command is needed\n\(usage)", status: CLI.usageError)
}
arguments.removeFirst()

switch command {
case "--version":
    CLI.writeStdout("notification-text \(BuildVersion.version) (\(BuildVersion.revision))\n")
case "-h", "--help":
    CLI.writeStdout(usage)
case "help":
    if let topic = arguments.first {
        guard let entry = commands[topic] else {
            CLI.fail("help: unknown command '\(topic)' (see notification-text --help)", status: CLI.usageError)
        }
        CLI.writeStdout(entry.help())
    } else {
        CLI.writeStdout(usage)
    }
default:
    guard let entry = commands[command] else {
        CLI.fail("unknown command '\(command)' (see notification-text --help)", status: CLI.usageError)
    }
    entry.run(arguments)
}
