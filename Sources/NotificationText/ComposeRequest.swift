import NotificationEngine

/// Everything compose decides from, as plain values: what `POST /compose`
/// reads from its body, plus the settings a server has (`defaultApp`,
/// `defaultLocale`). It is a pure input: the clock is `now`.
public struct ComposeRequest: Hashable, Sendable {
    /// At most this many `notifications` (`POST /compose` refuses more).
    public static let maxNotifications = NotificationEngine.ComposeRequest.maxNotifications
    /// At most this many `displayed` entries (`POST /compose` refuses more).
    public static let maxDisplayedEntries = NotificationEngine.ComposeRequest.maxDisplayedEntries
    /// Allowed `maxAgeSeconds`.
    public static let maxAgeSecondsRange = NotificationEngine.ComposeRequest.maxAgeSecondsRange
    /// `maxAgeSeconds` when the request has none.
    public static let defaultMaxAgeSeconds = NotificationEngine.ComposeRequest.defaultMaxAgeSeconds
    /// The app name when neither the request nor `defaultApp` gives one.
    public static let defaultApp = NotificationEngine.ComposeRequest.defaultApp
    /// The locale of the texts compose writes when the request has none.
    public static let defaultLocale = CatalogSet.defaultLocale

    /// The fetched notifications, in the order fetched (ignored unless `fetch` is `.ok`).
    /// - Precondition: at most `maxNotifications`.
    public var notifications: [PendingNotification]
    /// What the device shows: the state the caller persisted last time
    /// (compose.md C10). A `group` that is not a group key, or that would be
    /// a 17th distinct one, is left out (`POST /compose` refuses either),
    /// and an entry left with neither key nor group is skipped.
    /// - Precondition: at most `maxDisplayedEntries`.
    public var displayed: [DisplayedEntry]
    /// The reference time.
    public var now: Timestamp
    /// Freshness window in seconds; clamped into `maxAgeSecondsRange`.
    public var maxAgeSeconds: Int
    /// Body cap in UTF-16 units; clamped into `BodyRenderer.maxUnitsRange`.
    public var maxUnits: Int
    /// The app name; `nil`, or a value that normalises to empty, means `defaultApp`.
    public var app: String?
    /// The recipient's own id; notifications whose `sender.id` equals it are dropped.
    public var recipient: String?
    /// How the fetch went.
    public var fetch: FetchOutcome
    /// A BCP 47 tag choosing the catalog of compose's own texts (the nearest
    /// built-in one, else `defaultLocale`'s); `nil`, or a tag that is not a
    /// language tag, means `defaultLocale` (`POST /compose` refuses the latter
    /// with `invalid-locale`).
    public var locale: String?
    /// The app name a server is configured with (`serve --app-name`).
    public var defaultApp: String
    /// The locale a server is configured with (`serve --default-locale`); a
    /// tag without a built-in catalog means `en`.
    public var defaultLocale: String
    /// What the response may show; `full` unless set.
    public var preview: PreviewTier
    /// With a value, the response has the push payloads (`ComposeResponse.push`).
    public var push: PushOptions?

    /// A request with these values; the defaults are those of `POST /compose`
    /// on a server with its default settings.
    public init(
        notifications: [PendingNotification] = [], displayed: [DisplayedEntry] = [], now: Timestamp,
        maxAgeSeconds: Int = ComposeRequest.defaultMaxAgeSeconds, maxUnits: Int = BodyRenderer.defaultMaxUnits,
        app: String? = nil, recipient: String? = nil, fetch: FetchOutcome = .ok, locale: String? = nil,
        defaultApp: String = ComposeRequest.defaultApp, defaultLocale: String = ComposeRequest.defaultLocale,
        preview: PreviewTier = .full, push: PushOptions? = nil
    ) {
        self.notifications = notifications
        self.displayed = displayed
        self.now = now
        self.maxAgeSeconds = maxAgeSeconds
        self.maxUnits = maxUnits
        self.app = app
        self.recipient = recipient
        self.fetch = fetch
        self.locale = locale
        self.defaultApp = defaultApp
        self.defaultLocale = defaultLocale
        self.preview = preview
        self.push = push
    }

    /// The engine's request for these values.
    var engineValue: NotificationEngine.ComposeRequest {
        let catalogs = CatalogSet.forDefaultLocale(defaultLocale)
        return NotificationEngine.ComposeRequest(
            notifications: notifications,
            displayed: Self.engineEntries(displayed),
            now: now,
            maxAgeSeconds: min(
                max(maxAgeSeconds, Self.maxAgeSecondsRange.lowerBound), Self.maxAgeSecondsRange.upperBound),
            maxUnits: min(
                max(maxUnits, BodyRenderer.maxUnitsRange.lowerBound), BodyRenderer.maxUnitsRange.upperBound),
            app: app, serverApp: defaultApp, recipient: recipient,
            fetch: fetch,
            catalog: catalogs.catalog(forLocale: locale) ?? catalogs.defaultCatalog, preview: preview,
            push: push?.clamped)
    }

    /// The engine's entries: each group a valid group key among the first
    /// `maxDisplayedGroups` distinct ones, or left out.
    private static func engineEntries(_ entries: [DisplayedEntry]) -> [DisplayedEntry] {
        var groups: [String] = []
        return entries.compactMap { entry in
            var group = entry.group
            if let named = group {
                if !NotificationEngine.PushBuilder.isPlainGroupKey(named) {
                    group = nil
                } else if !groups.contains(named) {
                    if groups.count < NotificationEngine.ComposeRequest.maxDisplayedGroups {
                        groups.append(named)
                    } else {
                        group = nil
                    }
                }
            }
            guard entry.key != nil || group != nil else { return nil }
            let digest = entry.digest.flatMap { digest in
                digest.utf8.count == 16
                    && digest.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
                    ? digest : nil
            }
            var kept = entry
            kept.group = group
            kept.digest = digest
            return kept
        }
    }
}

extension CatalogSet {
    /// The built-in catalogs with `tag` as their default locale, or with
    /// `en` when no built-in catalog fits `tag`.
    static func forDefaultLocale(_ tag: String) -> CatalogSet {
        (try? CatalogSet.builtIn.withDefaultLocale(tag)) ?? .builtIn
    }
}
