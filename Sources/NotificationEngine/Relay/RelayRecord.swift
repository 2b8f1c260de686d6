/// What a relay stores per recipient (docs/relay.md, "State"): the core owns
/// its JSON, the relay keeps it opaquely, written with compare-and-set, and
/// passes it back with every call. Times are Unix milliseconds, a payload's
/// end Unix seconds, both `Int64` (`Int` has 32 bits in the WebAssembly build).
package struct RelayRecord: Sendable {
    package var recipient: String
    package var settings: Settings
    /// The last answer's `displayed`, as compact JSON exactly as returned.
    package var displayed: [UInt8]
    /// The last stamp given to a compose (push.md P22); nil before the first.
    package var stamp: Int64?
    /// A settings change or a registration not yet planned with a successful fetch.
    package var refresh: Bool
    /// When the loop must run, with the attempts so far; nil: nothing owed.
    package var due: Due?
    package var devices: [Device]
    /// Until when the recipient is active on another client (an `active`
    /// event), as written; each compose's `push.activeUntil` (compose.md S6).
    package var activeUntil: String? = nil

    /// What the relay sends along with every compose.
    package struct Settings: Sendable {
        package var locale: String
        package var preview: String
        package var androidChannel: String?
        package var maxAgeSeconds: Int
        package var maxUnits: Int
        package var app: String?
        /// The recipient's alert window (compose.md S3); nil: the default.
        package var alertWindowSeconds: Int? = nil

        package static let defaultMaxAgeSeconds = 600
        package static let defaultMaxUnits = 256
        static let previews: [StaticString] = ["full", "sender", "none"]
    }

    package struct Due: Sendable {
        package var atMilliseconds: Int64
        package var attempt: Int
    }

    package enum Transport: String, Sendable, Equatable {
        case apns, fcm, webpush
        static let names: [StaticString] = ["apns", "fcm", "webpush"]
    }

    package struct Device: Sendable {
        package var id: String
        package var transport: Transport
        /// The APNs or FCM token, or the Web Push subscription as the relay keeps it.
        package var token: String
        /// APNs: the bundle id (`apns-topic`).
        package var topic: String?
        /// The badge of the newest payload planned for it.
        package var badge: Int?
        /// Failed attempts of the outbox's first payload.
        package var attempt: Int
        /// When to try again; nil: not waiting.
        package var nextMilliseconds: Int64?
        /// Payloads not yet accepted, in stamp order.
        package var outbox: [OutboxEntry]

        /// Whether it may be sent to at `now` (no retry pending later).
        func isReady(atMilliseconds now: Int64) -> Bool {
            guard let next = nextMilliseconds else { return true }
            return next <= now
        }
    }

    package enum EntryKind: String, Sendable, Equatable {
        case alert, withdrawal
        static let names: [StaticString] = ["alert", "withdrawal"]
    }

    /// One payload as the answer gave it, for one device's transport.
    package struct OutboxEntry: Sendable {
        package var stamp: Int64
        package var kind: EntryKind
        /// The answer's group key (`push.group`).
        package var group: String
        /// Whether the answer was a fallback (its alert sets no floor and
        /// supersedes only its group: screen.md section 2).
        package var fallback: Bool
        /// The end of its lifetime, Unix seconds.
        package var endSeconds: Int64
        /// APNs and Web Push: the headers object; FCM: `{}`.
        package var headers: [UInt8]
        /// APNs and Web Push: the payload; FCM: the `message`.
        package var payload: [UInt8]
    }
}

extension RelayRecord {
    /// The record as the JSON the relay stores.
    func write(into json: inout JSONWriter) {
        json.put(#"{"recipient":"#)
        json.putString(recipient)
        json.put(#","settings":{"locale":"#)
        json.putString(settings.locale)
        json.put(#","preview":"#)
        json.putString(settings.preview)
        json.putMember(#","androidChannel":"#, settings.androidChannel)
        json.putMember(#","maxAgeSeconds":"#, settings.maxAgeSeconds)
        json.putMember(#","maxUnits":"#, settings.maxUnits)
        json.putMember(#","app":"#, settings.app)
        json.putMember(#","alertWindowSeconds":"#, settings.alertWindowSeconds)
        json.put(#"},"displayed":"#)
        json.put(displayed)
        json.put(#","stamp":"#)
        json.integerOrNull(stamp)
        json.put(refresh ? #","refresh":true,"due":"# : #","refresh":false,"due":"#)
        if let due {
            json.put(#"{"at":"#)
            json.putInteger(due.atMilliseconds)
            json.put(#","attempt":"#)
            json.putInteger(due.attempt)
            json.put("}")
        } else {
            json.put("null")
        }
        json.putMember(#","activeUntil":"#, activeUntil)
        json.put(#","devices":["#)
        for (position, device) in devices.enumerated() {
            if position > 0 { json.put(",") }
            device.write(into: &json)
        }
        json.put("]}")
    }

    /// The JSON of the record alone.
    package func jsonText() -> [UInt8] {
        JSONWriter.bytes(capacity: 1024) { write(into: &$0) }
    }
}

extension RelayRecord.Device {
    func write(into json: inout JSONWriter) {
        json.put(#"{"id":"#)
        json.putString(id)
        json.put(#","transport":"#)
        json.putString(transport.rawValue)
        json.put(#","token":"#)
        json.putString(token)
        json.putMember(#","topic":"#, topic)
        json.put(#","badge":"#)
        json.integerOrNull(badge.map { Int64($0) })
        json.put(#","attempt":"#)
        json.putInteger(attempt)
        json.put(#","next":"#)
        json.integerOrNull(nextMilliseconds)
        json.put(#","outbox":["#)
        for (position, entry) in outbox.enumerated() {
            if position > 0 { json.put(",") }
            json.put(#"{"stamp":"#)
            json.putInteger(entry.stamp)
            json.put(entry.kind == .alert ? #","kind":"alert","group":"# : #","kind":"withdrawal","group":"#)
            json.putString(entry.group)
            json.put(entry.fallback ? #","fallback":true,"end":"# : #","fallback":false,"end":"#)
            json.putInteger(entry.endSeconds)
            json.put(#","headers":"#)
            json.put(entry.headers)
            json.put(#","payload":"#)
            json.put(entry.payload)
            json.put("}")
        }
        json.put("]}")
    }
}
