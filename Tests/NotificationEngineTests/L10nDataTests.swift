import Foundation
import Testing

@testable import NotificationEngine

/// The JSON tables of test-fixtures/data/ say what the engine does: a port
/// that reads them gets the engine's likely subtags, parent locales, plural
/// rules and bidi classes (scripts/gen-l10n-tables.py writes both; `make
/// check-l10n-tables` checks that both are current).
@Suite struct L10nDataTests {
    static func table(_ name: String) -> [String: Any] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("test-fixtures/data/\(name)")
        guard let data = try? Data(contentsOf: url),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        return object
    }

    /// A CLDR key as written (`zh_Hant_TW`), parsed without aliases.
    static func tag(_ text: String) -> LocaleTag? {
        var text = text
        return text.withUTF8 { LocaleTag.parse($0, applyingAliases: false) }
    }

    @Test(arguments: ["likely-subtags.json", "parent-locales.json", "plural-rules.json"])
    func cldrTable_namesItsVersions(_ name: String) {
        let versions = Self.table(name)["versions"] as? [String: String]
        #expect(versions == ["cldr": "47", "babel": "2.18.0"], "\(name)")
    }

    @Test func likelySubtags_everyKeyMaximizesToItsValue() throws {
        let entries = try #require(Self.table("likely-subtags.json")["likelySubtags"] as? [String: String])
        #expect(entries.count > 7_000)
        for (key, value) in entries {
            let tag = try #require(Self.tag(key), "\(key)")
            let full = try #require(Self.tag(value), "\(value)")
            #expect(LocaleTag.likely(tag.packed) == full.packed, "\(key) → \(value)")
        }
    }

    /// `choice(for:)`, which `locale TAG` prints, chooses as `catalog(for:)`
    /// does, for every tag CLDR's tables name.
    @Test func choice_choosesAsCatalogFor_everyTagOfTheTables() throws {
        let likely = try #require(Self.table("likely-subtags.json")["likelySubtags"] as? [String: String])
        let parents = try #require(Self.table("parent-locales.json")["parentLocales"] as? [String: String])
        let set = CatalogSet.builtIn
        var rules = Set<Int>()
        for text in Set(likely.keys).union(likely.values).union(parents.keys).union(parents.values) {
            let tag = try #require(LocaleTag(text), "\(text)")
            let choice = set.choice(for: tag)
            #expect(choice.catalog === set.catalog(for: tag), "\(text)")
            #expect(choice.parents.count <= CatalogChoice.maximumParentCount, "\(text)")
            rules.insert(choice.rule)
        }
        #expect(rules == [1, 2, 3, 4])
    }

    @Test func parentLocales_everyKeyHasItsParent() throws {
        let entries = try #require(Self.table("parent-locales.json")["parentLocales"] as? [String: String])
        #expect(entries.count > 100)
        for (key, value) in entries {
            let tag = try #require(Self.tag(key), "\(key)")
            // Rule 2 looks up L_S_R, L_R and L_S only: a language-only key (`nb` → `no`) is never reached.
            guard tag.scriptBits != 0 || tag.regionBits != 0 else { continue }
            #expect(tag.parentException == Self.tag(value), "\(key) → \(value)")
        }
    }

    @Test func pluralRules_eachCatalogsRuleSetIsTheEngines() throws {
        let file = Self.table("plural-rules.json")
        let ruleSets = try #require(file["ruleSets"] as? [[String: String]])
        let languages = try #require(file["languages"] as? [String: Int])
        let exceptions = try #require(file["exceptions"] as? [String: Int])
        #expect(languages["en"] != nil && exceptions["pt_PT"] != nil)
        for catalog in Catalog.builtIn {
            let tag = catalog.tag.replacingOccurrences(of: "-", with: "_")
            let index = try #require(exceptions[tag] ?? languages[String(tag.prefix { $0 != "_" })], "\(tag)")
            #expect(Int(catalog.pluralRules.ruleSet) == index, "\(tag)")
            // The categories the exported rules name are those the engine gives some count.
            let given = Set((0...1_000).map { catalog.pluralRules.category($0).name })
            #expect(given.subtracting(["other"]).isSubset(of: Set(ruleSets[index].keys)), "\(tag): \(given)")
        }
    }

    @Test func bidiStrongClasses_everyRunIsTheEngines() throws {
        let file = Self.table("bidi-strong-classes.json")
        #expect(file["versions"] as? [String: String] == ["unicode": "17.0.0", "unicodedata2": "17.0.0"])
        let runs = try #require(file["runs"] as? [[Any]])
        #expect(runs.count > 1_000)
        let classes: [String: BidiStrongClass] = ["N": .neutral, "L": .leftToRight, "R": .rightToLeft]
        for (index, run) in runs.enumerated() {
            let low = try #require(run[0] as? Int)
            let strong = try #require((run[1] as? String).flatMap { classes[$0] })
            let high = index + 1 < runs.count ? try #require(runs[index + 1][0] as? Int) - 1 : 0x10FFFF
            #expect(BidiStrongClass.of(UInt32(low)) == strong, "U+\(String(low, radix: 16))")
            #expect(BidiStrongClass.of(UInt32(high)) == strong, "U+\(String(high, radix: 16))")
        }
    }
}
