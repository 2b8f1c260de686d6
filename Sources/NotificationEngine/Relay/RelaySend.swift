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
        let topic = device.topic ?? ""
        switch device.transport {
        case .apns:
            headers = JSONWriter.bytes(capacity: 256) { json in
                headerTape?.writeObject(
                    JSONTape.root, into: &json,
                    appending: { json in
                        json.raw(#""apns-topic":"#)
                        json.string(topic)
                    })
            }
            let isAlert = entry.kind == .alert
            body = JSONWriter.bytes(capacity: entry.payload.count + 32) { json in
                payloadTape?.writeObject(
                    JSONTape.root, into: &json,
                    replacing: { tape, name, value, json in
                        guard isAlert, tape.isName(name, "aps"), tape.kind(value) == .object else { return false }
                        tape.writeObject(value, into: &json, appending: { $0.raw(#""mutable-content":1"#) })
                        return true
                    })
            }
        case .fcm:
            headers = Array("{}".utf8)
            let token = device.token
            body = JSONWriter.bytes(capacity: entry.payload.count + token.utf8.count + 32) { json in
                json.raw(#"{"message":"#)
                payloadTape?.writeObject(
                    JSONTape.root, into: &json,
                    replacing: { tape, name, value, json in
                        guard tape.isName(name, "android"), tape.kind(value) == .object else { return false }
                        tape.writeObject(
                            value, into: &json,
                            replacing: { tape, name, _, json in
                                guard tape.isName(name, "ttl") else { return false }
                                json.raw(#"""#)
                                json.integer(left)
                                json.raw(#"s""#)
                                return true
                            })
                        return true
                    },
                    appending: { json in
                        json.raw(#""token":"#)
                        json.string(token)
                    })
                json.raw("}")
            }
        case .webpush:
            headers = JSONWriter.bytes(capacity: 128) { json in
                headerTape?.writeObject(
                    JSONTape.root, into: &json,
                    replacing: { tape, name, _, json in
                        guard tape.isName(name, "TTL") else { return false }
                        json.raw(#"""#)
                        json.integer(left)
                        json.raw(#"""#)
                        return true
                    })
            }
            body = payloadTape?.jsonText(JSONTape.root) ?? entry.payload
        }
    }

    func write(into json: inout JSONWriter) {
        json.raw(#"{"device":"#)
        json.string(device)
        json.raw(#","transport":"#)
        json.string(transport.rawValue)
        json.raw(#","stamp":"#)
        json.integer(stamp)
        json.raw(#","token":"#)
        json.string(token)
        json.raw(#","headers":"#)
        headers.withUnsafeBufferPointer { json.raw($0) }
        json.raw(#","body":"#)
        body.withUnsafeBufferPointer { json.string($0) }
        json.raw("}")
    }
}

extension JSONTape {
    /// Writes the object at `index` as `writeValue` does, except the members
    /// whose value `replacing` writes itself (it returns true), then the
    /// members `appending` writes, if any, last.
    func writeObject(
        _ index: Int, into json: inout JSONWriter,
        replacing: (JSONTape, _ name: Int, _ value: Int, inout JSONWriter) -> Bool = { _, _, _, _ in false },
        appending: ((inout JSONWriter) -> Void)? = nil
    ) {
        json.raw("{")
        var first = true
        for (name, value) in members(index) {
            if !first { json.raw(",") }
            first = false
            withStringBytes(name) { json.string($0) }
            json.raw(":")
            if !replacing(self, name, value, &json) { writeValue(value, into: &json) }
        }
        if let appending {
            if !first { json.raw(",") }
            appending(&json)
        }
        json.raw("}")
    }
}
