/// The `push` member of a compose answer (push.md): whether to send, what to
/// withdraw, and the APNs, FCM and Web Push payloads, each fitted to its
/// transport's limit less the request's `reserveBytes`.
///
/// The payloads are kept as their texts (cut or not) and the fixed parts;
/// `write(_:texts:to:)` writes one, the same bytes whether measuring (the
/// fit) or answering, so a size the fit computed is the size sent.
package struct PushAnswer: Hashable, Sendable {
    /// The three transports, in the order the answer writes them.
    package enum Transport: String, Hashable, Sendable, CaseIterable {
        case apns, fcm, webpush

        /// The largest payload the transport takes, in bytes (push.md P13).
        package var limitBytes: Int {
            switch self {
            case .apns, .fcm: 4096
            case .webpush: 3993
            }
        }
    }

    /// A member the fit may cut (`cut`), in the order `cut` lists them.
    package enum Field: String, Hashable, Sendable, CaseIterable {
        case title, subtitle, body, url
    }

    /// The class of the answer (push.md P9), which decides the priorities.
    package enum PriorityClass: String, Hashable, Sendable {
        case direct, message, other, fallback

        var interruptionLevel: StaticString { self == .fallback ? "passive" : "active" }
        /// Written as the JSON number P9 gives.
        var relevanceScore: StaticString {
            switch self {
            case .direct: "1"
            case .message: "0.6"
            case .other: "0.4"
            case .fallback: "0.2"
            }
        }
        var apnsPriority: String { self == .fallback ? "5" : "10" }
        var fcmPriority: StaticString { self == .fallback ? "normal" : "high" }
        var urgency: String {
            switch self {
            case .direct: "high"
            case .message, .other: "normal"
            case .fallback: "low"
            }
        }
    }

    /// The texts a payload carries: the notification's, or cut.
    package struct Texts: Hashable, Sendable {
        package var title: String
        package var subtitle: String?
        package var body: String
        package var url: String?

        package init(title: String, subtitle: String?, body: String, url: String?) {
            self.title = title
            self.subtitle = subtitle
            self.body = body
            self.url = url
        }
    }

    /// One transport's payload: its texts when the fit cut some, what was cut, its size.
    package struct Payload: Hashable, Sendable {
        /// The texts after the fit when it cut any; nil when the payload
        /// carries the answer's `texts` (nearly always: they are kept once).
        package var cutTexts: Texts?
        /// In `Field` order; empty when nothing was cut.
        package var cut: [Field]
        /// The payload's length written compactly (P19, P20).
        package var byteCount: Int
    }

    /// The notification's texts, uncut.
    package var texts: Texts
    /// False exactly for a fallback `empty` (P1).
    package var send: Bool
    /// Keys of displayed notifications read elsewhere (P2), in request order.
    package var withdraw: [String]
    /// G of P4: `thread-id`, `apns-collapse-id`, `collapse_key`, the `tag`s.
    package var groupKey: String
    /// H(T) of P5: the Web Push `Topic`.
    package var topic: String
    package var priorityClass: PriorityClass
    /// E of P7, in Unix seconds (may be negative).
    package var expirationSeconds: Int64
    /// P8, never negative.
    package var ttlSeconds: Int64
    package var badge: Int?
    package var androidChannel: String?
    /// The answer's `kind`, `locale` and `direction`, which FCM and Web Push carry.
    package var kind: ComposeResponse.Kind
    package var locale: String
    package var direction: TextDirection
    package var apns: Payload
    package var fcm: Payload
    package var webpush: Payload

    /// The texts `transport`'s payload carries.
    package func texts(_ transport: Transport) -> Texts {
        self[transport].cutTexts ?? texts
    }

    /// The payload of `transport`.
    package subscript(transport: Transport) -> Payload {
        get {
            switch transport {
            case .apns: apns
            case .fcm: fcm
            case .webpush: webpush
            }
        }
        set {
            switch transport {
            case .apns: apns = newValue
            case .fcm: fcm = newValue
            case .webpush: webpush = newValue
            }
        }
    }

    // MARK: Headers

    /// The APNs request headers, in order (P10).
    package var apnsHeaders: [(name: String, value: String)] {
        [
            ("apns-push-type", "alert"), ("apns-priority", priorityClass.apnsPriority),
            ("apns-expiration", String(max(expirationSeconds, 0))), ("apns-collapse-id", groupKey),
        ]
    }

    /// The Web Push request headers, in order (P12).
    package var webPushHeaders: [(name: String, value: String)] {
        [("TTL", String(ttlSeconds)), ("Urgency", priorityClass.urgency), ("Topic", topic)]
    }

    // MARK: Payloads

    /// The JSON of `transport`'s payload as sent: compact, raw UTF-8.
    package func payloadJSON(_ transport: Transport) -> [UInt8] {
        let texts = texts(transport)
        return JSONWriter.bytes(capacity: self[transport].byteCount) { write(transport, texts: texts, to: &$0) }
    }

    /// The bytes `transport`'s payload takes with `texts`, written by P19 and P20.
    func byteCount(_ transport: Transport, texts: Texts) -> Int {
        JSONWriter.write(into: UnsafeMutableBufferPointer(start: nil, count: 0)) {
            write(transport, texts: texts, to: &$0)
        }
    }

    /// Writes `transport`'s payload as fitted.
    func write(_ transport: Transport, to out: inout JSONWriter) {
        // Each branch lends its texts: `cutTexts ?? texts` would copy them.
        if let cutTexts = self[transport].cutTexts {
            write(transport, texts: cutTexts, to: &out)
        } else {
            write(transport, texts: texts, to: &out)
        }
    }

    /// Writes `transport`'s payload with `texts` (P10 to P12, members in the spec's order).
    func write(_ transport: Transport, texts: Texts, to out: inout JSONWriter) {
        switch transport {
        case .apns: writeAPNs(texts, to: &out)
        case .fcm: writeFCM(texts, to: &out)
        case .webpush: writeWebPush(texts, to: &out)
        }
    }

    private func writeAPNs(_ texts: Texts, to out: inout JSONWriter) {
        out.raw(#"{"aps":{"alert":{"title":"#)
        out.string(texts.title)
        if let subtitle = texts.subtitle {
            out.raw(#","subtitle":"#)
            out.string(subtitle)
        }
        out.raw(#","body":"#)
        out.string(texts.body)
        out.raw(#"},"thread-id":"#)
        out.string(groupKey)
        out.raw(#","interruption-level":""#)
        out.raw(priorityClass.interruptionLevel)
        out.raw(#"","relevance-score":"#)
        out.raw(priorityClass.relevanceScore)
        if let badge {
            out.raw(#","badge":"#)
            out.integer(badge)
        }
        out.raw("}")
        if let url = texts.url {
            out.raw(#","url":"#)
            out.string(url)
        }
        out.raw("}")
    }

    private func writeFCM(_ texts: Texts, to out: inout JSONWriter) {
        out.raw(#"{"data":{"#)
        writeTexts(texts, to: &out)
        if let androidChannel {
            out.raw(#","channel":"#)
            out.string(androidChannel)
        }
        if let badge {
            out.raw(#","badge":""#)
            out.integer(badge)
            out.raw(#"""#)
        }
        writeKindLangDir(to: &out)
        out.raw(#"},"android":{"collapse_key":"#)
        out.string(groupKey)
        out.raw(#","priority":""#)
        out.raw(priorityClass.fcmPriority)
        out.raw(#"","ttl":""#)
        out.integer(Int(ttlSeconds))
        out.raw(#"s"}}"#)
    }

    private func writeWebPush(_ texts: Texts, to out: inout JSONWriter) {
        out.raw("{")
        writeTexts(texts, to: &out)
        if let badge {
            out.raw(#","appBadge":"#)
            out.integer(badge)
        }
        writeKindLangDir(to: &out)
        out.raw("}")
    }

    /// `"title":…,"subtitle":…,"body":…,"tag":…,"url":…` of FCM's data and Web Push.
    private func writeTexts(_ texts: Texts, to out: inout JSONWriter) {
        out.raw(#""title":"#)
        out.string(texts.title)
        if let subtitle = texts.subtitle {
            out.raw(#","subtitle":"#)
            out.string(subtitle)
        }
        out.raw(#","body":"#)
        out.string(texts.body)
        out.raw(#","tag":"#)
        out.string(groupKey)
        if let url = texts.url {
            out.raw(#","url":"#)
            out.string(url)
        }
    }

    private func writeKindLangDir(to out: inout JSONWriter) {
        switch kind {
        case .single: out.raw(#","kind":"single","lang":"#)
        case .bundle: out.raw(#","kind":"bundle","lang":"#)
        case .summary: out.raw(#","kind":"summary","lang":"#)
        case .fallback: out.raw(#","kind":"fallback","lang":"#)
        }
        out.string(locale)
        out.raw(direction == .rtl ? #","dir":"rtl""# : #","dir":"ltr""#)
    }

    // MARK: Equality

    package static func == (a: PushAnswer, b: PushAnswer) -> Bool {
        a.send == b.send && a.withdraw.elementsEqual(b.withdraw, by: CodePoints.equal) && a.groupKey == b.groupKey
            && a.topic == b.topic && a.priorityClass == b.priorityClass
            && a.expirationSeconds == b.expirationSeconds && a.ttlSeconds == b.ttlSeconds && a.badge == b.badge
            && a.androidChannel == b.androidChannel && a.kind == b.kind && a.locale == b.locale
            && a.direction == b.direction && a.texts == b.texts && a.apns == b.apns && a.fcm == b.fcm
            && a.webpush == b.webpush
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(send)
        hasher.combine(groupKey)
        hasher.combine(apns.byteCount)
    }
}
