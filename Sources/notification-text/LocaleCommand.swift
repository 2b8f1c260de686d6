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
            value: .integer(0...1_000_000_000, \.count, unset: "none")),
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
        let catalogs = settings.catalogs
        let isAbsent = text?.isEmpty ?? true
        let tag = isAbsent ? nil : LocaleTag(text!)
        let choice = tag.map { catalogs.choice(for: $0) }
        let catalog = isAbsent ? catalogs.defaultCatalog : choice?.catalog
        return JSONWriter.bytes(capacity: 256) { json in
            json.raw(#"{"locale":"#)
            json.string(text)
            json.raw(isAbsent || tag != nil ? #","valid":true"# : #","valid":false"#)
            json.raw(#","normalized":"#)
            write(tag, to: &json)
            json.raw(#","maximized":"#)
            write(tag?.maximized, to: &json)
            json.raw(#","catalog":"#)
            json.string(catalog?.tag)
            json.raw(#","direction":"#)
            json.string(catalog?.direction.rawValue)
            json.raw(#","by":"#)
            json.string(isAbsent ? "L1" : choice.map { "rule \($0.rule)" } ?? "L2")
            json.raw(#","parents":["#)
            for (index, parent) in (choice?.parents ?? []).enumerated() {
                if index > 0 { json.raw(",") }
                json.string(parent.description)
            }
            json.raw(#"],"defaultLocale":"#)
            json.string(catalogs.defaultCatalog.tag)
            if let catalog, let count = settings.count {
                json.raw(#","plural":{"count":"#)
                json.integer(count)
                json.raw(#","category":"#)
                json.string(catalog.pluralRules.category(count).name)
                json.raw("}")
            }
            if let catalog, let key = settings.key {
                json.raw(#","formatted":"#)
                json.string(catalog.format(key, settings.arguments))
            }
            json.raw("}")
        }
    }

    /// `[language, script, region]`, null for a missing subtag; `null` for no tag.
    private static func write(_ tag: LocaleTag?, to json: inout JSONWriter) {
        guard let tag else { return json.null() }
        json.raw("[")
        json.string(tag.language)
        json.raw(",")
        json.string(tag.script)
        json.raw(",")
        json.string(tag.region)
        json.raw("]")
    }

    /// `--arguments`: an object of the message arguments of compose.md section 8.
    static func messageArguments(_ raw: String) -> MessageArguments? {
        guard let tape = try? JSONParser.tape(Array(raw.utf8)), tape.kind(JSONTape.root) == .object else { return nil }
        var arguments = MessageArguments()
        for (name, value) in tape.members(JSONTape.root) {
            let key = tape.string(name)
            switch key {
            case "count", "others":
                guard tape.kind(value) == .number, tape.isIntegerLexeme(value),
                    let number = tape.integerValue(value), (0...1_000_000_000).contains(number)
                else { return nil }
                if key == "count" { arguments.count = number } else { arguments.others = number }
            case "name", "text", "app", "a", "b", "c":
                guard tape.kind(value) == .string else { return nil }
                let string = tape.string(value)
                switch key {
                case "name": arguments.name = string
                case "text": arguments.text = string
                case "app": arguments.app = string
                case "a": arguments.a = string
                case "b": arguments.b = string
                default: arguments.c = string
                }
            default:
                return nil
            }
        }
        return arguments
    }
}
