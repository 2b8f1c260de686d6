/// The withdrawal payloads of push.md P21: `withdraw` and the badge, for
/// each transport, ready to send. They are small and never cut: a request
/// names at most 16 groups of at most 64 bytes.
extension PushAnswer {
    /// A withdrawal lives a day, whatever `maxAgeSeconds` is: it must outlive the alert it takes back.
    package static let withdrawalLifetimeSeconds: Int64 = 86_400

    /// P21's `apns-expiration`: ⌊now⌋ + a day, 0 when negative (as P7).
    package var withdrawalExpirationSeconds: Int64 { max(nowSeconds + Self.withdrawalLifetimeSeconds, 0) }

    /// The APNs headers of the withdrawal, in order (P21): no collapse id,
    /// which would replace the alert.
    package var withdrawalAPNsHeaders: [(name: String, value: String)] {
        [
            ("apns-push-type", "background"), ("apns-priority", "5"),
            ("apns-expiration", String(withdrawalExpirationSeconds)),
        ]
    }

    /// The Web Push headers of the withdrawal, in order (P21): no `Topic`,
    /// so a later withdrawal never replaces a pending earlier one.
    package var withdrawalWebPushHeaders: [(name: String, value: String)] {
        [("TTL", String(Self.withdrawalLifetimeSeconds)), ("Urgency", "normal")]
    }

    /// The JSON of `transport`'s withdrawal payload as sent: compact, raw UTF-8.
    package func withdrawalJSON(_ transport: Transport) -> [UInt8] {
        JSONWriter.bytes(capacity: withdrawalEstimate) { writeWithdrawalPayload(transport, to: &$0) }
    }

    /// The bytes of the withdrawal payloads when the group keys need no escape (valid ones never do).
    var withdrawalEstimate: Int {
        var count = 120
        for group in withdraw { count += 3 + group.utf8.count }
        return count
    }

    /// Writes `transport`'s withdrawal payload (P21, members in the spec's order).
    func writeWithdrawalPayload(_ transport: Transport, to out: inout JSONWriter) {
        switch transport {
        case .apns:
            out.raw(#"{"aps":{"content-available":1},"withdraw":"#)
            writeGroupArray(to: &out)
            out.raw(#","sentAt":"#)
            out.integer(Int(sentAtMilliseconds))
            if let badge {
                out.raw(#","badge":"#)
                out.integer(badge)
            }
            out.raw("}")
        case .fcm:
            out.raw(#"{"data":{"withdraw":""#)
            for (index, group) in withdraw.enumerated() {
                if index > 0 { out.raw(" ") }
                var group = group
                group.withUTF8 { out.escaped($0) }
            }
            out.raw(#"","sentAt":""#)
            out.integer(Int(sentAtMilliseconds))
            if let badge {
                out.raw(#"","badge":""#)
                out.integer(badge)
            }
            out.raw(#""},"android":{"priority":"normal","ttl":"86400s"}}"#)
        case .webpush:
            out.raw(#"{"withdraw":"#)
            writeGroupArray(to: &out)
            out.raw(#","sentAt":"#)
            out.integer(Int(sentAtMilliseconds))
            if let badge {
                out.raw(#","appBadge":"#)
                out.integer(badge)
            }
            out.raw("}")
        }
    }

    private func writeGroupArray(to out: inout JSONWriter) {
        out.raw("[")
        for (index, group) in withdraw.enumerated() {
            if index > 0 { out.raw(",") }
            out.string(group)
        }
        out.raw("]")
    }

    /// The `withdrawal` member's value: `{"apns":{"headers","payload"},"fcm":{"message"},"webpush":{"headers","payload"}}`.
    func writeWithdrawal(to out: inout JSONWriter) {
        out.raw(#"{"apns":{"headers":{"apns-push-type":"background","apns-priority":"5","apns-expiration":""#)
        out.integer(Int(withdrawalExpirationSeconds))
        out.raw(#""},"payload":"#)
        writeWithdrawalPayload(.apns, to: &out)
        out.raw(#"},"fcm":{"message":"#)
        writeWithdrawalPayload(.fcm, to: &out)
        out.raw(#"},"webpush":{"headers":{"TTL":"86400","Urgency":"normal"},"payload":"#)
        writeWithdrawalPayload(.webpush, to: &out)
        out.raw("}}")
    }
}
