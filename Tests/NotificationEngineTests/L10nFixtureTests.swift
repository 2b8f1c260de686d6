import Foundation
import Testing

@testable import NotificationEngine

/// Runs every case of `test-fixtures/l10n.json` through the localization
/// engine (checks/l10n/oracle.py --self-test runs them through babel).
@Suite struct L10nFixtureTests {
    @Test(arguments: L10nFixture.cases)
    func engine_matchesSharedFixtureCase(_ fixtureCase: L10nFixture.Case) throws {
        let id = fixtureCase.id
        let fields = fixtureCase.fields
        switch fixtureCase.kind {
        case "tag":
            let text = try #require(fields["tag"] as? String)
            let tag = LocaleTag(text)
            guard fields["valid"] as? Bool == true else {
                #expect(tag == nil, "\(id): \(text) should be malformed, parsed as \(tag.map(\.description) ?? "")")
                return
            }
            let parsed = try #require(tag, "\(id): \(text) did not parse")
            #expect(L10nFixture.parts(parsed) == L10nFixture.strings(fields["normalized"]), "\(id): normalized")
            #expect(
                L10nFixture.parts(parsed.maximized) == L10nFixture.strings(fields["maximized"]),
                "\(id): maximized \(parsed.maximized)")
        case "choose":
            let defaultLocale = try #require(fields["defaultLocale"] as? String)
            let set = try CatalogSet.builtIn.withDefaultLocale(defaultLocale)
            let chosen = set.catalog(forLocale: fields["locale"] as? String)
            #expect(chosen?.tag == fields["catalog"] as? String, "\(id): chose \(chosen?.tag ?? "nil")")
        case "plural":
            let text = try #require(fields["tag"] as? String)
            let tag = try #require(LocaleTag(text))
            let rules = try #require(PluralRules(tag: tag), "\(id): no rules")
            let count = try #require(fields["count"] as? Int)
            #expect(rules.category(count).name == fields["category"] as? String, "\(id): \(rules.category(count))")
        case "format":
            let locale = try #require(fields["locale"] as? String)
            let catalog = try #require(Catalog.builtIn.first { $0.tag == locale }, "\(id): no catalog \(locale)")
            let keyName = try #require(fields["key"] as? String)
            let key = try #require(MessageKey(name: keyName))
            let values = try #require(fields["arguments"] as? [String: Any])
            let arguments = MessageArguments(
                count: values["count"] as? Int ?? 0, others: values["others"] as? Int ?? 0,
                name: values["name"] as? String ?? "", text: values["text"] as? String ?? "",
                app: values["app"] as? String ?? "", a: values["a"] as? String ?? "", b: values["b"] as? String ?? "",
                c: values["c"] as? String ?? "")
            let expected = try #require(fields["expected"] as? String)
            let actual = catalog.format(key, arguments)
            #expect(
                CodePoints.equal(actual, expected),
                "\(id): \(actual.unicodeScalars.map { String($0.value, radix: 16) }) expected \(expected)")
        default:
            Issue.record("\(id): unknown kind \(fixtureCase.kind)")
        }
    }

    @Test func fixture_coversEveryKindWithUniqueKebabCaseIDs() {
        expectUniqueKebabCaseIDs(L10nFixture.cases.map(\.id))
        for kind in ["tag", "choose", "plural", "format"] {
            #expect(L10nFixture.cases.filter { $0.kind == kind }.count >= 10, "\(kind)")
        }
    }
}

/// `test-fixtures/l10n.json`, decoded once.
enum L10nFixture {
    struct Case: @unchecked Sendable, CustomTestStringConvertible {
        let id: String
        let kind: String
        /// The case's members, as JSONSerialization gives them (read-only).
        let fields: [String: Any]
        var testDescription: String { id }
    }

    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("test-fixtures/l10n.json")

    static let cases: [Case] = {
        guard let data = try? Data(contentsOf: url),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let cases = root["cases"] as? [[String: Any]]
        else { return [] }
        return cases.map { Case(id: $0["id"] as? String ?? "?", kind: $0["kind"] as? String ?? "?", fields: $0) }
    }()

    /// [language, script, region] with `nil` for a missing subtag.
    static func parts(_ tag: LocaleTag) -> [String?] {
        [tag.language, tag.script, tag.region]
    }

    static func strings(_ value: Any?) -> [String?] {
        (value as? [Any] ?? []).map { $0 as? String }
    }
}
