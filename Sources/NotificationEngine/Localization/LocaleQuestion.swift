/// How a request's `locale` chooses its catalog (compose.md sections 9 and
/// 10), asked and answered as JSON: the command line's `locale` line and the
/// WebAssembly module's `nt_locale` answer (docs/wasm.md) are this
/// `jsonAnswer()`, so both give the same bytes. The oracle of every case of
/// test-fixtures/l10n.json.
package struct LocaleQuestion {
    /// The request's `locale`; nil or empty: a request without one.
    package var tag: String?
    /// The catalogs and the default locale (`--default-locale`).
    package var catalogs = CatalogSet.builtIn
    /// Also answer the chosen catalog's plural category of this count.
    package var count: Int?
    /// Also answer the chosen catalog's message `key` filled in with `arguments`.
    package var key: MessageKey?
    package var arguments = MessageArguments()

    package init(tag: String?) {
        self.tag = tag
    }

    /// The counts `count`, `--count` and the arguments `count` and `others` accept.
    package static let countRange = 0...1_000_000_000

    /// `{"locale","valid","normalized","maximized","catalog","direction","by","parents","defaultLocale"}`,
    /// with `"plural"` when `count` is set and `"formatted"` when `key` is;
    /// a malformed tag is `"valid": false` and `"catalog": null`.
    package func jsonAnswer() -> [UInt8] {
        let isAbsent = tag?.isEmpty ?? true
        let parsed = isAbsent ? nil : LocaleTag(tag!)
        let choice = parsed.map { catalogs.choice(for: $0) }
        let catalog = isAbsent ? catalogs.defaultCatalog : choice?.catalog
        return JSONWriter.bytes(capacity: 256) { json in
            json.raw(#"{"locale":"#)
            json.string(tag)
            json.raw(isAbsent || parsed != nil ? #","valid":true"# : #","valid":false"#)
            json.raw(#","normalized":"#)
            Self.write(parsed, to: &json)
            json.raw(#","maximized":"#)
            Self.write(parsed?.maximized, to: &json)
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
            if let catalog, let count {
                json.raw(#","plural":{"count":"#)
                json.integer(count)
                json.raw(#","category":"#)
                json.string(catalog.pluralRules.category(count).name)
                json.raw("}")
            }
            if let catalog, let key {
                json.raw(#","formatted":"#)
                json.string(catalog.format(key, arguments))
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

    /// The message arguments of compose.md section 8 in the object at
    /// `value`: `count` and `others` integers in `countRange`, `name`,
    /// `text`, `app`, `a`, `b`, `c` strings; nil for anything else.
    package static func messageArguments(_ tape: JSONTape, _ value: Int) -> MessageArguments? {
        guard tape.kind(value) == .object else { return nil }
        var arguments = MessageArguments()
        for (name, value) in tape.members(value) {
            let key = tape.string(name)
            switch key {
            case "count", "others":
                guard tape.kind(value) == .number, tape.isIntegerLexeme(value),
                    let number = tape.integerValue(value), countRange.contains(number)
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

    /// The question a JSON object asks: `{"locale": TAG or null, "defaultLocale": TAG,
    /// "count": N, "format": KEY, "arguments": {…}}`, every member optional
    /// (the module's `nt_locale`, docs/wasm.md).
    /// - Throws: the problem a member that the `locale` command's matching
    ///   option would refuse gets (`invalid-json`, `invalid-type`,
    ///   `out-of-range`, `invalid-value`, `invalid-locale` for a default no
    ///   catalog fits), with its pointer.
    package static func decode(_ request: [UInt8]) throws(Problem) -> LocaleQuestion {
        let tape: JSONTape
        do throws(JSONParseError) {
            tape = try JSONParser.tape(request)
        } catch {
            throw Problem(error)
        }
        let root = JSONTape.root
        guard tape.kind(root) == .object else {
            throw Problem(.invalidType, "the request must be a JSON object", at: "")
        }
        var question = LocaleQuestion(tag: nil)
        for (name, value) in tape.members(root) {
            let member = tape.string(name)
            switch member {
            case "locale":
                guard tape.kind(value) == .string || tape.kind(value) == .null else {
                    throw Problem(.invalidType, "locale must be a string or null", at: member)
                }
                question.tag = tape.kind(value) == .null ? nil : tape.string(value)
            case "defaultLocale":
                guard tape.kind(value) == .string else {
                    throw Problem(.invalidType, "defaultLocale must be a string", at: member)
                }
                do throws(LocalizationError) {
                    question.catalogs = try CatalogSet.builtIn.withDefaultLocale(tape.string(value))
                } catch {
                    throw Problem(.invalidLocale, "defaultLocale: \(error.description)", at: member)
                }
            case "count":
                guard tape.kind(value) == .number, tape.isIntegerLexeme(value) else {
                    throw Problem(.invalidType, "count must be an integer", at: member)
                }
                guard let count = tape.integerValue(value), countRange.contains(count) else {
                    throw Problem(.outOfRange, "count must be 0…1000000000", at: member)
                }
                question.count = count
            case "format":
                guard tape.kind(value) == .string else {
                    throw Problem(.invalidType, "format must be a string", at: member)
                }
                guard let key = MessageKey(name: tape.string(value)) else {
                    throw Problem(.invalidValue, "format must be a message key of compose.md section 8", at: member)
                }
                question.key = key
            case "arguments":
                guard let arguments = messageArguments(tape, value) else {
                    throw Problem(
                        .invalidValue,
                        "arguments must be an object of count, others (integers 0…1000000000) and name, text, app,"
                            + " a, b, c (strings)", at: member)
                }
                question.arguments = arguments
            default:
                throw Problem(.invalidValue, "unknown member \(member)", at: member)
            }
        }
        return question
    }
}
