import Foundation
import Testing

/// Every case of test-fixtures/l10n.json through the built binary's `locale`
/// command, so a port has an oracle for each (the engine's own tests run
/// them in process: NotificationEngineTests' L10nFixtureTests).
@Suite struct L10nFixtureCLITests {
    struct Case: @unchecked Sendable, CustomTestStringConvertible {
        let id: String
        /// The case's members, as JSONSerialization gives them (read-only).
        let fields: [String: Any]
        var testDescription: String { id }
    }

    static let cases: [Case] = {
        let url = FixtureCLITests.root.appendingPathComponent("test-fixtures/l10n.json")
        guard let data = try? Data(contentsOf: url),
            let file = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let cases = file["cases"] as? [[String: Any]]
        else { return [] }
        return cases.map { Case(id: $0["id"] as? String ?? "?", fields: $0) }
    }()

    @Test func fixture_isLoaded() {
        #expect(Self.cases.count >= 150, "test-fixtures/l10n.json did not load")
    }

    /// `locale` with `arguments`: its one JSON line, parsed.
    static func locale(_ arguments: [String], id: String) throws -> [String: Any] {
        let result = try BuiltExecutable.run(["locale"] + arguments)
        try #require(result.status == 0, "[\(id)] exit \(result.status): \(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").first.map(String.init), "[\(id)] no output")
        return try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "[\(id)] \(line)")
    }

    /// [language, script, region] with nil for null.
    static func parts(_ value: Any?) -> [String?]? {
        (value as? [Any]).map { $0.map { $0 as? String } }
    }

    @Test(arguments: cases)
    func localeCommand_answersTheCase(_ fixture: Case) throws {
        let id = fixture.id
        let fields = fixture.fields
        switch fields["kind"] as? String {
        case "tag":
            let tag = try #require(fields["tag"] as? String)
            // `--` lets a tag start with `-`.
            let answer = try Self.locale(tag.hasPrefix("-") ? ["--", tag] : [tag], id: id)
            let valid = try #require(fields["valid"] as? Bool)
            #expect(answer["valid"] as? Bool == valid, "[\(id)] \(answer)")
            if valid {
                #expect(Self.parts(answer["normalized"]) == Self.parts(fields["normalized"]), "[\(id)] \(answer)")
                #expect(Self.parts(answer["maximized"]) == Self.parts(fields["maximized"]), "[\(id)] \(answer)")
            } else {
                #expect(answer["catalog"] is NSNull, "[\(id)] \(answer)")
            }
        case "choose":
            let defaultLocale = try #require(fields["defaultLocale"] as? String)
            let tag = fields["locale"] as? String
            let answer = try Self.locale((tag.map { [$0] } ?? []) + ["--default-locale", defaultLocale], id: id)
            if let catalog = fields["catalog"] as? String {
                #expect(answer["catalog"] as? String == catalog, "[\(id)] \(answer)")
            } else {
                #expect(answer["catalog"] is NSNull && answer["valid"] as? Bool == false, "[\(id)] \(answer)")
            }
        case "plural":
            let tag = try #require(fields["tag"] as? String)
            let count = try #require(fields["count"] as? Int)
            let answer = try Self.locale([tag, "--count", String(count)], id: id)
            #expect(answer["catalog"] as? String == tag, "[\(id)] \(answer)")
            let plural = answer["plural"] as? [String: Any]
            #expect(plural?["category"] as? String == fields["category"] as? String, "[\(id)] \(answer)")
        case "format":
            let locale = try #require(fields["locale"] as? String)
            let key = try #require(fields["key"] as? String)
            let arguments = String(
                decoding: try JSONSerialization.data(withJSONObject: fields["arguments"] ?? [:]), as: UTF8.self)
            let answer = try Self.locale([locale, "--format", key, "--arguments", arguments], id: id)
            #expect(answer["catalog"] as? String == locale, "[\(id)] \(answer)")
            let formatted = answer["formatted"] as? String ?? ""
            let expected = try #require(fields["expected"] as? String)
            #expect(
                formatted.unicodeScalars.elementsEqual(expected.unicodeScalars),
                "[\(id)] \(formatted.debugDescription), expected \(expected.debugDescription)")
        default:
            Issue.record("[\(id)] unknown kind")
        }
    }

    @Test func localeCommand_namesTheRuleAndTheParentsFollowed() throws {
        let portuguese = try Self.locale(["pt-AO"], id: "pt-AO")
        #expect(portuguese["by"] as? String == "rule 2" && portuguese["parents"] as? [String] == ["pt-PT"])
        let english = try Self.locale(["en-GB"], id: "en-GB")
        #expect(english["by"] as? String == "rule 3" && english["parents"] as? [String] == ["en-001"])
        let absent = try Self.locale([], id: "absent")
        #expect(absent["by"] as? String == "L1" && absent["catalog"] as? String == "en")
        let malformed = try Self.locale(["en_US\n"], id: "malformed")
        #expect(malformed["by"] as? String == "L2" && malformed["direction"] is NSNull)
        let hebrew = try Self.locale(["iw"], id: "iw")
        #expect(hebrew["direction"] as? String == "rtl" && hebrew["by"] as? String == "rule 1")
    }
}
