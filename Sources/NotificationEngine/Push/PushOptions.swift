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

    package init(
        badge: Int? = nil, androidChannel: String? = nil, reserveBytes: Int = 0, stamp: Int64? = nil,
        alertWindowSeconds: Int = PushOptions.defaultAlertWindowSeconds, activeUntil: Timestamp? = nil
    ) {
        self.badge = badge
        self.androidChannel = androidChannel
        self.reserveBytes = reserveBytes
        self.stamp = stamp
        self.alertWindowSeconds = alertWindowSeconds
        self.activeUntil = activeUntil
    }

    /// Whether `channel` is a valid `androidChannel`: 1…128 bytes of UTF-8
    /// without a C0 control, DEL or C1 control.
    package static func isValidAndroidChannel(_ channel: some Collection<Unicode.Scalar>, byteCount: Int) -> Bool {
        androidChannelByteRange.contains(byteCount)
            && !channel.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }
}
