/// One request for the relay to make: an outbox's first payload with what
/// its transport needs (docs/relay.md step 7), the body's exact bytes
/// written by push.md P19 and P20. The relay adds only its authorization
/// (APNs JWT, FCM OAuth token, VAPID) and, for Web Push, the encryption.
package struct RelaySend: Sendable {
    package var device: String
    package var transport: RelayRecord.Transport
    package var stamp: Int64
    package var token: String
    /// A JSON object of header names and string values.
    package var headers: [UInt8]
    /// The body's bytes, written into the answer as a JSON string.
    package var body: [UInt8]

    /// The send of `entry` to `device` at `nowSeconds` (Unix seconds, floored):
    /// - APNs: the payload's headers and `apns-topic`; the body with
    ///   `"mutable-content":1` last in `aps` for an alert (screen.md
    ///   section 6: the notification service extension applies the stamps);
    ///   `apns-expiration` is absolute and unchanged.
    /// - FCM: `{"message": message + {"token"}}` with `android.ttl` rewritten
    ///   to what is left of the lifetime.
    /// - Web Push: the headers with `TTL` rewritten; the payload in plain text.
    init(device: RelayRecord.Device, entry: RelayRecord.OutboxEntry, nowSeconds: Int64) {
        self.device = device.id
        transport = device.transport
        stamp = entry.stamp
        token = device.token
        let left = max(entry.endSeconds - nowSeconds, 0)
        // The core wrote these texts, or checked them as objects: they parse.
        let headerTape = try? JSONParser.tape(entry.headers)
        let payloadTape = try? JSONParser.tape(entry.payload)
        let root = JSONTape.root
        switch device.transport {
        case .apns:
            headers = Self.edited(headerTape, root, appending: Self.member("apns-topic", device.topic ?? ""))
            body = payloadTape?.jsonText(root) ?? entry.payload
            if entry.kind == .alert, let tape = payloadTape, let aps = tape.member(root, "aps"),
                tape.kind(aps) == .object
            {
                let alertAps = Self.edited(tape, aps, appending: Array(#""mutable-content":1"#.utf8))
                body = Self.edited(tape, root, replacing: "aps", with: alertAps)
            }
        case .fcm:
            headers = Array("{}".utf8)
            var android: [UInt8]? = nil
            if let tape = payloadTape, let value = tape.member(root, "android"), tape.kind(value) == .object {
                android = Self.edited(tape, value, replacing: "ttl", with: Self.quoted(left, suffix: "s"))
            }
            let message = Self.edited(
                payloadTape, root, replacing: "android", with: android, appending: Self.member("token", device.token))
            body = Array(#"{"message":"#.utf8) + message + Array("}".utf8)
        case .webpush:
            headers = Self.edited(headerTape, root, replacing: "TTL", with: Self.quoted(left, suffix: ""))
            body = payloadTape?.jsonText(root) ?? entry.payload
        }
    }

    /// The object at `index` of `tape` (`{}` without one) as compact JSON,
    /// the member `name`'s value replaced by the JSON `replacement` when
    /// there is one, and the member `appending` (`"name":value`) added last.
    @inline(never)
    static func edited(
        _ tape: JSONTape?, _ index: Int, replacing name: StaticString = "", with replacement: [UInt8]? = nil,
        appending: [UInt8]? = nil
    ) -> [UInt8] {
        JSONWriter.bytes(capacity: (tape?.bytes.count ?? 0) + (appending?.count ?? 0) + 16) { json in
            json.put("{")
            var first = true
            if let tape {
                for (member, value) in tape.members(index) {
                    if !first { json.put(",") }
                    first = false
                    tape.withStringBytes(member) { json.putString($0) }
                    json.put(":")
                    if let replacement, tape.isName(member, name) {
                        json.put(replacement)
                    } else {
                        tape.writeValue(value, into: &json)
                    }
                }
            }
            if let appending {
                if !first { json.put(",") }
                json.put(appending)
            }
            json.put("}")
        }
    }

    /// `"name":"value"`.
    static func member(_ name: String, _ value: String) -> [UInt8] {
        JSONWriter.bytes(capacity: name.utf8.count + value.utf8.count + 8) { json in
            json.putString(name)
            json.put(":")
            json.putString(value)
        }
    }

    /// `seconds` in decimal digits, then `suffix`, quoted: a lifetime as FCM and Web Push write it.
    static func quoted(_ seconds: Int64, suffix: StaticString) -> [UInt8] {
        JSONWriter.bytes(capacity: 24) { json in
            json.put(#"""#)
            json.putInteger(seconds)
            json.put(suffix)
            json.put(#"""#)
        }
    }

    func write(into json: inout JSONWriter) {
        json.put(#"{"device":"#)
        json.putString(device)
        json.put(#","transport":"#)
        json.putString(transport.rawValue)
        json.put(#","stamp":"#)
        json.putInteger(stamp)
        json.put(#","token":"#)
        json.putString(token)
        json.put(#","headers":"#)
        json.put(headers)
        json.put(#","body":"#)
        json.putString(body)
        json.put("}")
    }
}
