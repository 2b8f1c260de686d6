/// Who sent the message a notification leads with (push.md P24): the
/// `sender` object of the APNs and Web Push payloads, and the FCM data's
/// `senderId`, `senderName` and `senderAvatar`. Decodes from the APNs
/// payload a notification service extension receives.
public struct CommunicationSender: Hashable, Sendable, Codable {
    /// The person key: the request's `sender.id` when it is 1 to 64 visible
    /// ASCII characters other than `"` and `\`, its digest otherwise; stable
    /// for one sender, so it identifies the person on the device.
    public var id: String?
    /// The display name, normalised and capped as a title is (compose.md C9).
    public var name: String?
    /// Where the sender's picture is: an `https://` or `http://` URL.
    public var avatar: String?

    /// A sender with these values.
    public init(id: String?, name: String?, avatar: String?) {
        self.id = id
        self.name = name
        self.avatar = avatar
    }
}

/// The conversation a notification belongs to (push.md P24): the
/// `conversation` object of the APNs and Web Push payloads, and the FCM
/// data's `conversationId`, `conversationTitle` and `conversationGroup`.
public struct CommunicationConversation: Hashable, Sendable, Codable {
    /// The group key of its thread (compose.md C14), the payloads' `thread-id` and `tag`.
    public var id: String
    /// Its title, normalised and capped as a title is.
    public var title: String?
    /// Whether it has more than two people.
    public var isGroup: Bool

    private enum CodingKeys: String, CodingKey {
        case id, title
        case isGroup = "group"
    }

    /// A conversation with these values.
    public init(id: String, title: String?, isGroup: Bool) {
        self.id = id
        self.title = title
        self.isGroup = isGroup
    }
}
