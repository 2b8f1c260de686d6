import NotificationEngine

/// What the service itself can be configured with (the adapter reads the
/// environment and command line once at start and fills this in).
public struct ServiceConfiguration: Sendable {
    /// App name used in generic texts when a compose request has no `app` or an empty one.
    public var appName: String
    /// The catalogs compose writes its own texts from, with the default
    /// locale a request without `locale` gets (`serve --default-locale`).
    package var catalogs: CatalogSet
    /// Whether `didRespond` writes one access-log line per request to stdout.
    public var accessLogEnabled: Bool
    /// When set, every request except `/healthz` and `/readyz` must carry
    /// `Authorization: Bearer <token>` with one of these tokens, else 401
    /// `unauthorized`; `NotificationTextService.replaceAuthTokens` swaps them
    /// while serving.
    public var authTokens: AuthTokens?
    /// The labels of `notification_text_build_info` (the executable sets them).
    public var build = BuildInfo()
    /// Whether `GET /` serves the playground page (and its CSS and script);
    /// when off, those paths are unknown (404, or 401 without the token).
    public var playgroundEnabled: Bool

    package init(
        appName: String = ComposeRequest.defaultApp, catalogs: CatalogSet = .builtIn, accessLogEnabled: Bool = true,
        authTokens: AuthTokens? = nil, playgroundEnabled: Bool = true
    ) {
        self.appName = appName
        self.catalogs = catalogs
        self.accessLogEnabled = accessLogEnabled
        self.authTokens = authTokens
        self.playgroundEnabled = playgroundEnabled
    }
}

/// Which build answers: the `VERSION` file's version and the git revision.
public struct BuildInfo: Sendable, Equatable {
    public var version: String
    public var revision: String

    public init(version: String = "unknown", revision: String = "unknown") {
        self.version = version
        self.revision = revision
    }
}
