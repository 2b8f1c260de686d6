import NotificationEngine

/// The `push` member of a compose response (`docs/spec/push.md`): whether
/// to send, what to take back, and the three payloads ready to send.
///
/// - Important: each payload, written as `json` holds it, is at most its
///   transport's limit (APNs 4,096 bytes, FCM 4,096, Web Push 3,993) less
///   the request's `reserveBytes`; cut texts are whole grapheme clusters
///   followed by "…".
public struct PushAnswer: Hashable, Sendable {
    /// A member the fit may cut.
    public enum Field: String, Hashable, Sendable, CaseIterable {
        /// The title.
        case title
        /// The subtitle.
        case subtitle
        /// The body.
        case body
        /// The url, left out whole (a cut url would lead elsewhere).
        case url
        /// The sender and the conversation (push.md P24), left out together.
        case identity
    }

    /// A request header to send with a payload.
    public struct Header: Hashable, Sendable {
        /// The header's name (`apns-collapse-id`, `TTL`).
        public var name: String
        /// Its value.
        public var value: String

        /// A header with these values.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// One transport's request: its headers, its payload and what the fit cut.
    public struct Payload: Hashable, Sendable {
        /// The headers (APNs and Web Push; none for FCM, whose `message` carries its own).
        public var headers: [Header]
        /// The payload as sent: compact JSON in raw UTF-8 (the APNs payload,
        /// the FCM v1 `message` without its target, the Web Push plaintext).
        public var json: String
        /// What the fit cut, in `Field` order; empty when nothing was.
        public var cut: [Field]

        /// A payload with these values.
        public init(headers: [Header], json: String, cut: [Field]) {
            self.headers = headers
            self.json = json
            self.cut = cut
        }
    }

    /// The withdrawal payloads of one answer (push.md P21): `withdraw` and
    /// the badge, for each transport.
    public struct Withdrawal: Hashable, Sendable {
        /// The APNs background request (no collapse id).
        public var apns: Payload
        /// The FCM v1 message (a data message, no collapse key).
        public var fcm: Payload
        /// The Web Push request (no `Topic`).
        public var webpush: Payload

        /// Withdrawal payloads with these values.
        public init(apns: Payload, fcm: Payload, webpush: Payload) {
            self.apns = apns
            self.fcm = fcm
            self.webpush = webpush
        }
    }

    /// Whether to send the alert payloads (compose.md S2): false when the
    /// device already shows exactly the answer's keys under its group, or
    /// nothing is left to show.
    public var send: Bool
    /// Whether they alert (compose.md S3); false replaces the notification quietly.
    public var alert: Bool
    /// When the answer is held because the recipient is active elsewhere
    /// (compose.md S6): the request's `activeUntil`, at which the relay
    /// composes again; nil otherwise.
    public var heldUntil: Timestamp?
    /// The group key the alert payloads replace by (push.md P4): what a
    /// relay's outbox supersedes by.
    public var group: String
    /// The answer's stamp (push.md P22), which every payload carries.
    public var stamp: Int64
    /// The group keys to take off the device (compose.md S1), never the answer's own.
    public var withdraw: [String]
    /// The APNs request.
    public var apns: Payload
    /// The FCM v1 message (a data message).
    public var fcm: Payload
    /// The Web Push request.
    public var webpush: Payload
    /// The payloads that carry `withdraw` and the badge.
    public var withdrawal: Withdrawal
    /// The answer's importance (push.md P9): `high` when a kept notification
    /// is, `low` when every one is, `normal` otherwise.
    public var importance: Importance = .normal
    /// Who sent the message the payloads lead with, and its conversation
    /// (push.md P24), as the payloads carry them unless their fit left them out.
    public var sender: CommunicationSender?
    public var conversation: CommunicationConversation?

    /// An answer with these values.
    public init(
        send: Bool, alert: Bool, group: String, stamp: Int64, withdraw: [String], apns: Payload, fcm: Payload,
        webpush: Payload, withdrawal: Withdrawal, heldUntil: Timestamp? = nil
    ) {
        self.send = send
        self.alert = alert
        self.heldUntil = heldUntil
        self.group = group
        self.stamp = stamp
        self.withdraw = withdraw
        self.apns = apns
        self.fcm = fcm
        self.webpush = webpush
        self.withdrawal = withdrawal
    }

    init(_ answer: NotificationEngine.PushAnswer) {
        func payload(_ transport: NotificationEngine.PushAnswer.Transport, headers: [(name: String, value: String)])
            -> Payload
        {
            Payload(
                headers: headers.map { Header(name: $0.name, value: $0.value) },
                json: String(decoding: answer.payloadJSON(transport), as: UTF8.self),
                cut: answer[transport].cut.map { Field(rawValue: $0.rawValue)! })
        }
        func withdrawal(
            _ transport: NotificationEngine.PushAnswer.Transport, headers: [(name: String, value: String)]
        ) -> Payload {
            Payload(
                headers: headers.map { Header(name: $0.name, value: $0.value) },
                json: String(decoding: answer.withdrawalJSON(transport), as: UTF8.self), cut: [])
        }
        self.init(
            send: answer.send, alert: answer.alert, group: answer.groupKey, stamp: answer.stamp,
            withdraw: answer.withdraw,
            apns: payload(.apns, headers: answer.apnsHeaders), fcm: payload(.fcm, headers: []),
            webpush: payload(.webpush, headers: answer.webPushHeaders),
            withdrawal: Withdrawal(
                apns: withdrawal(.apns, headers: answer.withdrawalAPNsHeaders), fcm: withdrawal(.fcm, headers: []),
                webpush: withdrawal(.webpush, headers: answer.withdrawalWebPushHeaders)),
            heldUntil: answer.heldUntil)
        importance = answer.importance
        let identity = answer.identity
        if identity.sender != nil {
            sender = CommunicationSender(
                id: identity.senderID, name: identity.senderName, avatar: identity.senderAvatar)
        }
        if let id = identity.conversationID {
            conversation = CommunicationConversation(
                id: id, title: identity.conversationTitle, isGroup: identity.isGroup)
        }
    }
}
