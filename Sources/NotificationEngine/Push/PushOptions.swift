/// The request's `push` member (compose.md C13): when a request has one, its
/// answer carries the APNs, FCM and Web Push payloads of push.md.
package struct PushOptions: Hashable, Sendable {
    /// Allowed `badge`.
    package static let badgeRange = 0...2_147_483_647
    /// Allowed `reserveBytes`.
    package static let reserveBytesRange = 0...2048
    /// Allowed `stamp`: up to 2^53 − 1, the largest integer every JSON reader
    /// (a JavaScript number among them) holds exactly.
    package static let stampRange: ClosedRange<Int64> = 0...9_007_199_254_740_991
    /// Allowed `alertWindowSeconds`, and its value when absent (compose.md S3).
    package static let alertWindowRange = 0...86_400
    package static let defaultAlertWindowSeconds = 60
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

    /// The app icon's badge: APNs `badge`, FCM data `badge`, Web Push `appBadge`.
    package var badge: Int?
    /// The Android notification channel id (FCM data `channel`): 1…128 bytes, no control character.
    package var androidChannel: String?
    /// Bytes each payload leaves free for the relay's own members, in `reserveBytesRange`.
    package var reserveBytes: Int
    /// The order of this answer's payloads among the recipient's (push.md
    /// P22), in `stampRange`; nil: ⌊now⌋ in milliseconds.
    package var stamp: Int64?
    /// A group that alerted less than this many seconds ago gets new
    /// messages quietly (compose.md S3), in `alertWindowRange`; 0: never.
    package var alertWindowSeconds: Int
    /// Until when the recipient is active on another client: an answer
    /// that would alert before then is held (compose.md S6).
    package var activeUntil: Timestamp?

    /// The Web Push payload's shape; `classic` unless the request asks.
    package var webPush: WebPushFormat
    /// The app URL a declarative payload opens when the notification has
    /// no navigable url (`navigate`, P23); required with `declarative`.
    package var navigate: String?
    /// Whether a declarative payload lets the app's worker replace it (P23).
    package var mutable: Bool

    package init(
        badge: Int? = nil, androidChannel: String? = nil, reserveBytes: Int = 0, stamp: Int64? = nil,
        alertWindowSeconds: Int = PushOptions.defaultAlertWindowSeconds, activeUntil: Timestamp? = nil,
        webPush: WebPushFormat = .classic, navigate: String? = nil, mutable: Bool = false
    ) {
        self.badge = badge
        self.androidChannel = androidChannel
        self.reserveBytes = reserveBytes
        self.stamp = stamp
        self.alertWindowSeconds = alertWindowSeconds
        self.activeUntil = activeUntil
        self.webPush = webPush
        self.navigate = navigate
        self.mutable = mutable
    }

    /// Whether `url` is a navigable URL (push.md P23): `https://` or
    /// `http://`, then at least one scalar, none of them a space, a
    /// control (C0, DEL, C1), `"`, `\`, `<`, `>` or `` ` ``; so it needs no
    /// JSON escape and every URL parser takes it as absolute.
    package static func isNavigable(_ url: String) -> Bool {
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

    /// `isNavigable(_:)` of UTF-8 (a sender's `avatar`, compose.md 2.1).
    static func isNavigable(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
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
