import Foundation
import Testing

@testable import NotificationEngine

/// `loop` (docs/relay.md steps 4 to 7): the compose from the record, the
/// plan into the outboxes, the stored record and the sends.
@Suite struct RelayLoopTests {
    typealias Call = RelayCall

    static func loop(
        _ record: [String: Any], notifications: [[String: Any]]? = nil, unread: Int? = nil, fetch: String = "ok",
        now: String = Call.noon, jitter: Double = 0
    ) -> [String: Any] {
        var request: [String: Any] = ["do": "loop", "record": record, "now": now, "fetch": fetch, "jitter": jitter]
        if let notifications { request["notifications"] = notifications }
        if let unread { request["unread"] = unread }
        return Call.answer(request)
    }

    /// The relay's answer as text, and the part of it after `marker`.
    static func raw(_ request: [String: Any]) -> String {
        let bytes = [UInt8](try! JSONSerialization.data(withJSONObject: request))
        let answer =
            (try? RequestAnswers.relay(request: bytes, appName: "Chat", catalogs: .builtIn, kept: KeptShapes())) ?? []
        return String(decoding: answer, as: UTF8.self)
    }

    /// The text between the first `start` after `from` and the next `end`.
    static func between(_ text: String, _ start: String, _ end: String, from: String = #","answer":"#) -> String {
        guard let origin = text.range(of: from),
            let open = text.range(of: start, range: origin.upperBound..<text.endIndex),
            let close = text.range(of: end, range: open.upperBound..<text.endIndex)
        else { return "" }
        return String(text[open.upperBound..<close.lowerBound])
    }

    static var threeDevices: [String: Any] {
        Call.record(devices: [Call.apnsDevice(), Call.fcmDevice(), Call.webDevice()])
    }

    @Test func loop_firstMessage_alertsEveryDevice_withStampNowAndTheAnswersPayloads() {
        let request: [String: Any] = [
            "do": "loop", "record": Self.threeDevices, "now": Call.noon, "fetch": "ok",
            "notifications": [Call.message("1")], "unread": 1, "jitter": 0,
        ]
        let text = Self.raw(request)
        let answer = try! JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        let record = answer[object: "record"]
        #expect(record[int: "stamp"] == Call.noonMilliseconds)
        #expect(record.isNull("due"))
        #expect(record[array: "displayed"].map { $0[string: "key"] } == ["chat:1"])
        #expect(answer[object: "answer"][object: "push"][int: "stamp"] == Call.noonMilliseconds)
        #expect(answer[object: "answer"][object: "push"]["send"] as? Bool == true)
        for id in ["phone", "android", "laptop"] {
            let device = record.device(id)
            #expect(device[int: "badge"] == 1, "\(id)")
            #expect(device[array: "outbox"].map { $0[string: "kind"] } == ["alert"], "\(id)")
            #expect(device[array: "outbox"].first?[int: "stamp"] == Call.noonMilliseconds, "\(id)")
            #expect(device[array: "outbox"].first?[string: "group"] == "t1", "\(id)")
        }
        // Lifetimes: APNs' expiration itself, the others ⌊now⌋ + TTL (60 s old of 600: 540 s).
        let noonSeconds = Call.noonMilliseconds / 1000
        #expect(record.device("phone")[array: "outbox"].first?[int: "end"] == noonSeconds + 540)
        #expect(record.device("android")[array: "outbox"].first?[int: "end"] == noonSeconds + 540)
        #expect(record.device("laptop")[array: "outbox"].first?[int: "end"] == noonSeconds + 540)
        #expect(answer[array: "sends"].map { $0[string: "device"] } == ["phone", "android", "laptop"])
        #expect(answer.isNull("wakeAt"))

        let sends = answer[array: "sends"]
        // APNs: the payload as the answer wrote it, `"mutable-content":1` added in `aps`; `apns-topic`.
        let apnsPayload = Self.between(text, #""apns":{"headers":"#, #"},"fcm":"#)
            .components(separatedBy: #","payload":"#).last!
        let apnsBody = sends[0][string: "body"]!
        #expect(apnsBody.replacingOccurrences(of: #","mutable-content":1"#, with: "") == apnsPayload)
        #expect((sends[0].bodyObject[object: "aps"]["mutable-content"] as? Int) == 1)
        #expect(sends[0][object: "headers"][string: "apns-topic"] == "chat.example.app")
        #expect(sends[0][object: "headers"][string: "apns-collapse-id"] == "t1")
        #expect(sends[0][string: "token"] == Call.apnsToken)
        // FCM: {"message": message + token}, ttl as answered at the compose's now.
        let message = Self.between(text, #""fcm":{"message":"#, #"},"webpush":"#)
        #expect(
            sends[1][string: "body"] == #"{"message":"# + message.dropLast() + #","token":""# + Call.fcmToken + #""}}"#)
        #expect(sends[1].bodyObject[object: "message"][object: "android"][string: "ttl"] == "540s")
        // Web Push: the payload in plain text, the headers with TTL.
        let webPayload = Self.between(text, #""webpush":{"headers":"#, #"},"withdrawal":"#)
            .components(separatedBy: #","payload":"#).last!
        #expect(sends[2][string: "body"] == webPayload)
        #expect(sends[2][object: "headers"][string: "TTL"] == "540")
    }

    @Test func loop_stamp_isTheStoredStampPlusOne_whenItIsAheadOfNow() {
        let ahead = Call.noonMilliseconds + 5_000
        let answer = Self.loop(
            Call.record(devices: [Call.webDevice()], stamp: ahead), notifications: [Call.message("1")], unread: 1)
        #expect(answer[object: "record"][int: "stamp"] == ahead + 1)
        #expect(answer[array: "sends"].first?.bodyObject[int: "stamp"] == ahead + 1)
    }

    @Test func loop_stamp_isNow_whenTheStoredStampIsOlder() {
        let answer = Self.loop(
            Call.record(devices: [Call.webDevice()], stamp: 42), notifications: [Call.message("1")], unread: 1)
        #expect(answer[object: "record"][int: "stamp"] == Call.noonMilliseconds)
    }

    @Test func loop_reserveBytes_isTheLargestDevicesNeed() {
        // FCM: the token's length + 11; APNs: 20. The answer's payloads fit within 4096 − reserve.
        let long = String(repeating: "k", count: 163)
        var fcm = Call.fcmDevice()
        fcm["token"] = long
        let answer = Self.loop(
            Call.record(devices: [Call.apnsDevice(), fcm]), notifications: [Call.message("1")], unread: 1)
        let body = answer[array: "sends"].first { $0[string: "device"] == "android" }?[string: "body"] ?? ""
        #expect(body.utf8.count <= 4096)
        #expect(body.hasSuffix(#","token":""# + long + #""}}"#))
    }

    /// The same notifications again: `send` false; a badge that differs from
    /// the device's goes in a withdrawal, but not to Web Push.
    @Test func loop_badgeOnlyChange_sendsAWithdrawal_butNotToWebPush() {
        let first = Self.loop(
            Call.record(devices: [Call.apnsDevice(), Call.webDevice()]), notifications: [Call.message("1")], unread: 1)
        var record = first[object: "record"]
        record["devices"] = [Call.apnsDevice(badge: 1), Call.webDevice(badge: 1)]
        let second = Self.loop(record, notifications: [Call.message("1")], unread: 4, now: "2026-11-29T12:00:01Z")
        #expect(second[object: "answer"][object: "push"]["send"] as? Bool == false)
        let next = second[object: "record"]
        #expect(next.device("phone")[array: "outbox"].map { $0[string: "kind"] } == ["withdrawal"])
        #expect(next.device("phone")[int: "badge"] == 4)
        #expect(next.device("laptop")[array: "outbox"].isEmpty)
        #expect(next.device("laptop")[int: "badge"] == 1)
        // APNs: no mutable-content in a withdrawal (a background push).
        let send = second[array: "sends"].first { $0[string: "device"] == "phone" } ?? [:]
        #expect(send.bodyObject[object: "aps"]["mutable-content"] == nil)
        #expect(send.bodyObject[int: "badge"] == 4)
        // The same badge again: nothing.
        var third = next
        third["devices"] = [Call.apnsDevice(badge: 4)]
        let unchanged = Self.loop(third, notifications: [Call.message("1")], unread: 4, now: "2026-11-29T12:00:02Z")
        #expect(unchanged[object: "record"].device("phone")[array: "outbox"].isEmpty)
        #expect(unchanged[array: "sends"].isEmpty)
    }

    /// Everything read: a withdrawal of `t1` (and badge 0) to APNs and FCM, none to Web Push.
    @Test func loop_everythingRead_withdrawsFromAPNsAndFCM_notWebPush() {
        let first = Self.loop(Self.threeDevices, notifications: [Call.message("1")], unread: 1)
        var read = Call.message("1")
        read["read"] = true
        var record = first[object: "record"]
        record["devices"] = [Call.apnsDevice(badge: 1), Call.fcmDevice(badge: 1), Call.webDevice(badge: 1)]
        let second = Self.loop(record, notifications: [read], unread: 0, now: "2026-11-29T12:00:01Z")
        #expect(second[object: "answer"][object: "push"]["withdraw"] as? [String] == ["t1"])
        let next = second[object: "record"]
        #expect(next.device("phone")[array: "outbox"].map { $0[string: "kind"] } == ["withdrawal"])
        #expect(next.device("android")[array: "outbox"].map { $0[string: "kind"] } == ["withdrawal"])
        #expect(next.device("laptop")[array: "outbox"].isEmpty)
        #expect(next.device("android")[int: "badge"] == 0)
    }

    /// A successful fetch's alert drops every older queued alert (not a
    /// withdrawal: it is what takes its groups off); a fallback drops only
    /// the queued alerts of its group.
    @Test func loop_supersession_successfulAlertDropsOlderAlerts_fallbackItsGroupOnly() {
        let end = Call.noonMilliseconds / 1000 + 300
        let queued = [
            Call.entry(stamp: 10, kind: "alert", group: "fallback", fallback: true, end: end),
            Call.entry(stamp: 11, kind: "withdrawal", group: "t9", end: end),
            Call.entry(stamp: 12, kind: "alert", group: "t9", end: end),
        ]
        var waiting = Call.apnsDevice(outbox: queued)
        waiting["next"] = Call.noonMilliseconds + 50_000
        waiting["attempt"] = 2
        let failed = Self.loop(Call.record(devices: [waiting]), fetch: "failed")
        let fallbackOutbox = failed[object: "record"].device("phone")[array: "outbox"]
        #expect(fallbackOutbox.map { $0[int: "stamp"] } == [11, 12, Call.noonMilliseconds])
        #expect(fallbackOutbox.last?[string: "group"] == "fallback")
        #expect(fallbackOutbox.last?["fallback"] as? Bool == true)
        // The device waits for its retry: nothing sent, woken at its next attempt.
        #expect(failed[array: "sends"].isEmpty)
        #expect(failed[int: "wakeAt"] == Call.noonMilliseconds)  // due: jitter 0

        let ok = Self.loop(Call.record(devices: [waiting]), notifications: [Call.message("1")], unread: 1)
        let okOutbox = ok[object: "record"].device("phone")[array: "outbox"]
        #expect(okOutbox.map { $0[int: "stamp"] } == [11, Call.noonMilliseconds])
        #expect(ok[int: "wakeAt"] == Call.noonMilliseconds + 50_000)
    }

    /// A newer alert of a group replaces a queued one of that group, even of a fallback answer.
    @Test func loop_alert_dropsQueuedAlertsOfItsGroup() {
        let end = Call.noonMilliseconds / 1000 + 300
        let queued = [
            Call.entry(stamp: 10, kind: "alert", group: "fallback", fallback: true, end: end),
            Call.entry(stamp: 11, kind: "alert", group: "t9", fallback: true, end: end),
        ]
        let answer = Self.loop(Call.record(devices: [Call.webDevice(outbox: queued)]), fetch: "timeout")
        #expect(
            answer[object: "record"].device("laptop")[array: "outbox"].map { $0[int: "stamp"] } == [
                11, Call.noonMilliseconds,
            ])
        // The outbox's first is sent, in stamp order.
        #expect(answer[array: "sends"].map { $0[int: "stamp"] } == [11])
    }

    /// A withdrawal drops the queued alerts of the groups it names and the
    /// queued withdrawals whose groups it names all, nothing else.
    @Test func loop_withdrawal_dropsWhatItNames_only() {
        let end = Call.noonMilliseconds / 1000 + 300
        let withdraw: (String) -> [String: Any] = { ["aps": ["content-available": 1], "withdraw": [$0], "stamp": 1] }
        let queued = [
            Call.entry(stamp: 10, kind: "alert", group: "t1", end: end),
            Call.entry(stamp: 11, kind: "withdrawal", group: "t5", end: end, payload: withdraw("t1")),
            Call.entry(stamp: 12, kind: "withdrawal", group: "t5", end: end, payload: withdraw("t2")),
            Call.entry(stamp: 13, kind: "alert", group: "t2", end: end),
        ]
        var device = Call.apnsDevice(badge: 0, outbox: queued)
        device["next"] = Call.noonMilliseconds + 50_000
        let displayed: [[String: Any]] = [["key": "chat:1", "timestamp": "2026-11-29T11:59:00Z", "group": "t1"]]
        var read = Call.message("1")
        read["read"] = true
        let answer = Self.loop(Call.record(devices: [device], displayed: displayed), notifications: [read], unread: 0)
        #expect(answer[object: "answer"][object: "push"]["withdraw"] as? [String] == ["t1"])
        let outbox = answer[object: "record"].device("phone")[array: "outbox"]
        #expect(outbox.map { $0[int: "stamp"] } == [12, 13, Call.noonMilliseconds])
        #expect(outbox.last?[string: "kind"] == "withdrawal")
    }

    @Test func loop_failedFetch_backsOffWithFullJitter_andKeepsRefresh() {
        let record = Call.record(devices: [], refresh: true)
        let none = Self.loop(record, fetch: "failed", jitter: 0)
        #expect(none[object: "record"][object: "due"][int: "at"] == Call.noonMilliseconds)
        #expect(none[object: "record"][object: "due"][int: "attempt"] == 1)
        #expect(none[object: "record"]["refresh"] as? Bool == true)
        let full = Self.loop(record, fetch: "failed", jitter: 1)
        #expect(full[object: "record"][object: "due"][int: "at"] == Call.noonMilliseconds + 1_000)
        let second = Self.loop(full[object: "record"], fetch: "timeout", jitter: 1)
        #expect(second[object: "record"][object: "due"][int: "at"] == Call.noonMilliseconds + 2_000)
        #expect(second[object: "record"][object: "due"][int: "attempt"] == 2)
        var many = record
        many["due"] = ["at": Call.noonMilliseconds, "attempt": 9]
        let capped = Self.loop(many, fetch: "failed", jitter: 1)
        #expect(capped[object: "record"][object: "due"][int: "at"] == Call.noonMilliseconds + 60_000)
        #expect(capped[int: "wakeAt"] == Call.noonMilliseconds + 60_000)
    }

    /// With refresh, an answer that keeps what is shown still goes, quietly;
    /// the successful fetch clears refresh and due.
    @Test func loop_refresh_sendsTheKeptNotificationAgain_thenClearsRefresh() {
        let first = Self.loop(Call.record(devices: [Call.webDevice()]), notifications: [Call.message("1")], unread: 1)
        var record = first[object: "record"]
        record["refresh"] = true
        record["devices"] = [Call.webDevice(badge: 1)]
        record["due"] = ["at": Call.noonMilliseconds, "attempt": 0]
        let again = Self.loop(record, notifications: [Call.message("1")], unread: 1, now: "2026-11-29T12:00:01Z")
        #expect(again[object: "answer"][object: "push"]["send"] as? Bool == false)
        #expect(again[object: "record"].device("laptop")[array: "outbox"].map { $0[string: "kind"] } == ["alert"])
        #expect(again[object: "record"]["refresh"] as? Bool == false)
        #expect(again[object: "record"].isNull("due"))
    }

    @Test func gaveUp_setsDueWithTheBackoff() {
        let answer = Call.answer([
            "do": "gave-up", "record": Call.record(devices: [], due: ["at": 5, "attempt": 1]), "now": Call.noon,
            "jitter": 0.5,
        ])
        #expect(answer[object: "record"][object: "due"][int: "at"] == Call.noonMilliseconds + 1_000)
        #expect(answer[object: "record"][object: "due"][int: "attempt"] == 2)
        #expect(answer[int: "wakeAt"] == Call.noonMilliseconds + 1_000)
    }
}
