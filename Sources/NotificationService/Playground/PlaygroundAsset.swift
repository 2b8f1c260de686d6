import HTTPCore

/// The playground's files, compiled in from `Resources/` (SwiftPM
/// `.embedInCode`, so no bundle and no Foundation): `GET /` is `index.html`,
/// which loads `/playground.css`, `/playground.js` and its icon `/playground.svg`. Static, the same for
/// every request; the page calls `POST /body` and `POST /compose` itself.
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
