/// One notification the caller has already shown: in a request's `displayed`,
/// and in the response's `displayed` (the next state the caller persists).
public struct DisplayedEntry: Hashable, Sendable {
    /// The notification's key (`source:id` or `id`).
    public var key: String
    /// The notification's timestamp, echoed exactly as written.
    public var timestamp: Timestamp

    public init(key: String, timestamp: Timestamp) {
        self.key = key
        self.timestamp = timestamp
    }
}
