import HTTPCore
import Testing

@testable import NotificationEngine
@testable import NotificationService

/// The `locale` member of `POST /compose` (compose.md sections 9 and 10):
/// well-formedness, the choice of a catalog, the server's default locale and
/// the response's `locale`.
@Suite struct ComposeLocaleTests {
    let harness = ServiceHarness()

    private func fallback(locale: String?, harness: ServiceHarness? = nil) -> HTTPResponseParts {
        let member = locale.map { #", "locale": "# + jsonText(.string($0)) } ?? ""
        let response = (harness ?? self.harness).post(
            "/compose", #"{"now": "2026-11-29T12:00:00Z", "fetch": "failed""# + member + "}")
        return HTTPResponseParts(response)
    }

    @Test(arguments: [
        ("pt-AO", "pt-PT", "Poderá haver novidades em Buzz."),
        ("zh_TW", "zh-Hant", "Buzz可能有新動態。"),
        ("iw", "he", "ייתכן שיש פעילות חדשה ב־\u{2068}Buzz\u{2069}."),
        ("ru-RU", "ru", "Возможно, в Buzz есть что-то новое."),
        ("", "en", "There might be new activity on Buzz."),
    ])
    func locale_choosesItsCatalog_andTheResponseNamesIt(_ locale: String, _ tag: String, _ body: String) {
        let parts = fallback(locale: locale)
        #expect(parts.status == 200, "\(parts.text)")
        #expect(parts.locale == tag, "\(locale)")
        #expect(parts.body.map { $0.unicodeScalars.elementsEqual(body.unicodeScalars) } == true, "\(parts.text)")
    }

    @Test func locale_absentOrNull_isTheDefault_andTheResponseSaysEn() {
        #expect(fallback(locale: nil).locale == "en")
        let null = harness.post("/compose", #"{"fetch": "failed", "locale": null}"#)
        #expect(HTTPResponseParts(null).locale == "en")
    }

    @Test(arguments: ["sr", "xx-YY", "tlh", "en-Zzzz-999"])
    func wellFormedLocaleNoCatalogFits_getsTheDefault_andSaysWhich(_ locale: String) {
        let parts = fallback(locale: locale)
        #expect(parts.status == 200)
        #expect(parts.locale == "en", "\(locale)")
        let german = ServiceHarness(catalogs: try! CatalogSet.builtIn.withDefaultLocale("de-AT"))
        let fromGerman = fallback(locale: locale, harness: german)
        #expect(fromGerman.locale == "de", "\(locale)")
        #expect(fromGerman.body == "In Buzz gibt es vielleicht Neues.")
    }

    @Test func serverDefaultLocale_answersARequestWithoutLocale() {
        let arabic = ServiceHarness(catalogs: try! CatalogSet.builtIn.withDefaultLocale("ar"))
        let parts = fallback(locale: nil, harness: arabic)
        #expect(parts.locale == "ar")
        #expect(fallback(locale: "pt", harness: arabic).locale == "pt")
    }

    @Test(arguments: [
        "en_US\n", "e", "english", "de--CH", "en-", "-en", "en US", "1en", "en-123456789", "ü",
        String(repeating: "a", count: 3) + String(repeating: "-abcdefgh", count: 7),
    ])
    func malformedLocale_is400InvalidLocaleNamingTheField(_ locale: String) {
        let response = harness.post(
            "/compose", #"{"fetch": "failed", "locale": "# + jsonText(.string(locale)) + "}")
        expectProblem(response, code: "invalid-locale", detailContains: "locale must be a BCP 47 language tag")
    }

    @Test func locale_ofExactly64Characters_isWellFormed_65IsNot() {
        let tag64 = "abc" + String(repeating: "-abcdefg", count: 7) + "-abcd"
        #expect(tag64.count == 64)
        #expect(fallback(locale: tag64).status == 200)
        expectProblem(
            harness.post("/compose", #"{"fetch": "failed", "locale": ""# + tag64 + "f\"}"), code: "invalid-locale")
    }

    @Test func locale_ofTheWrongType_isInvalidType() {
        expectProblem(
            harness.post("/compose", #"{"fetch": "failed", "locale": ["en"]}"#), code: "invalid-type",
            detailContains: "locale")
    }

    @Test func locale_problem_comesInDocumentOrder() {
        expectProblem(
            harness.post("/compose", #"{"locale": "e", "maxUnits": 1, "fetch": "failed"}"#), code: "invalid-locale")
        expectProblem(
            harness.post("/compose", #"{"maxUnits": 1, "locale": "e", "fetch": "failed"}"#), code: "out-of-range")
    }

    @Test func malformedLocale_detailQuotesTheValueShortened_neverTheMessages() {
        let long = String(repeating: "x", count: 100)
        let response = harness.post(
            "/compose",
            #"{"notifications": [{"id": "1", "type": "message", "timestamp": "2026-11-29T11:59:00Z", "text": "secret words"}], "locale": ""#
                + long + "\"}")
        expectProblem(response, code: "invalid-locale")
        let detail = response.problem?.detail ?? ""
        #expect(detail.contains(String(repeating: "x", count: 64) + "…"))
        #expect(!detail.contains(long))
        #expect(!detail.contains("secret"))
    }
}

/// What these tests read from a compose answer.
struct HTTPResponseParts {
    let status: Int
    let text: String
    let locale: String?
    let body: String?

    init(_ response: HTTPResponse) {
        status = response.status
        text = response.text
        guard case .object(let object)? = response.json else {
            locale = nil
            body = nil
            return
        }
        if case .string(let value)? = object["locale"] { locale = value } else { locale = nil }
        if case .object(let notification)? = object["notification"], case .string(let value)? = notification["body"] {
            body = value
        } else {
            body = nil
        }
    }
}
