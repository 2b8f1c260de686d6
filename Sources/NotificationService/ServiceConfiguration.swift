import NotificationText

/// What the service itself can be configured with (the adapter reads the
/// environment and command line once at start and fills this in).
public struct ServiceConfiguration: Sendable {
    /// App name used in generic texts when a compose request has no `app` or an empty one.
    public var appName: String
    /// The catalogs compose writes its own texts from, with the default
    /// locale a request without `locale` gets (`serve --default-locale`).
    public var catalogs: CatalogSet
    /// Whether `didRespond` writes one access-log line per request to stdout.
    public var accessLogEnabled: Bool
    /// When set, every request except `/healthz` and `/readyz` must carry
    /// `Authorization: Bearer <token>`, else 401 `unauthorized`.
    public var authToken: BearerToken?

    public init(
        appName: String = ComposeRequest.defaultApp, catalogs: CatalogSet = .builtIn, accessLogEnabled: Bool = true,
        authToken: BearerToken? = nil
    ) {
        self.appName = appName
        self.catalogs = catalogs
        self.accessLogEnabled = accessLogEnabled
        self.authToken = authToken
    }
}
