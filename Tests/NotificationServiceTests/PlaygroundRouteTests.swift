import EngineTestSupport
import HTTPCore
import Testing

@testable import NotificationEngine
@testable import NotificationService

/// The playground page (`GET /`) and its files, in process: what is served,
/// with which headers, and who may load it.
@Suite struct PlaygroundRouteTests {
    static let folder = "Sources/NotificationService/Resources/"
    /// Path, the repository file served there, and its media type.
    static let assets: [(path: String, file: String, contentType: String)] = [
        ("/", "index.html", "text/html; charset=utf-8"),
        ("/playground.css", "playground.css", "text/css; charset=utf-8"),
        ("/playground.js", "playground.js", "text/javascript; charset=utf-8"),
        ("/playground.svg", "playground.svg", "image/svg+xml"),
    ]
    static let paths = assets.map(\.path)
    static let secret = "playground-Token_9"

    let harness = ServiceHarness()
    let page = String(decoding: repositoryFile(folder + "index.html"), as: UTF8.self)

    func service(playground: Bool, token: Bool) throws -> NotificationTextService {
        let configuration = ServiceConfiguration(
            authTokens: token ? try AuthTokens(fileContents: Array(Self.secret.utf8)) : nil,
            playgroundEnabled: playground)
        let service = NotificationTextService(
            configuration: configuration, clock: .fixed(nanosecondsSinceEpoch: testNowNanoseconds),
            accessLog: .discard, errorLog: .discard)
        service.setState(.running)
        return service
    }

    // MARK: What is served

    @Test(arguments: 0..<assets.count)
    func asset_isTheRepositoryFile_withItsTypeAndTheSecurityHeaders(_ index: Int) {
        let asset = Self.assets[index]
        let response = harness.get(asset.path)
        let file = repositoryFile(Self.folder + asset.file)
        #expect(!file.isEmpty, "\(asset.file) missing from the repository")
        #expect(response.status == 200)
        #expect(response.body == file, "\(asset.path) is not \(asset.file) byte for byte")
        #expect(response.header("Content-Type") == asset.contentType)
        #expect(response.header("Content-Security-Policy")?.hasPrefix("default-src 'self';") == true)
        #expect(response.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
        #expect(response.header("X-Content-Type-Options") == "nosniff")
        #expect(response.header("Referrer-Policy") == "no-referrer")
        #expect(response.route == asset.path)
    }

    @Test(arguments: paths)
    func head_answersLikeGetWithoutContent(_ path: String) {
        let get = harness.get(path)
        let head = harness.get(path, method: "HEAD")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == String(get.body.count))
        #expect(head.header("Content-Security-Policy") == get.header("Content-Security-Policy"))
    }

    @Test(arguments: paths)
    func otherMethods_areMethodNotAllowed(_ path: String) {
        for method in ["POST", "PUT", "DELETE"] {
            let response = harness.get(path, method: method)
            expectProblem(response, status: 405, code: "method-not-allowed")
            #expect(response.header("Allow") == "GET, HEAD")
        }
    }

    @Test func metrics_countThePlaygroundUnderItsOwnRoutes() {
        _ = Self.paths.map { path in
            let request = HTTPRequest(method: "GET", path: path)
            harness.service.didRespond(to: request, with: harness.service.handle(request), durationNanoseconds: 1_000)
        }
        let metrics = harness.get("/metrics").text
        for path in Self.paths {
            #expect(metrics.contains(#"notification_text_http_requests_total{route="\#(path)",status="200"} 1"#))
        }
    }

    // MARK: The page's settings

    /// `GET /playground.json`: the server's app name and default locale, and
    /// each catalog's tag and direction as its `l10n/<tag>.json` file says.
    @Test func settings_areTheAppName_theDefaultLocale_andEachCatalogsDirection() {
        let harness = ServiceHarness(appName: #"Zap "Ü""#)
        let response = harness.get("/playground.json")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.header("X-Content-Type-Options") == "nosniff")
        #expect(response.route == "/playground.json")
        let text = response.text
        #expect(text.hasPrefix(#"{"appName":"Zap \"Ü\"","defaultLocale":"en","catalogs":[{"locale":"#))
        #expect(text.hasSuffix("}]}"))
        let tags = CatalogSet.builtIn.catalogs.map(\.tag)
        #expect(text.components(separatedBy: #"{"locale":"#).count - 1 == tags.count)
        var rightToLeft: [String] = []
        for tag in tags {
            let file = String(decoding: repositoryFile("l10n/\(tag).json"), as: UTF8.self)
            let direction = file.contains(#""direction": "rtl""#) ? "rtl" : "ltr"
            #expect(file.contains(#""direction": "\#(direction)""#), "l10n/\(tag).json has no direction")
            #expect(text.contains(#"{"locale":"\#(tag)","direction":"\#(direction)"}"#), "\(tag)")
            if direction == "rtl" { rightToLeft.append(tag) }
        }
        #expect(rightToLeft == ["ar", "he"])
    }

    @Test func settings_needTheToken_andGoWithThePlayground() throws {
        let guarded = try service(playground: true, token: true)
        let request = HTTPRequest(method: "GET", path: "/playground.json")
        expectProblem(guarded.handle(request), status: 401, code: "unauthorized")
        var authorized = request
        authorized.headers.append(("authorization", "Bearer " + Self.secret))
        #expect(guarded.handle(authorized).status == 200)
        let off = try service(playground: false, token: false).handle(request)
        expectProblem(off, status: 404, code: "not-found")
        #expect(off.route == "unmatched")
        let post = harness.get("/playground.json", method: "POST")
        expectProblem(post, status: 405, code: "method-not-allowed")
        #expect(harness.get("/playground.json", method: "HEAD").body.isEmpty)
    }

    // MARK: The page itself

    /// The CSP allows no inline script or style, and nothing from another host.
    @Test func page_hasNoInlineScriptOrStyle_andLoadsOnlyServedPaths() {
        #expect(!page.isEmpty)
        #expect(!page.contains("<style"), "inline style element")
        #expect(!page.contains(" style="), "inline style attribute")
        #expect(!page.contains("javascript:"))
        var searchFrom = page.startIndex
        while let open = page.range(of: "<script", range: searchFrom..<page.endIndex) {
            let tagEnd = page.range(of: ">", range: open.upperBound..<page.endIndex)!.lowerBound
            #expect(page[open.upperBound..<tagEnd].contains("src=\"/"), "a script without a same-origin src")
            #expect(page[tagEnd...].dropFirst().hasPrefix("</script>"), "a script element with inline content")
            searchFrom = tagEnd
        }
        for attribute in [" onclick=", " onload=", " oninput=", " onchange=", " onsubmit=", " onerror="] {
            #expect(!page.contains(attribute), "inline handler \(attribute)")
        }
        let references = Self.attributeValues(page, names: ["src", "href", "action"])
        #expect(references.count >= 4)
        for reference in references {
            #expect(reference.hasPrefix("/") && !reference.hasPrefix("//"), "\(reference) is not a same-origin path")
            #expect(
                Self.paths.contains(reference) || reference == "/openapi.yaml",
                "\(reference) is not a path this server answers")
        }
    }

    @Test func page_hasTheElementsTheIssueNames() {
        for id in [
            "text", "max-units", "body", "units", "truncated", "input-cut", "compose-request", "notification-title",
            "notification-subtitle", "notification-body", "kind", "shown", "dropped", "locale", "response-locale",
            "token", "body-problem", "compose-problem", "ios-card", "android-card", "push-payloads", "payload-apns",
            "payload-fcm", "payload-webpush",
        ] {
            #expect(page.contains(#"id="\#(id)""#), "no element with id \(id)")
        }
    }

    @Test func localeSelector_offersTheServerDefaultAndEachCatalog() {
        #expect(page.contains(#"<option value="" selected>server default"#))
        let tags = [
            "en", "ar", "de", "es", "fr", "he", "hi", "it", "ja", "ko", "pl", "pt", "pt-PT", "ru", "tr", "uk",
            "zh-Hans", "zh-Hant",
        ]
        for tag in tags {
            #expect(page.contains(#"<option value="\#(tag)">\#(tag)</option>"#), "\(tag)")
        }
        #expect(page.components(separatedBy: "<option ").count - 1 == tags.count + 1)
    }

    /// The script keeps the token in a variable: no storage, cookie or address.
    @Test func script_neverStoresTheToken() {
        let script = String(decoding: repositoryFile(Self.folder + "playground.js"), as: UTF8.self)
        #expect(script.contains(#"headers.Authorization = "Bearer " + token"#))
        for forbidden in ["localStorage", "sessionStorage", "document.cookie", "indexedDB", "history.", "location."] {
            #expect(!script.contains(forbidden), "\(forbidden) in playground.js")
        }
        #expect(!script.contains("innerHTML"), "answers are written as text only")
    }

    // MARK: Switching it off, and the token

    @Test(arguments: paths)
    func playgroundOff_isNotFound_likeAnyUnknownPath(_ path: String) throws {
        let response = try service(playground: false, token: false).handle(HTTPRequest(method: "GET", path: path))
        expectProblem(response, status: 404, code: "not-found")
        #expect(response.route == "unmatched")
        #expect(response.header("Content-Security-Policy") == nil)
    }

    @Test(arguments: paths)
    func withToken_thePlaygroundLoadsWithoutOne(_ path: String) throws {
        let response = try service(playground: true, token: true).handle(HTTPRequest(method: "GET", path: path))
        #expect(response.status == 200)
        #expect(response.header("X-Content-Type-Options") == "nosniff")
    }

    @Test func withToken_theRulesStillNeedIt() throws {
        let service = try service(playground: true, token: true)
        let body = HTTPRequest(
            method: "POST", path: "/body", headers: [("content-type", "application/json")],
            body: Array(#"{"text":"a"}"#.utf8))
        expectProblem(service.handle(body), status: 401, code: "unauthorized")
        var authorized = body
        authorized.headers.append(("authorization", "Bearer " + Self.secret))
        #expect(service.handle(authorized).status == 200)
        expectProblem(service.handle(HTTPRequest(method: "GET", path: "/metrics")), status: 401, code: "unauthorized")
    }

    @Test func withTokenAndPlaygroundOff_rootIsUnauthorizedLikeAnyUnknownPath() throws {
        let response = try service(playground: false, token: true).handle(HTTPRequest(method: "GET", path: "/"))
        expectProblem(response, status: 401, code: "unauthorized")
    }

    @Test func metricsListener_doesNotServeThePlayground() throws {
        let response = try service(playground: true, token: false).metricsListenerHandler.handle(
            HTTPRequest(method: "GET", path: "/"))
        expectProblem(response, status: 404, code: "not-found")
    }

    /// The values of `name="…"` attributes in `html`, for each of `names`.
    static func attributeValues(_ html: String, names: [String]) -> [String] {
        var values: [String] = []
        for name in names {
            let marker = " \(name)=\""
            var rest = html[...]
            while let start = rest.range(of: marker) {
                let after = rest[start.upperBound...]
                guard let end = after.firstIndex(of: "\"") else { break }
                values.append(String(after[..<end]))
                rest = after[end...]
            }
        }
        return values
    }
}
