import NotificationText

/// What the service itself can be configured with (the adapter reads the
/// environment and command line once at start and fills this in).
public struct ServiceConfiguration: Sendable {
    /// App name used in generic texts when a compose request has no `app` or an empty one.
    public var appName: String
    /// Whether `didRespond` writes one access-log line per request to stdout.
    public var accessLogEnabled: Bool
    /// When set, every request except `/healthz` and `/readyz` must carry
    /// `Authorization: Bearer <token>` with one of these tokens, else 401
    /// `unauthorized`; `NotificationTextService.replaceAuthTokens` swaps them
    /// while serving.
    public var authTokens: AuthTokens?

    public init(
        appName: String = ComposeRequest.defaultApp, accessLogEnabled: Bool = true, authTokens: AuthTokens? = nil
    ) {
        self.appName = appName
        self.accessLogEnabled = accessLogEnabled
        self.authTokens = authTokens
    }
}
