/// The request's `push` member (compose.md C13): when a request has one, its
/// answer carries the APNs, FCM and Web Push payloads of push.md.
///
/// The engine's value and the library's (docs/adr/0050). The wire decoder
/// refuses a value out of its range; the library clamps a Swift caller's
/// into them (`NotificationText`'s `Composer.compose`).
public struct PushOptions: Hashable, Sendable {
    /// Allowed `badge`.
    public static let badgeRange = 0...2_147_483_647
    /// Allowed `reserveBytes`.
    public static let reserveBytesRange = 0...2048
    /// Allowed `stamp`: 0 to 2^53 − 1, the largest integer every JSON reader
    /// (a JavaScript number among them) holds exactly.
    public static let stampRange: ClosedRange<Int64> = 0...9_007_199_254_740_991
    /// Allowed `alertWindowSeconds`, and its value when absent (compose.md S3).
    public static let alertWindowRange = 0...86_400
    public static let defaultAlertWindowSeconds = 60
    /// Allowed length of `androidChannel`, in UTF-8 bytes.
    package static let androidChannelByteRange = 1...128
    /// Allowed length of `navigate`, in UTF-8 bytes: small enough that the
    /// declarative Web Push payload's fixed part leaves the texts their
    /// floors under the largest `reserveBytes` (push.md P15).
    package static let navigateByteRange = 1...512

    /// The shape of the Web Push payload (push.md P12, P23).
    package enum WebPushFormat: String, Hashable, Sendable, CaseIterable {
        /// The JSON only the app's service worker reads (P12).
        case classic
        /// The declarative Web Push message (`web_push` 8030), which a
        /// browser shows without a worker and a worker reads as JSON (P23).
        case declarative
    }

    /// The app icon's badge (APNs `badge`, FCM data `badge`, Web Push
    /// `appBadge`), in `badgeRange`.
    public var badge: Int?
    /// The Android notification channel id (FCM data `channel`): 1 to 128
    /// bytes of UTF-8 without a control character; another value is left
    /// out (`POST /compose` refuses it with `invalid-value`).
    public var androidChannel: String?
    /// Bytes each payload leaves free for the relay's own members, in `reserveBytesRange`.
    public var reserveBytes: Int
    /// The order of the answer's payloads among the recipient's (push.md
    /// P22): the relay's stored stamp, newer than every one it sent before,
    /// in `stampRange`; nil: ⌊now⌋ in milliseconds.
    public var stamp: Int64?
    /// A group that alerted less than this many seconds ago gets new
    /// messages quietly (compose.md S3), in `alertWindowRange`; 0 turns it off.
    public var alertWindowSeconds: Int
    /// Until when the recipient is active on another client: an answer that
    /// would alert before then is held (compose.md S6).
    public var activeUntil: Timestamp?
    /// The Web Push payload's shape (`webPush` on the wire); `classic`
    /// unless the request asks.
    package var webPush: WebPushFormat
    /// Whether the Web Push payload is the declarative Web Push message
    /// (push.md P23: `{"web_push": 8030, "notification": {…}}`, shown by a
    /// browser without a worker) rather than the classic JSON only the app's
    /// worker reads (P12). A declarative payload needs `navigate`; without a
    /// valid one it is classic (`POST /compose` refuses the request).
    public var declarativeWebPush: Bool {
        get { webPush == .declarative }
        set { webPush = newValue ? .declarative : .classic }
    }
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
        self.webPush = declarativeWebPush ? .declarative : .classic
        self.navigate = navigate
        self.mutable = mutable
    }

    /// Whether `url` may be `navigate`: an `https://` or `http://` URL of at
    /// most 512 bytes without a space, a control character, `"`, `\`, `<`, `>` or `` ` ``.
    public static func isNavigable(_ url: String) -> Bool {
        navigateByteRange.contains(url.utf8.count) && hasNavigableForm(url)
    }

    /// Whether `url` is a navigable URL of any length (push.md P23):
    /// `https://` or `http://`, then at least one scalar, none of them a
    /// space, a control (C0, DEL, C1), `"`, `\`, `<`, `>` or `` ` ``; so it
    /// needs no JSON escape and every URL parser takes it as absolute.
    package static func hasNavigableForm(_ url: String) -> Bool {
        let scalars = url.unicodeScalars
        let rest: Substring.UnicodeScalarView
        if scalars.starts(with: "https://".unicodeScalars) {
            rest = scalars.dropFirst(8)
        } else if scalars.starts(with: "http://".unicodeScalars) {
            rest = scalars.dropFirst(7)
        } else {
            return false
        }
        guard let first = rest.first, first != "/" else { return false }
        return !rest.contains { scalar in
            scalar.value <= 0x20 || (0x7F...0x9F).contains(scalar.value) || "\"\\<>`".unicodeScalars.contains(scalar)
        }
    }

    /// `hasNavigableForm(_:)` of UTF-8 (a sender's `avatar`, compose.md 2.1).
    static func hasNavigableForm(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        func starts(with literal: StaticString) -> Bool {
            utf8.count >= literal.utf8CodeUnitCount
                && CodePoints.equalBytes(
                    UnsafeBufferPointer(rebasing: utf8[..<literal.utf8CodeUnitCount]),
                    UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
        }
        let start = starts(with: "https://") ? 8 : starts(with: "http://") ? 7 : -1
        guard start > 0, start < utf8.count, utf8[start] != UInt8(ascii: "/") else { return false }
        var index = start
        while index < utf8.count {
            let byte = utf8[index]
            switch byte {
            case 0...0x20, 0x7F, UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "<"), UInt8(ascii: ">"),
                UInt8(ascii: "`"):
                return false
            // U+0080…U+009F, the C1 controls, are 0xC2 0x80…0x9F.
            case 0xC2 where index + 1 < utf8.count && utf8[index + 1] <= 0x9F:
                return false
            default:
                index += 1
            }
        }
        return true
    }

    /// Whether `channel` is a valid `androidChannel`: 1…128 bytes of UTF-8
    /// without a C0 control, DEL or C1 control.
    package static func isValidAndroidChannel(_ channel: some Collection<Unicode.Scalar>, byteCount: Int) -> Bool {
        androidChannelByteRange.contains(byteCount)
            && !channel.contains(where: CodePoints.isControl)
    }
}
