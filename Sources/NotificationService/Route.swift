/// The service's resources. Matching is exact on the raw path: no trailing
/// slash, no percent-decoding, so `/body/` and `/bod%79` are 404.
///
/// The raw values count the cases in their order, which is `allCases`'s:
/// a new route is one case here (and its label and path).
enum Route: Int, CaseIterable, Sendable {
    case body, compose, relay, healthz, readyz, metrics, openAPI
    case playgroundPage, playgroundStyle, playgroundScript, playgroundIcon, playgroundSettings
    case unmatched

    init(path: String) {
        switch path {
        case "/body": self = .body
        case "/compose": self = .compose
        case "/relay": self = .relay
        case "/healthz": self = .healthz
        case "/readyz": self = .readyz
        case "/metrics": self = .metrics
        case "/openapi.yaml": self = .openAPI
        case "/": self = .playgroundPage
        case "/playground.css": self = .playgroundStyle
        case "/playground.js": self = .playgroundScript
        case "/playground.svg": self = .playgroundIcon
        case "/playground.json": self = .playgroundSettings
        default: self = .unmatched
        }
    }

    /// The label in metrics, logs and `HTTPResponse.route`.
    var label: String {
        switch self {
        case .body: "/body"
        case .compose: "/compose"
        case .relay: "/relay"
        case .healthz: "/healthz"
        case .readyz: "/readyz"
        case .metrics: "/metrics"
        case .openAPI: "/openapi.yaml"
        case .playgroundPage: "/"
        case .playgroundStyle: "/playground.css"
        case .playgroundScript: "/playground.js"
        case .playgroundIcon: "/playground.svg"
        case .playgroundSettings: "/playground.json"
        case .unmatched: "unmatched"
        }
    }

    /// The inverse of `label`; unknown labels count as `unmatched`.
    init(label: String) {
        self = label == "unmatched" ? .unmatched : Route(path: label)
    }

    /// The route's place in `allCases`: its counters' index in `ServiceMetrics`.
    var metricsIndex: Int { rawValue }

    /// Whether the route is answered with POST (the rules) or GET and HEAD (the rest).
    var acceptsPost: Bool { self == .body || self == .compose || self == .relay }

    /// Probes stay open when a token is required: orchestrators call them
    /// without secrets, and they reveal nothing but liveness. So do the
    /// playground's static files: the page asks for the token itself. Its
    /// settings (this server's app name and catalogs) need the token, like
    /// the answers they describe.
    var isOpenWithoutToken: Bool { self == .healthz || self == .readyz || isPlaygroundFile }

    /// The playground page and its files, the same bytes for everyone.
    var isPlaygroundFile: Bool {
        self == .playgroundPage || self == .playgroundStyle || self == .playgroundScript || self == .playgroundIcon
    }

    /// The playground's files and its settings (`serve --playground off` makes them unknown paths).
    var isPlayground: Bool { isPlaygroundFile || self == .playgroundSettings }

    /// What the separate metrics listener (`serve --metrics-port`) answers.
    var isServedOnMetricsListener: Bool { self == .metrics || self == .healthz || self == .readyz }

    /// The `Allow` header of a 405.
    var allowHeader: String { acceptsPost ? "POST" : "GET, HEAD" }
}
