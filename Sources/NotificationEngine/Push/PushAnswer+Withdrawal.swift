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
        withNumbers { numbers in
            JSONWriter.bytes(capacity: withdrawalEstimate) { writeWithdrawalPayload(transport, numbers, to: &$0) }
        }
    }

    /// The bytes of the withdrawal payloads when the group keys need no escape (valid ones never do).
    var withdrawalEstimate: Int {
        var count = 120
        for group in withdraw { count += 3 + group.utf8.count }
        return count
    }

    /// The decimal digits the withdrawal payloads write: `stamp`, the APNs
    /// expiration and the badge (nil when absent). Valid only inside `withNumbers`.
    struct Numbers {
        var stamp: UnsafeBufferPointer<UInt8>
        var expiration: UnsafeBufferPointer<UInt8>
        var badge: UnsafeBufferPointer<UInt8>?
    }

    /// Calls `body` with the numbers' digits, each written once (the three
    /// payloads repeat `stamp` and the badge).
    func withNumbers<Result>(_ body: (Numbers) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
            let stampStart = JSONWriter.decimal(stamp, into: buffer, end: 21)
            let expirationStart = JSONWriter.decimal(withdrawalExpirationSeconds, into: buffer, end: 42)
            let badgeStart = badge.map { JSONWriter.decimal(Int64($0), into: buffer, end: 63) }
            let digits = UnsafeBufferPointer(buffer)
            return body(
                Numbers(
                    stamp: UnsafeBufferPointer(rebasing: digits[stampStart..<21]),
                    expiration: UnsafeBufferPointer(rebasing: digits[expirationStart..<42]),
                    badge: badgeStart.map { UnsafeBufferPointer(rebasing: digits[$0..<63]) }))
        }
    }

    /// Writes `transport`'s withdrawal payload (P21, members in the spec's order).
    func writeWithdrawalPayload(_ transport: Transport, _ numbers: Numbers, to out: inout JSONWriter) {
        Self.writeWithdrawalPayload(transport, numbers, withdraw: withdraw, to: &out)
    }

    /// `writeWithdrawalPayload(_:_:to:)` of an answer withdrawing `withdraw`.
    static func writeWithdrawalPayload(
        _ transport: Transport, _ numbers: Numbers, withdraw: [String], to out: inout JSONWriter
    ) {
        // Nearly always nothing is withdrawn: then the literal before `stamp` is one piece.
        let empty = withdraw.isEmpty
        switch transport {
        case .apns:
            if empty {
                out.raw(#"{"aps":{"content-available":1},"withdraw":[],"stamp":"#)
            } else {
                out.raw(#"{"aps":{"content-available":1},"withdraw":"#)
                writeGroupArray(withdraw, to: &out)
                out.raw(#","stamp":"#)
            }
            out.raw(numbers.stamp)
            if let badge = numbers.badge {
                out.raw(#","badge":"#)
                out.raw(badge)
            }
            out.raw("}")
        case .fcm:
            if empty {
                out.raw(#"{"data":{"withdraw":"","stamp":""#)
            } else {
                out.raw(#"{"data":{"withdraw":""#)
                for (index, group) in withdraw.enumerated() {
                    if index > 0 { out.raw(" ") }
                    var group = group
                    group.withUTF8 { out.escaped($0) }
                }
                out.raw(#"","stamp":""#)
            }
            out.raw(numbers.stamp)
            if let badge = numbers.badge {
                out.raw(#"","badge":""#)
                out.raw(badge)
            }
            out.raw(#""},"android":{"priority":"normal","ttl":"86400s"}}"#)
        case .webpush:
            if empty {
                out.raw(#"{"withdraw":[],"stamp":"#)
            } else {
                out.raw(#"{"withdraw":"#)
                writeGroupArray(withdraw, to: &out)
                out.raw(#","stamp":"#)
            }
            out.raw(numbers.stamp)
            if let badge = numbers.badge {
                out.raw(#","appBadge":"#)
                out.raw(badge)
            }
            out.raw("}")
        }
    }

    private static func writeGroupArray(_ withdraw: [String], to out: inout JSONWriter) {
        out.raw("[")
        for (index, group) in withdraw.enumerated() {
            if index > 0 { out.raw(",") }
            out.string(group)
        }
        out.raw("]")
    }

    /// From the end of the Web Push payload to the name of `cut` (`write(to:)`):
    /// the `withdrawal` member, `{"apns":{"headers","payload"},"fcm":{"message"},"webpush":{"headers","payload"}}`.
    func writeWithdrawal(to out: inout JSONWriter) {
        // The closure captures what it writes, not the answer (which it would copy).
        let withdraw = withdraw
        withNumbers { numbers in
            out.raw(
                #"},"withdrawal":{"apns":{"headers":{"apns-push-type":"background","apns-priority":"5","apns-expiration":""#
            )
            out.raw(numbers.expiration)
            out.raw(#""},"payload":"#)
            Self.writeWithdrawalPayload(.apns, numbers, withdraw: withdraw, to: &out)
            out.raw(#"},"fcm":{"message":"#)
            Self.writeWithdrawalPayload(.fcm, numbers, withdraw: withdraw, to: &out)
            out.raw(#"},"webpush":{"headers":{"TTL":"86400","Urgency":"normal"},"payload":"#)
            Self.writeWithdrawalPayload(.webpush, numbers, withdraw: withdraw, to: &out)
            out.raw(#"}},"cut":{"apns":"#)
        }
    }
}
