import NotificationEngine

/// One fetched notification, as `POST /compose` receives it in `notifications`.
public struct PendingNotification: Hashable, Sendable {
    /// Who sent it; both parts are optional.
    public struct Sender: Hashable, Sendable {
        /// Compared with the request's `recipient` (exact code points) to drop
        /// the recipient's own notifications.
        public var id: String?
        /// Shown as a title or in a sender list after whitespace normalisation.
        public var name: String?
        /// Where the sender's picture is: an `https://` or `http://` URL of at
        /// most 512 bytes (`POST /compose` refuses another), carried in the
        /// payloads' `sender` (push.md P24).
        public var avatar: String?

        /// A sender with these parts.
        public init(id: String? = nil, name: String? = nil, avatar: String? = nil) {
            self.id = id
            self.name = name
            self.avatar = avatar
        }
    }

    /// Identifies the notification within its `source`.
    public var id: String
    /// Where it comes from (wiki, community…); `nil` or empty means none.
    /// - Precondition: contains no `:` (`POST /compose` refuses one).
    public var source: String?
    /// `message`, `mention`, `reply`, or any other string (a non-message).
    public var type: String
    /// When it happened.
    public var timestamp: Timestamp
    /// Whether the recipient has read it (a read notification is dropped).
    public var read: Bool
    /// The conversation or talk page; the bundle and the thread identifier use it.
    public var thread: String?
    /// The thread's title, for a bundle's title.
    public var threadTitle: String?
    /// Whether the thread is a group conversation (more than two people):
    /// the payloads' `conversation.group` (push.md P24).
    public var threadIsGroup: Bool
    /// Who sent it.
    public var sender: Sender?
    /// The message's Markdown, rendered by the body rules.
    public var text: String?
    /// The source's own one-line text, rendered when no other body exists.
    public var defaultText: String?
    /// Opened when the notification is tapped.
    public var url: String?
    /// How much it matters: whether it alerts (compose.md S3) and how the
    /// platforms interrupt for it (push.md P9).
    public var importance: Importance

    /// A notification with these values.
    public init(
        id: String, source: String? = nil, type: String, timestamp: Timestamp, read: Bool = false,
        thread: String? = nil, threadTitle: String? = nil, threadIsGroup: Bool = false, sender: Sender? = nil,
        text: String? = nil, defaultText: String? = nil, url: String? = nil, importance: Importance = .normal
    ) {
        self.id = id
        self.source = source
        self.type = type
        self.timestamp = timestamp
        self.read = read
        self.thread = thread
        self.threadTitle = threadTitle
        self.threadIsGroup = threadIsGroup
        self.sender = sender
        self.text = text
        self.defaultText = defaultText
        self.url = url
        self.importance = importance
    }

    /// `source:id`, or `id` when there is no source: what `shown`,
    /// `dropped` and `displayed` name it by.
    public var key: String {
        guard let source, !source.isEmpty else { return id }
        return source + ":" + id
    }

    var engineValue: NotificationEngine.PendingNotification {
        NotificationEngine.PendingNotification(
            id: id, source: source, type: type, timestamp: timestamp.value, read: read, thread: thread,
            threadTitle: threadTitle, threadIsGroup: threadIsGroup,
            sender: sender.map {
                NotificationEngine.PendingNotification.Sender(id: $0.id, name: $0.name, avatar: $0.avatar)
            },
            text: text, defaultText: defaultText, url: url,
            importance: NotificationEngine.Importance(rawValue: importance.rawValue) ?? .normal)
    }
}

/// A notification the caller has already shown: its key and when it happened.
public struct DisplayedEntry: Hashable, Sendable {
    /// The `key` of a notification the device shows; nil for an entry of a
    /// group alone (a fallback notification, which covers no message).
    public var key: String?
    /// The notification's timestamp (for a fallback entry, when it was recorded).
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

    init(_ entry: NotificationEngine.DisplayedEntry) {
        self.init(
            key: entry.key, timestamp: Timestamp(entry.timestamp), group: entry.group, digest: entry.digest,
            alerted: entry.alerted.map(Timestamp.init), direct: entry.direct)
    }
}

/// How much a notification matters (`importance` on the wire; compose.md
/// S3, push.md P9).
public enum Importance: String, Hashable, Sendable, CaseIterable {
    /// Never alerts on its own: it arrives quietly (a digest, a low-priority update).
    case low
    /// The default.
    case normal
    /// Alerts even inside its group's alert window; `time-sensitive` on iOS.
    case high
}

/// How the caller's fetch of pending notifications went (`fetch` on the wire).
public enum FetchOutcome: String, Hashable, Sendable, CaseIterable {
    /// The notifications were fetched; compose decides from them.
    case ok
    /// The fetch failed: compose shows the fallback with reason `failed`.
    case failed
    /// The fetch timed out: compose shows the fallback with reason `timeout`.
    case timeout
}
