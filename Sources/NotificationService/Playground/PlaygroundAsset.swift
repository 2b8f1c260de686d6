import HTTPCore
import NotificationEngine

/// The playground's files, compiled in from `Resources/` (SwiftPM
/// `.embedInCode`, so no bundle and no Foundation): `GET /` is `index.html`,
/// which loads `/playground.css`, `/playground.js` and its icon `/playground.svg`. Static, the same for
/// every request; the page calls `POST /body` and `POST /compose` itself, and
/// `GET /playground.json` for what it cannot know: this server's settings.
enum PlaygroundAsset {
    /// The answer to `GET` (or `HEAD`) on one of the playground's routes.
    static func response(route: Route) -> HTTPResponse {
        let (contentType, bytes): (String, [UInt8]) =
            switch route {
            case .playgroundStyle: ("text/css; charset=utf-8", PackageResources.playground_css)
            case .playgroundScript: ("text/javascript; charset=utf-8", PackageResources.playground_js)
            case .playgroundIcon: ("image/svg+xml", PackageResources.playground_svg)
            default: ("text/html; charset=utf-8", PackageResources.index_html)
            }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", contentType)] + securityHeaders, body: bytes, route: route.label)
    }

    /// The answer to `GET /playground.json`: the app name compose falls back
    /// to (`serve --app-name`), the default locale's catalog, and each
    /// catalog's tag and direction, so the page draws a notification in the
    /// direction of the catalog that wrote it without a copy of the catalogs:
    /// `{"appName":"Buzz","defaultLocale":"en","catalogs":[{"locale":"ar","direction":"rtl"},…]}`.
    static func settings(_ configuration: ServiceConfiguration) -> HTTPResponse {
        let catalogs = configuration.catalogs
        let capacity = 64 + configuration.appName.utf8.count + 40 * catalogs.catalogs.count
        let json = JSONWriter.bytes(capacity: capacity) { json in
            json.raw(#"{"appName":"#)
            json.string(configuration.appName)
            json.raw(#","defaultLocale":"#)
            json.string(catalogs.defaultCatalog.tag)
            json.raw(#","catalogs":["#)
            for (index, catalog) in catalogs.catalogs.enumerated() {
                json.raw(index == 0 ? #"{"locale":"# : #",{"locale":"#)
                json.string(catalog.tag)
                json.raw(catalog.direction == .rtl ? #","direction":"rtl"}"# : #","direction":"ltr"}"#)
            }
            json.raw("]}")
        }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "application/json")] + securityHeaders, body: json,
            route: Route.playgroundSettings.label)
    }

    /// Sent with every playground file. Scripts, styles and requests come from
    /// this origin only, and no inline script runs (the page has none); the
    /// page cannot be framed, so no other site can overlay the token field.
    static let securityHeaders: [(name: String, value: String)] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        // Each build may change the files; a browser revalidates instead of guessing.
        ("Cache-Control", "no-cache"),
    ]

    static let contentSecurityPolicy = "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}
