import Foundation
import Testing

@testable import notification_text

/// `--version`, every `--help`, and the app name's one spelling.
@Suite struct VersionAndHelpTests {
    /// The VERSION file at the repository root, without its newline.
    static let versionFile: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = (try? String(contentsOf: root.appendingPathComponent("VERSION"), encoding: .utf8)) ?? ""
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }()

    @Test func version_printsTheVersionFileAndTheRevision_exitsZero() throws {
        let result = try BuiltExecutable.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(!Self.versionFile.isEmpty)
        #expect(BuildVersion.version == Self.versionFile)
        #expect(result.stdout == "notification-text \(Self.versionFile) (\(BuildVersion.revision))\n")
        // From a checkout: 12 hex digits; without one: "unknown".
        let revision = BuildVersion.revision
        #expect(
            revision == "unknown" || (revision.count == 12 && revision.allSatisfy { $0.isHexDigit }), "\(revision)")
    }

    @Test(arguments: ["render", "compose", "serve"])
    func help_ofEachCommand_listsEveryOptionWithDefaultRangeAndVariable(command: String) throws {
        let (options, expected) = Self.helpEntries(command)
        #expect(!options.isEmpty)
        for spelling in ["--help", "-h"] {
            let result = try BuiltExecutable.run([command, spelling])
            #expect(result.status == 0, "\(command) \(spelling)")
            #expect(result.stderr.isEmpty)
            #expect(result.stdout.hasPrefix("usage: notification-text \(command)"))
            for entry in expected {
                #expect(result.stdout.contains(entry), "\(command): \(entry)")
            }
        }
        #expect(try BuiltExecutable.run(["help", command]).stdout == BuiltExecutable.run([command, "--help"]).stdout)
    }

    /// Every option that takes a value says which values it accepts, and
    /// every one has a default; the settings shared between commands are the
    /// same entry in each.
    @Test func optionTables_haveARangeAndADefaultForEveryValue() {
        let rows =
            ServeConfiguration.options.map(Self.row) + RenderCommand.options.map(Self.row)
            + ComposeCommand.options.map(Self.row)
        for row in rows {
            #expect(row.hasValue == !row.accepted.isEmpty, "\(row.flag)")
            #expect(!row.defaultValue.isEmpty, "\(row.flag)")
            #expect(!row.meaning.isEmpty, "\(row.flag)")
        }
        let serveApp = ServeConfiguration.options.first { $0.flag == "--app-name" }?.helpEntry
        let composeApp = ComposeCommand.options.first { $0.flag == "--app-name" }?.helpEntry
        #expect(serveApp != nil)
        #expect(serveApp == composeApp)
        #expect(serveApp?.contains("(alias: --app NAME)") == true)
        #expect(serveApp?.contains("env: NOTIFICATION_TEXT_APP_NAME") == true)
        #expect(serveApp?.contains("default: Buzz") == true)
    }

    @Test func help_atTopLevel_namesEveryCommandAndVersion() throws {
        for arguments in [["--help"], ["-h"], ["help"]] {
            let result = try BuiltExecutable.run(arguments)
            #expect(result.status == 0)
            for word in ["render", "compose", "serve", "--version", "--help"] {
                #expect(result.stdout.contains(word), "\(arguments) \(word)")
            }
        }
    }

    @Test(arguments: [
        (
            ["render", "--colour"],
            "notification-text: render: unknown argument '--colour' (see notification-text render --help)\n"
        ),
        (
            ["compose", "--app-nam", "x"],
            "notification-text: compose: unknown argument '--app-nam' (see notification-text compose --help)\n"
        ),
        (["serve", "-v"], "notification-text: serve: unknown argument '-v' (see notification-text serve --help)\n"),
        (["render", "--json=yes"], "notification-text: --json takes no value\n"),
        (
            ["render", "--json", "--json-lines"],
            "notification-text: render: --json and --json-lines exclude each other\n"
        ),
        (["nonsense"], "notification-text: unknown command 'nonsense' (see notification-text --help)\n"),
    ])
    func unknownOrBadOption_exits64WithAClearMessage(arguments: [String], message: String) throws {
        let result = try BuiltExecutable.run(arguments)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == message)
    }

    @Test func appName_oneSettingInEveryCommand_oldSpellingStillWorks() throws {
        let request = Array(#"{"fetch": "timeout"}"#.utf8)
        for arguments in [
            ["compose", "--app-name", "Wiki"], ["compose", "--app", "Wiki"], ["compose", "--app=Wiki"],
        ] {
            let result = try BuiltExecutable.run(arguments, stdin: request)
            #expect(result.status == 0, "\(arguments)")
            #expect(result.stdout.contains(#""title":"Wiki""#), "\(arguments)")
        }
        let fromEnvironment = try BuiltExecutable.run(
            ["compose"], stdin: request, environment: ["NOTIFICATION_TEXT_APP_NAME": "Chat"])
        #expect(fromEnvironment.stdout.contains(#""title":"Chat""#))
        let flagWins = try BuiltExecutable.run(
            ["compose", "--app", "Wiki"], stdin: request, environment: ["NOTIFICATION_TEXT_APP_NAME": "Chat"])
        #expect(flagWins.stdout.contains(#""title":"Wiki""#))
        let bad = try BuiltExecutable.run(["compose", "--app", ""], stdin: request)
        #expect(bad.status == 64)
        #expect(bad.stderr == "notification-text: --app must be 1…100 characters, got ''\n")

        let serve = ServeConfiguration.load(arguments: ["--app", "Wiki"], environment: { _ in nil })
        #expect((try? serve.get())?.appName == "Wiki")
        let serveNew = ServeConfiguration.load(
            arguments: [], environment: { ["NOTIFICATION_TEXT_APP_NAME": "Chat"][$0] })
        #expect((try? serveNew.get())?.appName == "Chat")
    }

    private struct Row {
        let flag: String
        let hasValue: Bool
        let accepted: String
        let defaultValue: String
        let meaning: String
    }

    private static func row<Settings>(_ option: CommandOption<Settings>) -> Row {
        Row(
            flag: option.flag, hasValue: option.valueName != nil, accepted: option.value.accepted,
            defaultValue: option.value.defaultValue(Settings()), meaning: option.meaning)
    }

    /// The command's options and the lines its help must hold for each.
    private static func helpEntries(_ command: String) -> ([String], [String]) {
        func entries<Settings>(_ options: [CommandOption<Settings>]) -> ([String], [String]) {
            var lines: [String] = []
            for option in options {
                lines.append(option.helpEntry)
                let defaultValue = option.value.defaultValue(Settings())
                #expect(option.helpEntry.contains("\n      default: \(defaultValue)\n"))
                if !option.value.accepted.isEmpty {
                    #expect(option.helpEntry.contains("\n      values: \(option.value.accepted)\n"))
                }
                if let variable = option.environmentVariable {
                    #expect(option.helpEntry.contains("\n      env: \(variable)\n"))
                }
            }
            return (options.map(\.flag), lines)
        }
        switch command {
        case "render": return entries(RenderCommand.options)
        case "compose": return entries(ComposeCommand.options)
        default: return entries(ServeConfiguration.options)
        }
    }
}
