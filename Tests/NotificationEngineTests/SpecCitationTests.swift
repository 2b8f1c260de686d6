import Foundation
import Testing

@testable import NotificationEngine

/// The section numbers that the shared fixtures cite from docs/spec/compose.md
/// are those of the rules they mean, and the spec's rule 2 of L6 says the
/// bound the engine keeps.
@Suite struct SpecCitationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) -> String {
        (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    static let spec = text("docs/spec/compose.md")

    /// The number of the innermost section of compose.md whose text holds
    /// the rule `id` (a line starting `L6.`): `10.3`.
    static func section(of id: String) -> String? {
        var current: String? = nil
        for line in spec.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#"), let heading = line.split(separator: " ").dropFirst().first,
                heading.first?.isNumber == true
            {
                current = String(heading.hasSuffix(".") ? heading.dropLast() : heading)
            }
            if line.hasPrefix("\(id). ") { return current }
        }
        return nil
    }

    /// Whether `text` names the number `number` (`10.3`, not `10.30` or `110.3`).
    static func cites(_ text: String, _ number: String) -> Bool {
        text.split(whereSeparator: { !$0.isNumber && $0 != "." }).contains {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: ".")) == number
        }
    }

    static var l10nComment: [String] {
        let data = Data(text("test-fixtures/l10n.json").utf8)
        let file = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        return file?["comment"] as? [String] ?? []
    }

    @Test func l10nFixtureComment_citesTheSectionsOfItsRules() throws {
        let comment = Self.l10nComment
        let tag = try #require(comment.first { $0.hasPrefix("kind tag:") })
        let choose = try #require(comment.first { $0.hasPrefix("kind choose:") })
        let plural = try #require(comment.first { $0.hasPrefix("kind plural:") })
        for (sentence, rule) in [(tag, "L2"), (tag, "L3"), (tag, "L5"), (choose, "L6"), (plural, "L12")] {
            let number = try #require(Self.section(of: rule), "no rule \(rule) in compose.md")
            #expect(Self.cites(sentence, number), "\(rule) is in section \(number): \(sentence)")
        }
    }

    @Test func fixtureReadme_citesTheSectionOfTheCatalogFiles() throws {
        let readme = Self.text("test-fixtures/README.md")
        let paragraph = try #require(readme.components(separatedBy: "## l10n.json").dropFirst().first)
        let number = try #require(Self.section(of: "L8"))
        #expect(Self.cites(String(paragraph.prefix(600)), number), "L8 is in section \(number)")
    }

    /// The fixtures assume UAX #29 of Unicode 11.0 or later; Android's
    /// `android.icu` has it from API level 29 (ICU 63.2), by the table the row cites.
    @Test func fixtureReadme_androidAdviceNamesTheFirstLevelWithUnicode11() throws {
        let readme = Self.text("test-fixtures/README.md")
        let row = try #require(readme.split(separator: "\n").first { $0.hasPrefix("| Kotlin / Java |") })
        #expect(row.contains("`android.icu.text.BreakIterator` from API level 29"), "\(row)")
        #expect(!row.contains("API 24+"), "\(row)")
        #expect(row.contains("developer.android.com/guide/topics/resources/internationalization"), "\(row)")
    }

    @Test func spec_boundsRuleTwoAsTheEngineDoes() {
        #expect(Self.spec.contains("At most \(CatalogChoice.maximumParentCount) parents are taken"))
        #expect(!Self.spec.contains("lookups in all"))
    }
}
