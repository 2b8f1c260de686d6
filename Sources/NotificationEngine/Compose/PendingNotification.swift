/// One fetched notification, as `POST /compose` receives it in `notifications`.
/// Decoding and validating the wire JSON is the caller's job; this is the value.
package struct PendingNotification: Hashable, Sendable {
    /// Who sent it; both parts are optional on the wire.
    package struct Sender: Hashable, Sendable {
        /// Compared with the request's `recipient` (exact code points) to drop the
        /// recipient's own notifications.
        package var id: String?
        /// Shown as a title or in a sender list after whitespace normalisation.
        package var name: String?
        /// Where the sender's picture is: a navigable URL (push.md P24 carries it).
        package var avatar: String?

        package init(id: String? = nil, name: String? = nil, avatar: String? = nil) {
            self.id = id
            self.name = name
            self.avatar = avatar
        }
    }

    /// The types compose treats as messages; any other type is a non-message.
    package static let messageTypes = ["message", "mention", "reply"]

    /// Required on the wire.
    package var id: String
    /// Where it comes from (wiki, community…); never contains `:` (the caller
    /// validates). `nil` or empty means there is no source.
    package var source: String?
    /// `message`, `mention`, `reply`, or any other string (a non-message).
    package var type: String
    package var timestamp: Timestamp
    package var read: Bool
    /// The conversation or talk page; the bundle and the thread identifier use it.
    package var thread: String?
    package var threadTitle: String?
    /// Whether the thread is a conversation of more than two people (push.md P24).
    package var threadIsGroup: Bool
    package var sender: Sender?
    /// The message's Markdown, rendered by the body rules.
    package var text: String?
    /// The source's own one-line text, rendered by the body rules when no other body exists.
    package var defaultText: String?
    package var url: String?
    /// How much it matters (compose.md S3, push.md P9).
    package var importance: Importance

    package init(
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

    /// `source:id`, or `id` when there is no source (an empty source counts as none).
    package var key: String {
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
