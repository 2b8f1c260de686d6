import NotificationEngine

extension PushOptions {
    /// These options as the wire decoder would have let them through: each
    /// number clamped into its range, a channel or `navigate` the decoder
    /// refuses left out, and a declarative Web Push payload only with a
    /// valid `navigate`. A Swift caller's value is never refused.
    var clamped: PushOptions {
        var options = self
        options.badge = badge.map { min(max($0, Self.badgeRange.lowerBound), Self.badgeRange.upperBound) }
        options.androidChannel = androidChannel.flatMap { channel in
            Self.isValidAndroidChannel(channel.unicodeScalars, byteCount: channel.utf8.count) ? channel : nil
        }
        options.reserveBytes = min(
            max(reserveBytes, Self.reserveBytesRange.lowerBound), Self.reserveBytesRange.upperBound)
        options.stamp = stamp.map { min(max($0, Self.stampRange.lowerBound), Self.stampRange.upperBound) }
        options.alertWindowSeconds = min(
            max(alertWindowSeconds, Self.alertWindowRange.lowerBound), Self.alertWindowRange.upperBound)
        options.navigate = navigate.flatMap { Self.isNavigable($0) ? $0 : nil }
        options.declarativeWebPush = declarativeWebPush && options.navigate != nil
        return options
    }
}
