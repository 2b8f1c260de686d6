/// What the loop reads of a compose answer (the engine's own bytes, so it
/// parses): what it sends, and each transport's payloads as outbox entries.
struct ComposedAnswer {
    /// The answer's `displayed`, as written.
    var displayed: [UInt8] = Array("[]".utf8)
    var shownCount = 0
    var fallback = false
    var send = false
    /// `push.heldUntil` in Unix milliseconds (compose.md S6); nil when the answer is not held.
    var heldUntilMilliseconds: Int64? = nil
    var group = ""
    var stamp: Int64 = 0
    var withdrawCount = 0
    private var alerts: [RelayRecord.OutboxEntry] = []
    private var withdrawals: [RelayRecord.OutboxEntry] = []

    /// Reads `bytes` (a compose answer with `push`), with the compose's `now`
    /// in whole seconds, from which FCM and Web Push lifetimes count.
    init(_ bytes: [UInt8], nowSeconds: Int64) {
        guard let tape = try? JSONParser.tape(bytes) else { return }
        let root = JSONTape.root
        if let displayed = tape.member(root, "displayed") { self.displayed = tape.jsonText(displayed) }
        if let shown = tape.member(root, "shown"), tape.kind(shown) == .array { shownCount = tape.count(shown) }
        if let kind = tape.member(root, "kind"), tape.kind(kind) == .string { fallback = tape.isName(kind, "fallback") }
        guard let push = tape.member(root, "push") else { return }
        send = tape.member(push, "send").map { tape.kind($0) == .true } ?? false
        if let held = tape.member(push, "heldUntil"), tape.kind(held) == .string,
            let instant = Timestamp(rfc3339: tape.string(held))?.instant
        {
            heldUntilMilliseconds = instant.epochSeconds * 1000 + Int64(instant.nanoseconds / 1_000_000)
        }
        if let group = tape.member(push, "group"), tape.kind(group) == .string { self.group = tape.string(group) }
        if let stamp = tape.member(push, "stamp") { self.stamp = tape.integer64Value(stamp) ?? 0 }
        if let withdraw = tape.member(push, "withdraw"), tape.kind(withdraw) == .array {
            withdrawCount = tape.count(withdraw)
        }
        alerts = entries(tape, push, kind: .alert, nowSeconds: nowSeconds)
        if let withdrawal = tape.member(push, "withdrawal") {
            withdrawals = entries(tape, withdrawal, kind: .withdrawal, nowSeconds: nowSeconds)
        }
    }

    /// Whether the answer had `push` (the loop always asks for it).
    var hasPush: Bool { alerts.count == 3 && withdrawals.count == 3 }

    /// The alert payload for `transport`.
    func alert(for transport: RelayRecord.Transport) -> RelayRecord.OutboxEntry {
        alerts[Self.position(transport)]
    }

    /// The withdrawal payload for `transport`.
    func withdrawal(for transport: RelayRecord.Transport) -> RelayRecord.OutboxEntry {
        withdrawals[Self.position(transport)]
    }

    private static func position(_ transport: RelayRecord.Transport) -> Int {
        switch transport {
        case .apns: 0
        case .fcm: 1
        case .webpush: 2
        }
    }

    /// The `apns`, `fcm` and `webpush` members of `object`, in that order.
    private func entries(_ tape: JSONTape, _ object: Int, kind: RelayRecord.EntryKind, nowSeconds: Int64)
        -> [RelayRecord.OutboxEntry]
    {
        func entry(headers: Int?, payload: Int?, end: Int64) -> RelayRecord.OutboxEntry {
            RelayRecord.OutboxEntry(
                stamp: stamp, kind: kind, group: group, fallback: fallback, endSeconds: end,
                headers: headers.map { tape.jsonText($0) } ?? Array("{}".utf8),
                payload: payload.map { tape.jsonText($0) } ?? Array("{}".utf8))
        }
        let apns = tape.member(object, "apns")
        let apnsHeaders = apns.flatMap { tape.member($0, "headers") }
        let expiration = apnsHeaders.flatMap { tape.member($0, "apns-expiration") }
        let fcmMessage = tape.member(object, "fcm").flatMap { tape.member($0, "message") }
        let ttl = fcmMessage.flatMap { tape.member($0, "android") }.flatMap { tape.member($0, "ttl") }
        let webpush = tape.member(object, "webpush")
        let webHeaders = webpush.flatMap { tape.member($0, "headers") }
        let webTTL = webHeaders.flatMap { tape.member($0, "TTL") }
        return [
            // APNs' `apns-expiration` is the end itself (relay.md, "Retries").
            entry(
                headers: apnsHeaders, payload: apns.flatMap { tape.member($0, "payload") },
                end: expiration.flatMap { Self.seconds(tape, $0) } ?? nowSeconds),
            entry(headers: nil, payload: fcmMessage, end: nowSeconds + (ttl.flatMap { Self.seconds(tape, $0) } ?? 0)),
            entry(
                headers: webHeaders, payload: webpush.flatMap { tape.member($0, "payload") },
                end: nowSeconds + (webTTL.flatMap { Self.seconds(tape, $0) } ?? 0)),
        ]
    }

    /// The whole seconds of a string of digits, with FCM's `s` after them or not.
    static func seconds(_ tape: JSONTape, _ index: Int) -> Int64? {
        guard tape.kind(index) == .string else { return nil }
        return tape.withStringBytes(index) { utf8 -> Int64? in
            var value: Int64 = 0
            var digits = 0
            for byte in utf8 {
                if byte == UInt8(ascii: "s") && digits > 0 { break }
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 18 else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
                digits += 1
            }
            return digits > 0 ? value : nil
        }
    }
}
