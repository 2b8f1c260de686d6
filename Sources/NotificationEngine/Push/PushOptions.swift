/// The request's `push` member (compose.md C13): when a request has one, its
/// answer carries the APNs, FCM and Web Push payloads of push.md.
package struct PushOptions: Hashable, Sendable {
    /// Allowed `badge`.
    package static let badgeRange = 0...2_147_483_647
    /// Allowed `reserveBytes`.
    package static let reserveBytesRange = 0...2048
    /// Allowed length of `androidChannel`, in UTF-8 bytes.
    package static let androidChannelByteRange = 1...128

    /// The app icon's badge: APNs `badge`, FCM data `badge`, Web Push `appBadge`.
    package var badge: Int?
    /// The Android notification channel id (FCM data `channel`): 1…128 bytes, no control character.
    package var androidChannel: String?
    /// Bytes each payload leaves free for the relay's own members, in `reserveBytesRange`.
    package var reserveBytes: Int

    package init(badge: Int? = nil, androidChannel: String? = nil, reserveBytes: Int = 0) {
        self.badge = badge
        self.androidChannel = androidChannel
        self.reserveBytes = reserveBytes
    }

    /// Whether `channel` is a valid `androidChannel`: 1…128 bytes of UTF-8
    /// without a C0 control, DEL or C1 control.
    package static func isValidAndroidChannel(_ channel: some Collection<Unicode.Scalar>, byteCount: Int) -> Bool {
        androidChannelByteRange.contains(byteCount)
            && !channel.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }
}
