/// One notification the caller has already shown: in a request's `displayed`,
/// and in the response's `displayed` (the next state the caller persists).
package struct DisplayedEntry: Hashable, Sendable {
    /// The notification's key (`source:id` or `id`).
    package var key: String
    /// The notification's timestamp, echoed exactly as written.
    package var timestamp: Timestamp

    package init(key: String, timestamp: Timestamp) {
        self.key = key
        self.timestamp = timestamp
    }
}
