import NotificationEngine

/// What a compose answer may show (`preview` of `POST /compose`, compose.md C11).
public enum PreviewTier: String, Hashable, Sendable, CaseIterable {
    /// The notification as composed.
    case full
    /// No text the sender wrote: the bodies of singles and bundles come from
    /// the catalog (`New message`, `2 new messages`); names and thread titles stay.
    case sender
    /// As `sender`, and no name or thread title either: the title is the app, no subtitle.
    case none

    var engineValue: NotificationEngine.PreviewTier {
        switch self {
        case .full: .full
        case .sender: .sender
        case .none: .none
        }
    }
}

/// The request's `push` member (compose.md C13): with it, the response has
/// the APNs, FCM and Web Push payloads of `docs/spec/push.md`.
public struct PushOptions: Hashable, Sendable {
    /// Allowed `badge`.
    public static let badgeRange = NotificationEngine.PushOptions.badgeRange
    /// Allowed `reserveBytes`.
    public static let reserveBytesRange = NotificationEngine.PushOptions.reserveBytesRange
    /// Allowed `stamp`: 0 to 2^53 − 1.
    public static let stampRange = NotificationEngine.PushOptions.stampRange
    /// Allowed `alertWindowSeconds`, and its default.
    public static let alertWindowRange = NotificationEngine.PushOptions.alertWindowRange
    public static let defaultAlertWindowSeconds = NotificationEngine.PushOptions.defaultAlertWindowSeconds

    /// The app icon's badge (APNs `badge`, FCM data `badge`, Web Push
    /// `appBadge`); clamped into `badgeRange`.
    public var badge: Int?
    /// The Android notification channel id (FCM data `channel`): 1 to 128
    /// bytes of UTF-8 without a control character; another value is left
    /// out (`POST /compose` refuses it with `invalid-value`).
    public var androidChannel: String?
    /// Bytes each payload leaves free for the relay's own members; clamped
    /// into `reserveBytesRange`.
    public var reserveBytes: Int
    /// The order of the answer's payloads among the recipient's (push.md
    /// P22): the relay's stored stamp, newer than every one it sent before;
    /// nil: ⌊now⌋ in milliseconds. Clamped into `stampRange`.
    public var stamp: Int64?
    /// A group that alerted less than this many seconds ago gets new
    /// messages quietly (compose.md S3); 0 turns it off. Clamped into `alertWindowRange`.
    public var alertWindowSeconds: Int
    /// Until when the recipient is active on another client: an answer that
    /// would alert before then is held (compose.md S6).
    public var activeUntil: Timestamp?
    /// Whether the Web Push payload is the declarative Web Push message
    /// (push.md P23: `{"web_push": 8030, "notification": {…}}`, shown by a
    /// browser without a worker) rather than the classic JSON only the app's
    /// worker reads (P12). A declarative payload needs `navigate`; without a
    /// valid one it is classic (`POST /compose` refuses the request).
    public var declarativeWebPush: Bool
    /// The app URL a declarative payload opens when the notification has no
    /// navigable url of its own: `https://` or `http://`, at most 512 bytes,
    /// no space or control character (`PushOptions.isNavigable(_:)`).
    public var navigate: String?
    /// Whether a declarative payload lets the app's service worker run and
    /// replace it (`mutable: true`); the browser shows it anyway if the worker shows nothing.
    public var mutable: Bool

    /// Options with these values.
    public init(
        badge: Int? = nil, androidChannel: String? = nil, reserveBytes: Int = 0, stamp: Int64? = nil,
        alertWindowSeconds: Int = PushOptions.defaultAlertWindowSeconds, activeUntil: Timestamp? = nil,
        declarativeWebPush: Bool = false, navigate: String? = nil, mutable: Bool = false
    ) {
        self.badge = badge
        self.androidChannel = androidChannel
        self.reserveBytes = reserveBytes
        self.stamp = stamp
        self.alertWindowSeconds = alertWindowSeconds
        self.activeUntil = activeUntil
        self.declarativeWebPush = declarativeWebPush
        self.navigate = navigate
        self.mutable = mutable
    }

    /// Whether `url` may be `navigate`: an `https://` or `http://` URL of at
    /// most 512 bytes without a space, a control character, `"`, `\`, `<`, `>` or `` ` ``.
    public static func isNavigable(_ url: String) -> Bool {
        NotificationEngine.PushOptions.navigateByteRange.contains(url.utf8.count)
            && NotificationEngine.PushOptions.isNavigable(url)
    }

    var engineValue: NotificationEngine.PushOptions {
        let channel = androidChannel.flatMap { channel in
            NotificationEngine.PushOptions.isValidAndroidChannel(channel.unicodeScalars, byteCount: channel.utf8.count)
                ? channel : nil
        }
        let validNavigate = navigate.flatMap { Self.isNavigable($0) ? $0 : nil }
        return NotificationEngine.PushOptions(
            badge: badge.map { min(max($0, Self.badgeRange.lowerBound), Self.badgeRange.upperBound) },
            androidChannel: channel,
            reserveBytes: min(max(reserveBytes, Self.reserveBytesRange.lowerBound), Self.reserveBytesRange.upperBound),
            stamp: stamp.map { min(max($0, Self.stampRange.lowerBound), Self.stampRange.upperBound) },
            alertWindowSeconds: min(
                max(alertWindowSeconds, Self.alertWindowRange.lowerBound), Self.alertWindowRange.upperBound),
            activeUntil: activeUntil?.value,
            webPush: declarativeWebPush && validNavigate != nil ? .declarative : .classic, navigate: validNavigate,
            mutable: mutable)
    }
}
