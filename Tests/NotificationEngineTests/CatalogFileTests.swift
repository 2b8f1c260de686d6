import Foundation
import Testing

@testable import NotificationEngine

/// Every catalog file of `l10n/` against compose-l10n.md sections 4 and 5,
/// and the built-in copy against the files.
@Suite struct CatalogFileTests {
    struct File: Sendable, CustomTestStringConvertible {
        let name: String
        let text: String
        var testDescription: String { name }
    }

    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("l10n")

    static let files: [File] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { name in
            File(
                name: name,
                text: (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? "")
        }
    }()

    /// The file's `locale`, `direction` and messages, sorted by key name.
    static func decode(_ file: File) throws -> (locale: String, direction: String, messages: [(String, String)]) {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(file.text.utf8)) as? [String: Any])
        let messages = try #require(root["messages"] as? [String: String], "\(file.name): messages")
        return (
            try #require(root["locale"] as? String), try #require(root["direction"] as? String),
            messages.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        )
    }

    @Test func l10n_holdsTheEighteenCatalogsOfTheSpec() {
        let tags = Set(CatalogFileTests.files.map { String($0.name.dropLast(".json".count)) })
        let required: Set = [
            "en", "ar", "de", "es", "fr", "he", "hi", "it", "ja", "ko", "pl", "pt", "pt-PT", "ru", "tr", "uk",
            "zh-Hans", "zh-Hant",
        ]
        #expect(required.isSubset(of: tags), "missing \(required.subtracting(tags).sorted())")
    }

    @Test(arguments: CatalogFileTests.files)
    func catalog_followsSectionsFourAndFive(_ file: File) throws {
        let (locale, direction, messages) = try CatalogFileTests.decode(file)
        #expect(file.name == locale + ".json", "\(file.name): locale \(locale)")
        #expect(direction == "ltr" || direction == "rtl", "\(file.name): direction \(direction)")
        #expect(!file.text.contains("'"), "\(file.name): an ASCII apostrophe")
        #expect(
            messages.map(\.0) == MessageKey.allCases.map(\.name).sorted(), "\(file.name): keys \(messages.map(\.0))")
        let tag = try #require(LocaleTag(locale), "\(file.name): tag")
        #expect(tag.description == locale, "\(file.name): \(locale) is not language[-Script][-REGION]")
        let rules = try #require(PluralRules(tag: tag), "\(file.name): no CLDR rules")
        let categories = Set((0...1000).map(rules.category))
        for (name, text) in messages {
            let key = try #require(MessageKey(name: name), "\(file.name): unknown key \(name)")
            let message: Message
            do {
                message = try Message(text)
            } catch {
                Issue.record("\(file.name) \(name): \(error)")
                continue
            }
            // Only the arguments the key lists, and each of them.
            #expect(message.usedArguments == Set(key.arguments), "\(file.name) \(name): \(message.usedArguments)")
            for plural in message.plurals {
                let keywords = Set(
                    plural.selectors.compactMap { selector -> PluralCategory? in
                        if case .category(let category) = selector { return category }
                        return nil
                    })
                #expect(
                    categories.isSubset(of: keywords),
                    "\(file.name) \(name): no branch for \(categories.subtracting(keywords).map(\.name))")
            }
        }
    }

    @Test(arguments: CatalogFileTests.files)
    func builtInCatalog_isTheFileAsWritten(_ file: File) throws {
        let (locale, direction, messages) = try CatalogFileTests.decode(file)
        let builtIn = try #require(Catalog.builtIn.first { $0.tag == locale }, "\(file.name) is not built in")
        #expect(builtIn.direction.rawValue == direction)
        for (name, text) in messages {
            let key = try #require(MessageKey(name: name))
            #expect(CodePoints.equal(builtIn.source(of: key), text), "\(file.name) \(name)")
        }
    }

    @Test func builtIn_hasNoCatalogWithoutAFile() {
        let files = Set(CatalogFileTests.files.map(\.name))
        for catalog in Catalog.builtIn { #expect(files.contains(catalog.tag + ".json"), "\(catalog.tag)") }
        #expect(Catalog.builtIn.count == files.count)
    }

    @Test func englishCatalog_isTodaysEnglishExactly() throws {
        let en = try #require(Catalog.builtIn.first { $0.tag == "en" })
        let expected: [MessageKey: String] = [
            .messageFallback: "New message",
            .notificationFallback: "You have a new notification.",
            .bundleCount: "{count, plural, one {# new message} other {# new messages}}",
            .bundlePreview: "{name}: {text}",
            .summaryTitle: "New activity on {app}",
            .summaryCount: "{count, plural, one {# new notification} other {# new notifications}}",
            .fallbackBody: "There might be new activity on {app}.",
            .sendersTwo: "{a} and {b}",
            .sendersThree: "{a}, {b} and {c}",
            .sendersMore: "{a}, {b} and {others, plural, one {# other} other {# others}}",
        ]
        for key in MessageKey.allCases { #expect(en.source(of: key) == expected[key], "\(key.name)") }
        #expect(en.direction == .ltr)
        #expect(Catalog.builtIn.filter { $0.direction == .rtl }.map(\.tag).sorted() == ["ar", "he"])
    }

    @Test func englishCatalog_writesTodaysTexts() throws {
        let en = try #require(Catalog.builtIn.first { $0.tag == "en" })
        #expect(en.format(.messageFallback) == "New message")
        #expect(en.format(.notificationFallback) == "You have a new notification.")
        #expect(en.senderList([]) == nil)
        #expect(en.senderList(["A"]) == "A")
        #expect(en.senderList(["A", "B"]) == "A and B")
        #expect(en.senderList(["A", "B", "C"]) == "A, B and C")
        #expect(en.senderList(["A", "B", "C", "D"]) == "A, B and 2 others")
        #expect(en.senderList((0..<102).map { "n\($0)" }) == "n0, n1 and 100 others")
        #expect(en.format(.bundleCount, .init(count: 1)) == "1 new message")
        #expect(en.format(.bundleCount, .init(count: 1000)) == "1000 new messages")
        #expect(en.format(.summaryCount, .init(count: 1)) == "1 new notification")
        #expect(en.format(.summaryCount, .init(count: 20)) == "20 new notifications")
        #expect(en.format(.fallbackBody, .init(app: "Buzz")) == "There might be new activity on Buzz.")
        #expect(en.format(.bundlePreview, .init(name: "Ana", text: "hi")) == "Ana: hi")
    }
}
