import Testing

@testable import NotificationEngine

/// The message syntax and formatting of compose-l10n.md section 5, on small
/// catalogs made for each test.
@Suite struct MessageFormatTests {
    /// A catalog whose messages are those of the built-in catalog of `tag`
    /// (else the English ones) but for `overrides`.
    func catalog(
        _ tag: String = "en", _ direction: TextDirection = .ltr, overrides: [MessageKey: String] = [:]
    ) throws -> Catalog {
        let base = Catalog.builtIn.first { $0.tag == tag } ?? Catalog.builtIn.first { $0.tag == "en" }!
        let messages = MessageKey.allCases.map { overrides[$0] ?? base.source(of: $0) }
        return try Catalog(Catalog.Source(tag: tag, direction: direction, messages: messages))
    }

    func syntaxError(_ text: String) -> MessageSyntaxError? {
        do {
            _ = try Message(text)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Syntax

    @Test func parse_acceptsSpacesAroundEveryTokenOfAPlaceholder() throws {
        let spaced = try catalog(overrides: [.bundleCount: "{ count , plural , one { # x } other { # y } }"])
        let tight = try catalog(overrides: [.bundleCount: "{count,plural,one{ # x }other{ # y }}"])
        for n in [1, 2] {
            #expect(spaced.format(.bundleCount, .init(count: n)) == tight.format(.bundleCount, .init(count: n)))
        }
        #expect(spaced.format(.bundleCount, .init(count: 1)) == " 1 x ")
        #expect(try catalog(overrides: [.summaryTitle: "On { app }"]).format(.summaryTitle, .init(app: "B")) == "On B")
    }

    @Test func parse_rejectsWhatTheGrammarDoesNot() {
        let malformed: [String: String] = [
            "{count, plural, = 1 {a} other {b}}": "a space inside =N",
            "{count, plural, =x {a} other {b}}": "=N without digits",
            "{count, plural, one {a} one {b} other {c}}": "a repeated selector",
            "{count, plural, =1 {a} =1 {b} other {c}}": "a repeated exact selector",
            "{count, plural, one {a}}": "no other",
            "{count, plural, }": "no branch at all",
            "{count, plural, some {a} other {b}}": "an unknown keyword",
            "{count, select, one {a} other {b}}": "select",
            "{app, plural, other {b}}": "a plural over a text",
            "{Count}": "an uppercase name",
            "{count2}": "a digit in a name",
            "{size}": "an unknown argument",
            "{}": "an empty placeholder",
            "{count": "an unclosed placeholder",
            "{count, plural, other {b}": "an unclosed plural",
            "{count, plural, other {b": "an unclosed branch",
            "a } b": "a lone }",
            "it's": "an ASCII apostrophe",
            "{count, plural, other {it's}}": "an apostrophe in a branch",
            "{count, plural other {b}}": "no comma after plural",
            "{count plural, other {b}}": "no comma after the name",
        ]
        for (text, why) in malformed { #expect(syntaxError(text) != nil, "\(why): \(text)") }
    }

    @Test func parse_reportsWhereTheMessageBreaks() {
        #expect(syntaxError("ab}")?.offset == 2)
        #expect(syntaxError("x {count, plural, = 1 {a} other {b}}")?.offset == 19)
        #expect(syntaxError("{size}")?.offset == 1)
    }

    @Test func poundOutsideAPlural_isText() throws {
        let c = try catalog(overrides: [.summaryTitle: "#1 on {app} #"])
        #expect(c.format(.summaryTitle, .init(app: "B")) == "#1 on B #")
    }

    // MARK: Catalog checks

    @Test func catalog_rejectsArgumentsItsKeyDoesNotListOrNeverUses() {
        #expect(throws: LocalizationError.self) { try catalog(overrides: [.summaryTitle: "{app} {count}"]) }
        #expect(throws: LocalizationError.self) { try catalog(overrides: [.summaryTitle: "No app"]) }
        #expect(throws: LocalizationError.self) { try catalog(overrides: [.sendersTwo: "{a} and {c}"]) }
        #expect(throws: LocalizationError.self) { try catalog(overrides: [.messageFallback: "New {text}"]) }
    }

    @Test func catalog_rejectsAPluralWithoutABranchForACategoryOfItsLanguage() throws {
        let ru = Catalog.builtIn.first { $0.tag == "ru" }!
        var messages = MessageKey.allCases.map(ru.source(of:))
        messages[MessageKey.bundleCount.rawValue] = "{count, plural, one {# a} many {# b} other {# c}}"
        #expect(throws: LocalizationError.self) {
            try Catalog(Catalog.Source(tag: "ru", direction: .ltr, messages: messages))
        }
        // An =N branch does not stand in for a keyword.
        messages[MessageKey.bundleCount.rawValue] = "{count, plural, =2 {# a} one {# a} many {# b} other {# c}}"
        #expect(throws: LocalizationError.self) {
            try Catalog(Catalog.Source(tag: "ru", direction: .ltr, messages: messages))
        }
        // fr's many is only for millions: not needed.
        _ = try catalog("fr", .ltr, overrides: [.bundleCount: "{count, plural, one {# a} other {# b}}"])
    }

    @Test func catalog_rejectsTagsThatAreNotCanonicalLanguageScriptRegion() {
        for tag in ["EN", "en_GB", "en-gb", "iw", "en-US-x-a", "de-CH-1996", "xx", "e"] {
            #expect(throws: LocalizationError.self, "\(tag)") { try catalog(tag) }
        }
        #expect(throws: LocalizationError.self) {
            try Catalog(Catalog.Source(tag: "en", direction: .ltr, messages: ["New message"]))
        }
    }

    // MARK: Formatting

    @Test func exactBranch_winsOverTheCategory() throws {
        let c = try catalog(overrides: [
            .bundleCount: "{count, plural, =1 {one message} one {# message} =0 {none} other {# messages}}"
        ])
        #expect(c.format(.bundleCount, .init(count: 1)) == "one message")
        #expect(c.format(.bundleCount, .init(count: 0)) == "none")
        #expect(c.format(.bundleCount, .init(count: 7)) == "7 messages")
    }

    @Test func missingCategoryBranch_fallsBackToOther() throws {
        let fr = try catalog("fr", .ltr, overrides: [.bundleCount: "{count, plural, one {# a} other {# b}}"])
        #expect(fr.format(.bundleCount, .init(count: 1_000_000)) == "1000000 b")  // many, no branch
        #expect(fr.format(.bundleCount, .init(count: 0)) == "0 a")
    }

    @Test func pound_isTheInnermostPluralsCount_andPlainCountsAreDigits() throws {
        let c = try catalog(overrides: [
            .sendersMore: "{a}, {b}: {others, plural, one {# other} other {# others of {others}}}",
            .bundleCount: "{count} {count, plural, one {#} other {# and #}}",
        ])
        #expect(c.format(.sendersMore, .init(others: 12, a: "A", b: "B")) == "A, B: 12 others of 12")
        #expect(c.format(.bundleCount, .init(count: 3)) == "3 3 and 3")
        #expect(c.format(.bundleCount, .init(count: Int.max)) == "\(Int.max) \(Int.max) and \(Int.max)")
    }

    @Test func nestedPlurals_eachSelectOnTheirOwnCount() throws {
        let c = try catalog(overrides: [
            .sendersMore:
                "{a}{b}{others, plural, one {[{others, plural, one {#} other {x}}]} other {({others, plural, =2 {two} one {1} other {#}})}}"
        ])
        #expect(c.format(.sendersMore, .init(others: 1)) == "[1]")
        #expect(c.format(.sendersMore, .init(others: 2)) == "(two)")
        #expect(c.format(.sendersMore, .init(others: 5)) == "(5)")
    }

    @Test func isolation_wrapsOnlyTheNamedTextArguments() throws {
        let ltr = try catalog()
        let arabic = "محمد"
        #expect(ltr.format(.bundlePreview, .init(name: arabic, text: arabic)) == "\u{2068}\(arabic)\u{2069}: \(arabic)")
        #expect(
            ltr.format(.sendersThree, .init(a: arabic, b: "B", c: arabic))
                == "\u{2068}\(arabic)\u{2069}, B and \u{2068}\(arabic)\u{2069}")
        let rtl = try catalog("he", .rtl, overrides: [.summaryTitle: "New activity on {app}"])
        #expect(rtl.format(.summaryTitle, .init(app: "Buzz")) == "New activity on \u{2068}Buzz\u{2069}")
        #expect(rtl.format(.summaryTitle, .init(app: "שלום 1")) == "New activity on שלום 1")
        #expect(rtl.format(.summaryTitle, .init(app: "123 !")) == "New activity on 123 !")
        #expect(rtl.format(.bundlePreview, .init(name: "שלום", text: "Hi")) == "שלום: Hi")
    }

    @Test func isolation_countsEveryStrongCharacterIncludingMarks() throws {
        let ltr = try catalog()
        #expect(ltr.format(.summaryTitle, .init(app: "\u{200F}")) == "New activity on \u{2068}\u{200F}\u{2069}")
        #expect(ltr.format(.summaryTitle, .init(app: "B\u{061C}")) == "New activity on \u{2068}B\u{061C}\u{2069}")
        #expect(ltr.format(.summaryTitle, .init(app: "\u{200E}")) == "New activity on \u{200E}")
        // Unassigned code points take their default class: U+0590 is R, U+0378 is L.
        #expect(ltr.format(.summaryTitle, .init(app: "a\u{0590}")) == "New activity on \u{2068}a\u{0590}\u{2069}")
        let rtl = try catalog("ar", .rtl, overrides: [.summaryTitle: "New activity on {app}"])
        #expect(rtl.format(.summaryTitle, .init(app: "\u{0378}")) == "New activity on \u{2068}\u{0378}\u{2069}")
        #expect(rtl.format(.summaryTitle, .init(app: "\u{2065}")) == "New activity on \u{2065}")
    }

    @Test func write_intoABufferAtAnOffset_matchesFormat() throws {
        let ar = Catalog.builtIn.first { $0.tag == "ar" }!
        let name = Array("Ana".utf8)
        let text = Array("مرحبا بك".utf8)
        name.withUnsafeBufferPointer { name in
            text.withUnsafeBufferPointer { text in
                let values = MessageValues(name: name, text: text)
                let bound = ar.maximumByteCount(.bundlePreview, values)
                let written = [UInt8](unsafeUninitializedCapacity: bound + 4) { buffer, count in
                    buffer[0] = UInt8(ascii: "x")
                    count = ar.write(.bundlePreview, values, into: buffer, at: 1)
                }
                #expect(written.count <= bound + 1)
                #expect(
                    String(decoding: written.dropFirst(), as: UTF8.self) == ar.format(.bundlePreview, values: values))
                #expect(ar.format(.bundlePreview, values: values) == "\u{2068}Ana\u{2069}: مرحبا بك")
            }
        }
    }

    @Test func maximumByteCount_boundsEveryFormattingOfEveryCatalog() {
        let texts = ["", "A", "محمد", "Ana محمد", String(repeating: "é", count: 300)].map { Array($0.utf8) }
        for catalog in Catalog.builtIn {
            for key in MessageKey.allCases {
                for text in texts {
                    text.withUnsafeBufferPointer { text in
                        for n in [0, 1, 2, 5, 9, 10, 11, 21, 102, 1000, Int.max] {
                            let values = MessageValues(
                                count: n, others: n, name: text, text: text, app: text, a: text, b: text, c: text)
                            let formatted = catalog.format(key, values: values)
                            #expect(
                                formatted.utf8.count <= catalog.maximumByteCount(key, values),
                                "\(catalog.tag) \(key.name) \(n)")
                        }
                    }
                }
            }
        }
    }

    @Test func maximumByteCount_takesTheLongestBranchAndTheCountsDigits() throws {
        let en = Catalog.builtIn.first { $0.tag == "en" }!
        // " new messages" and two digits: a 15-byte small string.
        #expect(en.maximumByteCount(.bundleCount, MessageValues(count: 20)) == 15)
        #expect(en.maximumByteCount(.bundleCount, MessageValues(count: 1000)) == 17)
        let nested = try catalog(overrides: [
            .sendersMore: "{a}{b}{others, plural, one {xx {others}} other {y {others, plural, one {#} other {# #}}}}"
        ])
        // The longest literal ("xx " or "y " and " ": 3), the most counts (2) of one digit,
        // and the two empty names' room for isolates.
        #expect(nested.maximumByteCount(.sendersMore, MessageValues(others: 3)) == 3 + 2 + 6 + 6)
    }
}
