/// Everything compose decides from. It is a pure input: the clock is `now`.
///
/// The wire decoder (`POST /compose`, the `compose` CLI) fills it in and
/// enforces the static limits below before calling `Composer.compose`; the
/// composer trusts them.
public struct ComposeRequest: Hashable, Sendable {
    /// At most this many `notifications`.
    public static let maxNotifications = 1000
    /// At most this many `displayed` entries in a request.
    public static let maxDisplayedEntries = 10_000
    /// Allowed `maxAgeSeconds`.
    public static let maxAgeSecondsRange = 0...86_400
    /// `maxAgeSeconds` when the request has none (the seed's "10 minutes").
    public static let defaultMaxAgeSeconds = 600
    /// A notification more than this far ahead of `now` is dropped as `future`.
    public static let futureToleranceSeconds = 300
    /// The app name when neither the request nor the server configures one.
    public static let defaultApp = "Buzz"
    /// The response's `displayed` keeps at most this many entries (the newest).
    public static let maxDisplayedOutput = 1000

    /// The fetched notifications, in the order fetched (may be empty; ignored
    /// unless `fetch` is `.ok`).
    public var notifications: [PendingNotification]
    /// What the caller has already shown (the state it persisted last time).
    public var displayed: [DisplayedEntry]
    /// The reference time; the server uses its clock when the wire has none.
    public var now: Timestamp
    /// Freshness window, in `maxAgeSecondsRange`.
    public var maxAgeSeconds: Int
    /// Body cap in UTF-16 units, in `BodyRenderer.maxUnitsRange`.
    public var maxUnits: Int
    /// The request's `app`; `nil`, or a value that normalises to empty, means `serverApp`.
    public var app: String?
    /// The server's configured app name (`defaultApp` unless configured).
    public var serverApp: String
    /// The recipient's own id; notifications whose `sender.id` equals it are dropped.
    public var recipient: String?
    public var fetch: FetchOutcome

    public init(
        notifications: [PendingNotification] = [],
        displayed: [DisplayedEntry] = [],
        now: Timestamp,
        maxAgeSeconds: Int = ComposeRequest.defaultMaxAgeSeconds,
        maxUnits: Int = BodyRenderer.defaultMaxUnits,
        app: String? = nil,
        serverApp: String = ComposeRequest.defaultApp,
        recipient: String? = nil,
        fetch: FetchOutcome = .ok
    ) {
        self.notifications = notifications
        self.displayed = displayed
        self.now = now
        self.maxAgeSeconds = maxAgeSeconds
        self.maxUnits = maxUnits
        self.app = app
        self.serverApp = serverApp
        self.recipient = recipient
        self.fetch = fetch
    }
}
