import Testing

@testable import NotificationEngine

@Suite struct PluralRulesTests {
    func categories(_ tag: String, _ counts: [Int]) -> [String] {
        let rules = PluralRules(tag: LocaleTag(tag)!)!
        return counts.map { rules.category($0).name }
    }

    @Test func specChoices() {
        #expect(categories("pt", [0, 1, 2]) == ["one", "one", "other"])
        #expect(categories("pt-PT", [0, 1, 2]) == ["other", "one", "other"])
        #expect(categories("ru", [21, 11, 1, 2, 5]) == ["one", "many", "one", "few", "many"])
        #expect(
            categories("ar", [0, 1, 2, 3, 10, 11, 99, 100, 102, 103]) == [
                "zero", "one", "two", "few", "few", "many", "many", "other", "other", "few",
            ])
    }

    @Test func rulesFollowTheTagAsWritten() {
        // pt-AO and the other non-Brazilian locales take pt-PT's rules; pt-BR is pt.
        #expect(PluralRules(tag: LocaleTag("pt-AO")!) == PluralRules(tag: LocaleTag("pt-PT")!))
        #expect(PluralRules(tag: LocaleTag("pt-BR")!) == PluralRules(tag: LocaleTag("pt")!))
        #expect(PluralRules(tag: LocaleTag("zh-Hant")!) == PluralRules(tag: LocaleTag("ja")!))
        #expect(PluralRules(tag: LocaleTag("xx")!) == nil)
    }

    @Test func largeCounts_reachCategoriesNoRequestHas() {
        #expect(categories("fr", [1_000_000, 2_000_000, 1_000_001]) == ["many", "many", "other"])
        #expect(categories("es", [1_000_000]) == ["many"])
        #expect(categories("en", [1_000_000]) == ["other"])
    }

    @Test func everyBuiltInCatalog_hasRules() {
        for catalog in Catalog.builtIn { #expect(PluralRules(tag: catalog.locale) == catalog.pluralRules) }
    }
}
