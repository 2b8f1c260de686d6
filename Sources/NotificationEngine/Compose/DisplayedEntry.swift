/// One notification on the device, as the caller records it: in a request's
/// `displayed`, and in the response's `displayed` (the next state the caller
/// persists). compose.md 2.1 and C10.
package struct DisplayedEntry: Hashable, Sendable {
    /// The key (`source:id` or `id`) of a message the device shows; nil for
    /// an entry of a group alone (a fallback notification).
    package var key: String?
    /// The message's timestamp (or when the fallback was recorded), echoed exactly as written.
    package var timestamp: Timestamp
    /// The group key it is shown under; nil for an entry stored without one.
    package var group: String?
    /// What the notification said when it was sent: a text digest (C15).
    package var digest: String?
    /// When its group last alerted (S3).
    package var alerted: Timestamp?
    /// Whether the message was direct (a `mention` or a `reply`) when it was sent.
    package var direct: Bool?

    package init(
        key: String?, timestamp: Timestamp, group: String? = nil, digest: String? = nil, alerted: Timestamp? = nil,
        direct: Bool? = nil
    ) {
        self.key = key
        self.timestamp = timestamp
        self.group = group
        self.digest = digest
        self.alerted = alerted
        self.direct = direct
    }
}
