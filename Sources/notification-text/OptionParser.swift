import NotificationService

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bad command line or setting: the message says what and where it came
/// from; the process exits with 64.
struct UsageError: Error, Equatable {
    let message: String
    init(_ message: String) { self.message = message }
}

/// What a command line asks for.
enum ParsedCommand<Settings> {
    case run(Settings)
    /// `-h` or `--help` was given.
    case help
}

/// Reads a command's settings from its options table.
enum OptionParser {
    /// Each setting from its flag in `arguments` (`--name value` or
    /// `--name=value`; a switch takes none), else from its environment
    /// variable, else the default; values are applied in the table's order.
    /// When a flag comes twice, the last one counts. A bad value is a usage
    /// error naming the flag or variable it came from; an environment value
    /// that a flag overrides is not even looked at.
    static func parse<Settings>(
        _ arguments: [String], command: String, options: [CommandOption<Settings>],
        environment: (String) -> String? = OptionParser.environmentValue
    ) -> Result<ParsedCommand<Settings>, UsageError> {
        // Keyed by the option's flag: the spelling used (for messages) and the value.
        var flagValues: [String: (spelling: String, raw: String)] = [:]
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "-h" || argument == "--help" { return .success(.help) }
            var name = argument
            var attached: String? = nil
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                attached = String(argument[argument.index(after: equals)...])
            }
            guard let option = options.first(where: { $0.spellings.contains(name) }) else {
                return .failure(
                    UsageError("\(command): unknown argument '\(argument)' (see notification-text \(command) --help)"))
            }
            if option.valueName == nil {
                guard attached == nil else { return .failure(UsageError("\(name) takes no value")) }
                flagValues[option.flag] = (name, "")
            } else if let attached {
                flagValues[option.flag] = (name, attached)
            } else {
                guard let value = rest.popFirst() else { return .failure(UsageError("\(name) needs a value")) }
                flagValues[option.flag] = (name, value)
            }
        }
        var settings = Settings()
        for option in options {
            let source: String
            let raw: String
            if let given = flagValues[option.flag] {
                (source, raw) = given
            } else if let variable = option.environmentVariable, let value = environment(variable) {
                (source, raw) = (variable, value)
            } else {
                continue
            }
            if let problem = option.value.apply(&settings, raw) {
                return .failure(UsageError("\(source) \(problem), got '\(raw)'"))
            }
        }
        return .success(.run(settings))
    }

    /// The settings, or exits: 0 after printing `help` for `--help`, 64 with
    /// the message for a bad command line.
    static func settingsOrExit<Settings>(
        _ arguments: [String], command: String, options: [CommandOption<Settings>], help: () -> String
    ) -> Settings {
        switch parse(arguments, command: command, options: options) {
        case .success(.run(let settings)):
            return settings
        case .success(.help):
            CLI.writeStdout(help())
            exit(0)
        case .failure(let error):
            CLI.fail(error.message, status: CLI.usageError)
        }
    }

    /// `usage` and the options table as `--help` prints them.
    static func help<Settings>(usage: String, about: String, options: [CommandOption<Settings>], notes: String = "")
        -> String
    {
        var text = "usage: notification-text \(usage)\n\n\(about)\n\noptions:\n"
        for option in options { text += option.helpEntry }
        text += "  -h, --help\n      print this help and exit\n"
        if !notes.isEmpty { text += "\n\(notes)\n" }
        return text
    }

    static func environmentValue(_ name: String) -> String? {
        ProcessIO.environmentValue(name)
    }
}
