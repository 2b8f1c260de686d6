/// One fetched notification, as `POST /compose` receives it in `notifications`.
///
/// The engine's value and the library's (`NotificationText` names it by a
/// `typealias`), one declaration for both (docs/adr/0050). The wire decoder
/// checks each member's rules; a Swift caller's value goes to the composer
/// as it is.
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

    /// The types compose treats as messages; any other type is a non-message.
    package static let messageTypes = ["message", "mention", "reply"]

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

    // MARK: By the request's slots

    /// Its text in `field`'s slot, as the request's records hold it
    /// (`timestamp` is `Timestamp`'s own; `key` and `group` are made, not sent).
    func text(_ field: ComposeRequest.NotificationRanges.Field) -> String? {
        switch field {
        case .id: id
        case .source: source
        case .type: type
        case .senderID: sender?.id
        case .senderName: sender?.name
        case .thread: thread
        case .threadTitle: threadTitle
        case .text: text
        case .defaultText: defaultText
        case .url: url
        case .senderAvatar: sender?.avatar
        // A notification's `importance` shares the slot of an entry's `digest`; `normal` is absent's.
        case .digest: importance == .normal ? nil : importance.rawValue
        case .timestamp, .key, .group, .alerted: nil
        }
    }

    /// Its booleans and integers, as the request's records hold them.
    var scalars: ComposeRequest.ScalarSlots {
        var scalars = ComposeRequest.ScalarSlots()
        scalars[.read] = read ? 1 : 0
        scalars[.threadIsGroup] = threadIsGroup ? 1 : 0
        return scalars
    }

    /// The notification whose texts `text` gives by slot (`id` and `type`
    /// present), of `timestamp` and `scalars`.
    init(
        text: (ComposeRequest.NotificationRanges.Field) -> String?, timestamp: Timestamp,
        scalars: ComposeRequest.ScalarSlots
    ) {
        let (senderID, senderName, avatar) = (text(.senderID), text(.senderName), text(.senderAvatar))
        self.init(
            id: text(.id)!, source: text(.source), type: text(.type)!, timestamp: timestamp,
            read: scalars[.read] != 0, thread: text(.thread), threadTitle: text(.threadTitle),
            threadIsGroup: scalars[.threadIsGroup] != 0,
            sender: senderID == nil && senderName == nil && avatar == nil
                ? nil : Sender(id: senderID, name: senderName, avatar: avatar),
            text: text(.text), defaultText: text(.defaultText), url: text(.url),
            importance: text(.importance).flatMap(Importance.init(rawValue:)) ?? .normal)
    }

    /// `source:id`, or `id` when there is no source (an empty source counts
    /// as none): what `shown`, `dropped` and `displayed` name it by.
    public var key: String {
        guard let source, !source.isEmpty else { return id }
        return source + ":" + id
    }

    /// Whether `type` is one of `messageTypes` (exact, case-sensitive).
    package var isMessage: Bool {
        var type = type
        return type.withUTF8 { Self.isMessageType($0) }
    }

    /// Whether the UTF-8 `type` is one of `messageTypes`; false when absent.
    static func isMessageType(_ type: UnsafeBufferPointer<UInt8>?) -> Bool {
        guard let type else { return false }
        func equals(_ literal: StaticString) -> Bool {
            CodePoints.equalBytes(type, UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
        }
        switch type.count {
        case 5: return equals("reply")
        case 7: return equals("message") || equals("mention")
        default: return false
        }
    }
}
