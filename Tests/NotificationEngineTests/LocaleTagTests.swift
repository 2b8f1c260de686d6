import Testing

@testable import NotificationEngine

@Suite struct LocaleTagTests {
    func parts(_ text: String) -> [String?]? {
        LocaleTag(text).map { [$0.language, $0.script, $0.region] }
    }

    func maximized(_ text: String) -> String? {
        LocaleTag(text)?.maximized.description
    }

    // MARK: Section 1

    @Test func parse_acceptsExactlyTheSectionOnePattern() {
        for valid in ["en", "und", "EN", "zh-Hant-TW", "zh_Hant_TW", "en-US-x-a", "de-CH-1996", "en-12345678", "ab-1"] {
            #expect(LocaleTag(valid) != nil, "\(valid)")
        }
        for malformed in [
            "", "e", "engl", "e1", "12", "-en", "en-", "en--US", "en__US", "en US", " en", "en\n", "en-US\n",
            "en-123456789", "en-é", "é", "en.US", "en-US!", "\u{0}", "en-\u{0}",
        ] {
            #expect(LocaleTag(malformed) == nil, "\(malformed.debugDescription)")
        }
    }

    @Test func parse_allowsSixtyFourCharactersAndNoMore() {
        let sixtyFour = "en" + String(repeating: "-abcdefgh", count: 6) + "-abcdefg"
        #expect(sixtyFour.count == 64)
        #expect(LocaleTag(sixtyFour) != nil)
        #expect(LocaleTag(sixtyFour + "b") == nil)
        #expect(LocaleTag(sixtyFour + "-") == nil)
    }

    // MARK: Section 2, steps 1 to 3

    @Test func parse_foldsCaseAndReadsScriptThenRegion() {
        #expect(parts("ZH-hANT-tw") == ["zh", "Hant", "TW"])
        #expect(parts("es-419") == ["es", nil, "419"])
        #expect(parts("sr-Latn") == ["sr", "Latn", nil])
        #expect(parts("sr-ME") == ["sr", nil, "ME"])
        #expect(parts("en-Latn-US-posix") == ["en", "Latn", "US"])
    }

    @Test func parse_stopsAtTheFirstSubtagThatIsNeitherScriptNorRegion() {
        #expect(parts("en-1996-GB") == ["en", nil, nil])
        #expect(parts("en-USA") == ["en", nil, nil])
        #expect(parts("en-u-ca-gregory") == ["en", nil, nil])
        #expect(parts("en-x-US") == ["en", nil, nil])
        #expect(parts("zh-Hant-Latn-TW") == ["zh", "Hant", nil])
        #expect(parts("en-GB-Latn") == ["en", nil, "GB"])
        #expect(parts("en-12") == ["en", nil, nil])
        #expect(parts("en-Lat1") == ["en", nil, nil])
    }

    @Test func parse_appliesTheLanguageAliases() {
        #expect(parts("iw") == ["he", nil, nil])
        #expect(parts("in") == ["id", nil, nil])
        #expect(parts("ji") == ["yi", nil, nil])
        #expect(parts("jw") == ["jv", nil, nil])
        #expect(parts("mo-MD") == ["ro", nil, "MD"])
        #expect(parts("no") == ["nb", nil, nil])
        #expect(parts("tl") == ["fil", nil, nil])
        #expect(parts("sh") == ["sr", "Latn", nil])
        #expect(parts("sh-Cyrl-BA") == ["sr", "Cyrl", "BA"])
        #expect(parts("he") == ["he", nil, nil])
    }

    @Test func description_writesTheCanonicalTag() {
        #expect(LocaleTag("ZH_hant_tw")?.description == "zh-Hant-TW")
        #expect(LocaleTag("pt-pt")?.description == "pt-PT")
        #expect(LocaleTag("es-419")?.description == "es-419")
        #expect(LocaleTag("es-001")?.description == "es-001")
        #expect(LocaleTag("fil")?.description == "fil")
    }

    @Test func equalTags_areEqualValues() {
        #expect(LocaleTag("zh-hant") == LocaleTag("ZH-Hant"))
        #expect(LocaleTag("pt_PT") == LocaleTag("pt-PT-u-nu-latn"))
        #expect(LocaleTag("pt-PT") != LocaleTag("pt"))
        #expect(LocaleTag("iw") == LocaleTag("he"))
    }

    // MARK: Section 2, step 4

    @Test func maximized_fillsOnlyWhatIsMissing_specExamples() {
        #expect(maximized("zh-TW") == "zh-Hant-TW")
        #expect(maximized("zh") == "zh-Hans-CN")
        #expect(maximized("pt") == "pt-Latn-BR")
        #expect(maximized("pt_PT") == "pt-Latn-PT")
        #expect(maximized("sr-ME") == "sr-Latn-ME")
        #expect(maximized("iw") == "he-Hebr-IL")
        #expect(maximized("zh-Latn") == "zh-Latn-CN")
        #expect(maximized("xx-YY") == "xx-YY")
    }

    @Test func maximized_triesFullKeyThenRegionThenScriptThenLanguage() {
        // sr_Latn_ME is no key, sr_ME is: its region and script.
        #expect(maximized("sr-Latn-ME") == "sr-Latn-ME")
        #expect(maximized("sr") == "sr-Cyrl-RS")
        #expect(maximized("zh-Hant") == "zh-Hant-TW")
        #expect(maximized("zh-Hant-SG") == "zh-Hant-SG")
        #expect(maximized("en-Cyrl") == "en-Cyrl-US")
        #expect(maximized("xx") == "xx")
        #expect(maximized("xx-Latn") == "xx-Latn")
    }

    @Test func maximized_givesUndTheLanguageOfItsKey() {
        #expect(maximized("und") == "en-Latn-US")
        #expect(maximized("und-RU") == "ru-Cyrl-RU")
        #expect(maximized("und-Hebr") == "he-Hebr-IL")
        #expect(maximized("und-TW") == "zh-Hant-TW")
        #expect(maximized("und-Latn-RU") == "krl-Latn-RU")
    }

    @Test func maximized_isIdempotent() {
        for text in ["en", "zh-TW", "und-RU", "sr-ME", "pt", "ar", "xx-YY", "hi-Latn"] {
            let once = LocaleTag(text)!.maximized
            #expect(once.maximized == once, "\(text)")
        }
    }

    @Test func parentException_readsCLDRsTable() {
        #expect(LocaleTag("pt-Latn-AO")?.parentException?.description == "pt-PT")
        #expect(LocaleTag("es-Latn-MX")?.parentException?.description == "es-419")
        #expect(LocaleTag("zh-Hant-MO")?.parentException?.description == "zh-Hant-HK")
        #expect(LocaleTag("en-Latn-GB")?.parentException?.description == "en-001")
        #expect(LocaleTag("en-Latn-US")?.parentException == nil)
        #expect(LocaleTag("de-Latn-CH")?.parentException == nil)
    }
}
