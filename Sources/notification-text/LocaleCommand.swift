import NotificationEngine

/// `locale [TAG]`: how a request's `locale` chooses its catalog
/// (compose.md sections 9 and 10), as one JSON line: the tag parsed and
/// maximized, the catalog, the rule that chose it and the CLDR parents
/// followed; with `--count`, the plural category of a count in that catalog,
/// and with `--format`, one of its messages filled in. A port's oracle for
/// every case of test-fixtures/l10n.json.
enum LocaleCommand {
    struct Settings: CommandSettings {
        var catalogs = CatalogSet.builtIn
        var count: Int?
        var key: MessageKey?
        var arguments = MessageArguments()
    }

    static let options: [CommandOption<Settings>] = [
        .defaultLocale(\.catalogs),
        CommandOption(
            flag: "--count", environmentVariable: nil, valueName: "N",
            meaning: "also print the chosen catalog's CLDR plural category of N (\"plural\")",
            value: .integer(LocaleQuestion.countRange, \.count, unset: "none")),
        CommandOption(
            flag: "--format", environmentVariable: nil, valueName: "KEY",
            meaning: "also print the chosen catalog's message KEY filled in with --arguments (\"formatted\")",
            value: OptionValue(
                accepted: MessageKey.allCases.map(\.name).joined(separator: ", "),
                defaultValue: { $0.key?.name ?? "none" }
            ) { settings, raw in
                guard let key = MessageKey(name: raw) else { return "must be a message key of compose.md section 8" }
                settings.key = key
                return nil
            }),
        CommandOption(
            flag: "--arguments", environmentVariable: nil, valueName: "JSON",
            meaning: "with --format: the message's arguments, a JSON object such as {\"a\":\"Ana\",\"count\":3};"
                + " one left out is an empty text or 0",
            value: OptionValue(
                accepted: "an object of count, others (integers 0…1000000000) and name, text, app, a, b, c (strings)",
                defaultValue: { _ in "{}" }
            ) { settings, raw in
                guard let arguments = messageArguments(raw) else {
                    return "must be a JSON object of count, others (integers 0…1000000000) and name, text, app, a, b, c"
                        + " (strings)"
                }
                settings.arguments = arguments
                return nil
            }),
    ]

    static var help: String {
        OptionParser.help(
            usage: "locale [TAG] [options], or locale -- TAG [options] for a TAG that starts with -",
            about: "How a POST /compose request's `locale` TAG chooses its catalog (docs/spec/compose.md sections 9"
                + " and 10),\nas one JSON line: {\"locale\", \"valid\", \"normalized\", \"maximized\", \"catalog\","
                + " \"direction\", \"by\", \"parents\",\n\"defaultLocale\"}, and \"plural\" with --count, \"formatted\""
                + " with --format. No TAG (or \"\") is a request\nwithout `locale`. A malformed TAG is \"valid\": false"
                + " and \"catalog\": null (the request's 400 invalid-locale).",
            options: options,
            notes: """
                "normalized" and "maximized" are [language, script, region] (null for a missing subtag) after
                rules L3-L4 and L5; "by" is the rule that chose: "L1" (no tag), "rule 1" to "rule 4" (L6),
                or "L2" (malformed); "parents" are the CLDR parent-locale exceptions rule 2 followed, in order.

                exit status: 0, a malformed TAG included; 64 for a bad option
                """)
    }

    static func run(_ arguments: [String]) {
        // TAG comes first; `--` before it lets a TAG start with `-` (which makes it malformed).
        var arguments = arguments[...]
        var tag: String? = nil
        if arguments.first == "--" {
            arguments.removeFirst()
            tag = arguments.popFirst() ?? ""
        } else if let first = arguments.first, first.isEmpty || !first.hasPrefix("-") {
            tag = arguments.removeFirst()
        }
        let settings = OptionParser.settingsOrExit(
            Array(arguments), command: "locale", options: options, help: { help })
        var output = answer(tag: tag, settings: settings)
        output.append(0x0A)
        CLI.writeAll(output, to: 1)
    }

    /// The JSON line for `tag` (nil: no `locale`).
    static func answer(tag text: String?, settings: Settings) -> [UInt8] {
        var question = LocaleQuestion(tag: text)
        question.catalogs = settings.catalogs
        question.count = settings.count
        question.key = settings.key
        question.arguments = settings.arguments
        return question.jsonAnswer()
    }

    /// `--arguments`: an object of the message arguments of compose.md section 8.
    static func messageArguments(_ raw: String) -> MessageArguments? {
        guard let tape = try? JSONParser.tape(Array(raw.utf8)) else { return nil }
        return LocaleQuestion.messageArguments(tape, JSONTape.root)
    }
}
