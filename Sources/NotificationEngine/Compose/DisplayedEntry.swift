/// One notification on the device, as the caller records it: in a request's
/// `displayed`, and in the response's `displayed` (the next state the caller
/// persists). compose.md 2.1 and C10. The engine's value and the library's
/// (docs/adr/0050).
public struct DisplayedEntry: Hashable, Sendable {
    /// The `key` (`source:id` or `id`) of a notification the device shows;
    /// nil for an entry of a group alone (a fallback notification, which
    /// covers no message).
    public var key: String?
    /// The notification's timestamp (for a fallback entry, when it was
    /// recorded), echoed exactly as written.
    public var timestamp: Timestamp
    /// The group key it is shown under (compose.md C14): 1 to 64 characters
    /// of U+0021…U+007E other than `"` and `\`; nil for an entry stored
    /// without one, which is never withdrawn.
    public var group: String?
    /// What the notification said when it was sent (compose.md C15): 16
    /// characters of `0`–`9`, `a`–`f`; nil when not recorded (another
    /// value is left out, as `POST /compose` refuses it).
    public var digest: String?
    /// When its group last alerted (compose.md S3): the start of its alert window.
    public var alerted: Timestamp?
    /// Whether the message was direct (a `mention` or a `reply`) when it was sent.
    public var direct: Bool?

    /// An entry with these values.
    public init(
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
