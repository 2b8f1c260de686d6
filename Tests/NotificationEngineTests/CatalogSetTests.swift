import Testing

@testable import NotificationEngine

@Suite struct CatalogSetTests {
    func chosen(_ locale: String?, default defaultLocale: String = "en") throws -> String? {
        try CatalogSet.builtIn.withDefaultLocale(defaultLocale).catalog(forLocale: locale)?.tag
    }

    @Test func choice_specExamples() throws {
        let expected: [String: String] = [
            "en-GB": "en", "en-AU": "en", "pt-BR": "pt", "pt-AO": "pt-PT", "pt_PT": "pt-PT", "es-MX": "es",
            "zh-HK": "zh-Hant", "zh-MO": "zh-Hant", "zh-TW": "zh-Hant", "zh": "zh-Hans", "zh-SG": "zh-Hans",
            "sr": "en", "de-CH-1996": "de", "und": "en", "iw": "he",
        ]
        for (locale, tag) in expected { #expect(try chosen(locale) == tag, "\(locale)") }
    }

    @Test func everyCatalog_isChosenByItsOwnTag() throws {
        for catalog in Catalog.builtIn {
            #expect(try chosen(catalog.tag) == catalog.tag)
            #expect(try chosen(catalog.maximized.description) == catalog.tag)
        }
    }

    @Test func absentEmptyOrMalformed() throws {
        #expect(try chosen(nil) == "en")
        #expect(try chosen("") == "en")
        #expect(try chosen(nil, default: "ja") == "ja")
        #expect(try chosen("", default: "zh-TW") == "zh-Hant")
        #expect(try chosen("e") == nil)
        #expect(try chosen("en-US\n") == nil)
        #expect(try chosen("xx-YY", default: "ar") == "ar")
        let bytes = Array("pt-AO".utf8)
        bytes.withUnsafeBufferPointer { #expect(CatalogSet.builtIn.catalog(forUTF8: $0)?.tag == "pt-PT") }
        #expect(CatalogSet.builtIn.catalog(forUTF8: nil)?.tag == "en")
    }

    @Test func parentChain_isFollowedBeforeTheRegionlessCatalog() throws {
        // pt-CV's parent pt_PT is a catalog; without pt-PT, rule 3 gives pt.
        #expect(try chosen("pt-CV") == "pt-PT")
        let withoutPortugal = Catalog.builtIn.filter { $0.tag != "pt-PT" }
        let set = try CatalogSet(withoutPortugal)
        #expect(set.catalog(forLocale: "pt-CV")?.tag == "pt")
        #expect(set.catalog(forLocale: "pt-PT")?.tag == "pt")
    }

    @Test func regionalCatalog_isNotARegionlessFallback() throws {
        // Only pt-PT among the Portuguese: pt-BR is neither equal nor regionless.
        let set = try CatalogSet(Catalog.builtIn.filter { $0.tag != "pt" })
        #expect(set.catalog(forLocale: "pt-BR")?.tag == "en")
        #expect(set.catalog(forLocale: "pt-AO")?.tag == "pt-PT")
    }

    @Test func defaultLocale_isChosenByRulesOneToThree() throws {
        #expect(try CatalogSet.builtIn.withDefaultLocale("pt-AO").defaultCatalog.tag == "pt-PT")
        #expect(try CatalogSet.builtIn.withDefaultLocale("de-AT").defaultCatalog.tag == "de")
        #expect(throws: LocalizationError.noCatalogFits("sr")) { try CatalogSet.builtIn.withDefaultLocale("sr") }
        #expect(throws: LocalizationError.malformedTag("e")) { try CatalogSet.builtIn.withDefaultLocale("e") }
        #expect(throws: LocalizationError.noCatalogFits("fr")) {
            try CatalogSet([Catalog.builtIn[0]], defaultLocale: "fr")
        }
    }

    @Test func catalogsThatMaximizeAlike_areRejected() throws {
        let hans = Catalog.builtIn.first { $0.tag == "zh-Hans" }!
        let zh = try Catalog(
            Catalog.Source(tag: "zh", direction: .ltr, messages: MessageKey.allCases.map(hans.source(of:))))
        #expect(throws: LocalizationError.sameMaximizedTag("zh-Hans", "zh")) {
            try CatalogSet(Catalog.builtIn + [zh])
        }
    }

    @Test func builtIn_defaultIsEnglish() {
        #expect(CatalogSet.builtIn.defaultCatalog.tag == "en")
        #expect(CatalogSet.builtIn.catalogs.count == Catalog.builtIn.count)
        #expect(CatalogSet.defaultLocale == "en")
    }
}
