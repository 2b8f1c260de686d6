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

    package init(key: String?, timestamp: Timestamp, group: String? = nil) {
        self.key = key
        self.timestamp = timestamp
        self.group = group
    }
}
