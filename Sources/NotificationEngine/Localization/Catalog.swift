/// The texts `POST /compose` writes of its own, in one locale
/// (compose-l10n.md section 4): ten messages, parsed once, with the
/// locale's direction and CLDR plural rules.
///
/// Immutable and shared: a reference costs one retain to pass around.
package final class Catalog: Sendable {
    /// A catalog as its file writes it (`l10n/<tag>.json`).
    package struct Source: Sendable {
        package var tag: String
        package var direction: TextDirection
        /// One message per key, in `MessageKey.allCases` order.
        package var messages: [String]

        package init(tag: String, direction: TextDirection, messages: [String]) {
            self.tag = tag
            self.direction = direction
            self.messages = messages
        }
    }

    /// The tag as written in the catalog's file (`pt-PT`): the response's `locale`.
    package let tag: String
    /// `tag`, parsed.
    package let locale: LocaleTag
    package let direction: TextDirection
    /// The CLDR plural rules of `tag`.
    package let pluralRules: PluralRules
    /// `locale` maximized (section 2): what choosing a catalog compares.
    package let maximized: LocaleTag
    /// The messages as written, by `MessageKey.rawValue`.
    let sources: [String]
    let messages: [Message]
    /// The formatted text of each message that inserts nothing.
    let constants: [String?]

    /// The catalogs of `l10n/`, built into the library (`BuiltInCatalogs.swift`,
    /// generated from the files).
    package static let builtIn: [Catalog] = builtInSources.map { source in
        do throws(LocalizationError) {
            return try Catalog(source)
        } catch {
            // CatalogFileTests checks every file, so this is unreachable.
            fatalError("built-in catalog \(source.tag): \(error)")
        }
    }

    /// Parses and checks a catalog.
    /// - Throws: `LocalizationError` when its tag is not a language with an
    ///   optional script and region written canonically (`zh-Hant`, `pt-PT`),
    ///   CLDR has no plural rules for it, it does not have exactly one message
    ///   per key, or a message breaks section 5: its syntax, an argument its
    ///   key does not list or one it lists and does not use, or a plural
    ///   without a keyword branch for a category its rules give to a count
    ///   from 0 to 1000.
    package init(_ source: Source) throws(LocalizationError) {
        guard let locale = LocaleTag(source.tag), locale.description == source.tag else {
            throw .catalogTag(source.tag)
        }
        guard let rules = PluralRules(tag: locale) else { throw .noPluralRules(source.tag) }
        guard source.messages.count == MessageKey.allCases.count else {
            throw .messageCount(tag: source.tag, count: source.messages.count)
        }
        var messages: [Message] = []
        for key in MessageKey.allCases {
            let text = source.messages[key.rawValue]
            let message: Message
            do {
                message = try Message(text)
            } catch {
                throw .invalidMessage(tag: source.tag, key: key.name, reason: error.description)
            }
            if let problem = Catalog.problem(with: message, of: key, rules: rules) {
                throw .invalidMessage(tag: source.tag, key: key.name, reason: problem)
            }
            messages.append(message)
        }
        tag = source.tag
        self.locale = locale
        direction = source.direction
        pluralRules = rules
        maximized = locale.maximized
        sources = source.messages
        self.messages = messages
        constants = messages.map { message in
            message.usedArguments.isEmpty ? String(decoding: message.bytes, as: UTF8.self) : nil
        }
    }

    /// The categories `rules` give to some count from 0 to 1000.
    static func categories(for rules: PluralRules) -> Set<PluralCategory> {
        var seen: UInt8 = 0
        for n in 0...1000 { seen |= 1 << rules.category(n).rawValue }
        return Set(PluralCategory.allCases.filter { seen & 1 << $0.rawValue != 0 })
    }

    /// What breaks section 5's rules for `key` beyond the syntax, or `nil`.
    static func problem(with message: Message, of key: MessageKey, rules: PluralRules) -> String? {
        let used = message.usedArguments
        let allowed = Set(key.arguments)
        if let extra = MessageArgument.allCases.first(where: { used.contains($0) && !allowed.contains($0) }) {
            return "\(extra.name) is not an argument of \(key.name)"
        }
        if let unused = key.arguments.first(where: { !used.contains($0) }) {
            return "\(unused.name) is never used"
        }
        let needed = categories(for: rules)
        for plural in message.plurals {
            let written = Set(
                plural.selectors.compactMap { selector -> PluralCategory? in
                    if case .category(let category) = selector { return category }
                    return nil
                })
            if let missing = PluralCategory.allCases.first(where: { needed.contains($0) && !written.contains($0) }) {
                return "the plural over \(plural.argument.name) has no \(missing.name) branch"
            }
        }
        return nil
    }

    /// The message of `key` as the catalog writes it.
    package func source(of key: MessageKey) -> String {
        sources[key.rawValue]
    }
}

/// Why a catalog, or a set of them, cannot be used.
package enum LocalizationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A tag that section 1 rejects.
    case malformedTag(String)
    /// A catalog tag that is not a language, an optional script and an
    /// optional region, written canonically.
    case catalogTag(String)
    case noPluralRules(String)
    case messageCount(tag: String, count: Int)
    case invalidMessage(tag: String, key: String, reason: String)
    /// Two catalogs whose tags maximize to the same language, script and region.
    case sameMaximizedTag(String, String)
    /// A default locale that no catalog fits by section 3's rules 1–3.
    case noCatalogFits(String)

    package var description: String {
        switch self {
        case .malformedTag(let tag): return "malformed locale \(tag)"
        case .catalogTag(let tag): return "catalog tag \(tag) is not a canonical language[-Script][-REGION]"
        case .noPluralRules(let tag): return "CLDR has no plural rules for \(tag)"
        case .messageCount(let tag, let count): return "catalog \(tag) has \(count) messages, not 10"
        case .invalidMessage(let tag, let key, let reason): return "catalog \(tag), \(key): \(reason)"
        case .sameMaximizedTag(let a, let b): return "catalogs \(a) and \(b) maximize to the same tag"
        case .noCatalogFits(let tag): return "no catalog fits the default locale \(tag)"
        }
    }
}
