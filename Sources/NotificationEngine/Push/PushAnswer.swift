/// The `push` member of a compose answer (push.md): whether to send, what to
/// withdraw, and the APNs, FCM and Web Push payloads, each fitted to its
/// transport's limit less the request's `reserveBytes`.
///
/// The payloads are kept as their texts (cut or not) and the fixed parts;
/// `PayloadFields.write(_:_:to:)` writes one, the same bytes whether
/// measuring (the fit) or answering, so a size the fit computed is the size sent.
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
        /// The sender and the conversation (P24), left out together.
        case identity
    }

    /// The class of the answer (push.md P9), which decides the priorities.
    package enum PriorityClass: String, Hashable, Sendable {
        /// `urgent`: a kept notification of importance `high`; `low`: every one `low`.
        case urgent, low, direct, message, other, fallback

        var interruptionLevel: StaticString {
            switch self {
            case .urgent: "time-sensitive"
            case .low, .fallback: "passive"
            case .direct, .message, .other: "active"
            }
        }
        /// Written as the JSON number P9 gives.
        var relevanceScore: StaticString {
            switch self {
            case .urgent, .direct: "1"
            case .message: "0.6"
            case .other: "0.4"
            case .fallback: "0.2"
            case .low: "0.1"
            }
        }
        var isQuiet: Bool { self == .fallback || self == .low }
        var apnsPriority: String { isQuiet ? "5" : "10" }
        var fcmPriority: StaticString { isQuiet ? "normal" : "high" }
        var urgency: String {
            switch self {
            case .urgent, .direct: "high"
            case .message, .other: "normal"
            case .fallback, .low: "low"
            }
        }
    }

    /// The texts a payload carries: the notification's, or cut.
    package struct Texts: Hashable, Sendable {
        package var title: String
        package var subtitle: String?
        package var body: String
        package var url: String?
        /// Whether the payload carries the answer's identity (P24): false once the fit left it out.
        package var identity = true

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
    /// compose.md S2 (P1): whether to send the alert payloads.
    package var send: Bool
    /// compose.md S3 (P1): whether they alert; false replaces quietly.
    package var alert: Bool
    /// compose.md S6 (P1): `push.activeUntil` when the answer is held; nil otherwise.
    package var heldUntil: Timestamp? = nil
    /// compose.md S1 (P2): the group keys to withdraw.
    package var withdraw: [String]
    /// P22: the request's `push.stamp`, or ⌊now⌋ in milliseconds since the
    /// epoch; every payload carries it, and a device applies a payload of a
    /// group only when its stamp is newer than what that group last applied.
    package var stamp: Int64
    /// ⌊now⌋ in seconds since the epoch (the withdrawal's expiration is a day later).
    package var nowSeconds: Int64
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
    /// The Web Push payload's shape, and for a declarative one the app URL
    /// `navigate` falls back on and whether it is `mutable` (P23).
    package var webPushFormat: PushOptions.WebPushFormat
    package var navigate: String?
    package var mutable: Bool
    /// P24: the sender and the conversation the payloads carry, and the answer's importance (P9).
    package var identity: PushIdentity
    package var importance: Importance
    package var apns: Payload
    package var fcm: Payload
    package var webpush: Payload
    /// The strings of the uncut texts as JSON, written once by `PushBuilder`
    /// (measured and answered from).
    var writtenStrings: WrittenStrings

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
        let (fields, capacity) = (payloadFields, self[transport].byteCount)
        return withJSONStrings(of: texts(transport)) { strings in
            JSONWriter.bytes(capacity: capacity) { fields.write(transport, strings, to: &$0) }
        }
    }

    /// The bytes `transport`'s payload takes with `texts`, written by P19 and P20.
    func byteCount(_ transport: Transport, texts: Texts) -> Int {
        let fields = payloadFields
        return withJSONStrings(of: texts) { fields.byteCount(transport, $0) }
    }

    /// What the payloads and their headers write besides their strings.
    var payloadFields: PayloadFields {
        PayloadFields(
            priorityClass: priorityClass, expirationSeconds: expirationSeconds, ttlSeconds: ttlSeconds, badge: badge,
            kind: kind, direction: direction, alert: alert, webPushFormat: webPushFormat, mutable: mutable)
    }

    /// The strings the payloads write, each already a JSON string (quoted,
    /// escaped): written once and copied into each payload, rather than
    /// escaped once per payload (a bundle's body has a line feed) and read
    /// out of its `String` each time; and the stamp's digits, which every
    /// payload repeats. Valid only inside `withJSONStrings`.
    struct JSONStrings {
        var title: UnsafeBufferPointer<UInt8>
        var subtitle: UnsafeBufferPointer<UInt8>?
        var body: UnsafeBufferPointer<UInt8>
        var url: UnsafeBufferPointer<UInt8>?
        var groupKey: UnsafeBufferPointer<UInt8>
        var topic: UnsafeBufferPointer<UInt8>
        var locale: UnsafeBufferPointer<UInt8>
        var androidChannel: UnsafeBufferPointer<UInt8>?
        /// The app URL of a declarative Web Push payload (P23), nil otherwise.
        var navigate: UnsafeBufferPointer<UInt8>?
        /// P22's stamp in decimal digits (unquoted).
        var stamp: UnsafeBufferPointer<UInt8>
        /// P24's members as APNs and Web Push write them, and as FCM data
        /// does: empty when the payload carries none.
        var identity: UnsafeBufferPointer<UInt8>
        var identityData: UnsafeBufferPointer<UInt8>
    }

    /// `withJSONStrings(of:groupKey:topic:locale:androidChannel:navigate:stamp:identity:_:)`
    /// with the answer's strings.
    @inline(__always)
    func withJSONStrings<Result>(of texts: Texts, _ body: (JSONStrings) -> Result) -> Result {
        Self.withJSONStrings(
            of: texts, groupKey: groupKey, topic: topic, locale: locale, androidChannel: androidChannel,
            navigate: webPushFormat == .declarative ? navigate : nil, stamp: stamp,
            identity: texts.identity ? identity : nil, body)
    }

    /// Calls `body` with the JSON strings of `texts` and of the other
    /// strings: written on the stack when they fit in 1,024 bytes, or else
    /// in a buffer of their size (written twice).
    ///
    /// - Important: `body` should capture no reference (`payloadFields`, not
    ///   the answer): it is called from three places, so it is not inlined,
    ///   and what it captures is copied into its context (an answer's copy,
    ///   its retains and releases: bench/README.md, "What each decision is
    ///   worth").
    @inline(__always)
    static func withJSONStrings<Result>(
        of texts: Texts, groupKey: String, topic: String, locale: String, androidChannel: String?,
        navigate: String?, stamp: Int64, identity: PushIdentity?, _ body: (JSONStrings) -> Result
    ) -> Result {
        func write(to out: inout JSONWriter, ends: inout JSONStringEnds) {
            writeJSONStrings(
                of: texts, groupKey: groupKey, topic: topic, locale: locale, androidChannel: androidChannel,
                navigate: navigate, stamp: stamp, identity: identity, to: &out, ends: &ends)
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1_024) { buffer in
            var ends = JSONStringEnds()
            let needed = JSONWriter.write(into: buffer) { write(to: &$0, ends: &ends) }
            if needed <= buffer.count { return body(ends.strings(in: UnsafeBufferPointer(buffer))) }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: needed) { buffer in
                _ = JSONWriter.write(into: buffer) { write(to: &$0, ends: &ends) }
                return body(ends.strings(in: UnsafeBufferPointer(buffer)))
            }
        }
    }

    /// Where each of `JSONStrings` ends in the bytes written; -1 for none.
    struct JSONStringEnds {
        var title = 0, subtitle = -1, body = 0, url = -1, groupKey = 0, topic = 0, locale = 0, androidChannel = -1
        var navigate = -1, stamp = 0, identity = 0, identityData = 0

        /// The strings, written one after another from the start of `bytes`.
        func strings(in bytes: UnsafeBufferPointer<UInt8>) -> JSONStrings {
            var start = 0
            func next(_ end: Int) -> UnsafeBufferPointer<UInt8>? {
                guard end >= 0 else { return nil }
                defer { start = end }
                return UnsafeBufferPointer(rebasing: bytes[start..<end])
            }
            let title = next(title).unsafelyUnwrapped
            let subtitle = next(subtitle)
            let body = next(body).unsafelyUnwrapped
            let url = next(url)
            let groupKey = next(groupKey).unsafelyUnwrapped
            let topic = next(topic).unsafelyUnwrapped
            let locale = next(locale).unsafelyUnwrapped
            let androidChannel = next(androidChannel)
            let navigate = next(navigate)
            let stamp = next(stamp).unsafelyUnwrapped
            return JSONStrings(
                title: title, subtitle: subtitle, body: body, url: url, groupKey: groupKey, topic: topic,
                locale: locale, androidChannel: androidChannel, navigate: navigate, stamp: stamp,
                identity: next(identity).unsafelyUnwrapped, identityData: next(identityData).unsafelyUnwrapped)
        }
    }

    static func writeJSONStrings(
        of texts: Texts, groupKey: String, topic: String, locale: String, androidChannel: String?,
        navigate: String?, stamp: Int64, identity: PushIdentity?, to out: inout JSONWriter,
        ends: inout JSONStringEnds
    ) {
        out.string(texts.title)
        ends.title = out.count
        if let subtitle = texts.subtitle {
            out.string(subtitle)
            ends.subtitle = out.count
        }
        out.string(texts.body)
        ends.body = out.count
        if let url = texts.url {
            out.string(url)
            ends.url = out.count
        }
        out.string(groupKey)
        ends.groupKey = out.count
        out.string(topic)
        ends.topic = out.count
        out.string(locale)
        ends.locale = out.count
        if let androidChannel {
            out.string(androidChannel)
            ends.androidChannel = out.count
        }
        if let navigate {
            out.string(navigate)
            ends.navigate = out.count
        }
        out.integer(stamp)
        ends.stamp = out.count
        if let identity {
            identity.objects.withUnsafeBufferPointer { out.raw($0) }
            ends.identity = out.count
            identity.data.withUnsafeBufferPointer { out.raw($0) }
        } else {
            ends.identity = out.count
        }
        ends.identityData = out.count
    }

    // MARK: Equality

    package static func == (a: PushAnswer, b: PushAnswer) -> Bool {
        a.send == b.send && a.alert == b.alert && a.withdraw.elementsEqual(b.withdraw, by: CodePoints.equal)
            && a.stamp == b.stamp && a.nowSeconds == b.nowSeconds
            && a.groupKey == b.groupKey
            && a.topic == b.topic && a.priorityClass == b.priorityClass
            && a.expirationSeconds == b.expirationSeconds && a.ttlSeconds == b.ttlSeconds && a.badge == b.badge
            && a.androidChannel == b.androidChannel && a.kind == b.kind && a.locale == b.locale
            && a.direction == b.direction && a.webPushFormat == b.webPushFormat && a.navigate == b.navigate
            && a.mutable == b.mutable && a.identity == b.identity && a.importance == b.importance
            && a.texts == b.texts && a.apns == b.apns && a.fcm == b.fcm
            && a.webpush == b.webpush
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(send)
        hasher.combine(groupKey)
        hasher.combine(apns.byteCount)
    }
}
