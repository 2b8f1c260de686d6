import Foundation
import Testing

@testable import NotificationEngine

/// `answer` and `wake` (docs/relay.md step 7, "Retries", "What each push
/// service answers"): the outcome, the outbox, the retry time, the lifetime.
@Suite struct RelayPushAnswerTests {
    typealias Call = RelayCall
    static let end = Call.noonMilliseconds / 1000 + 300

    static func answer(
        _ device: [String: Any], status: Int, reason: String? = nil, retryAfter: Int? = nil,
        tokenInvalid: Bool = false, jitter: Double = 0, stamp: Int64 = 10
    ) -> [String: Any] {
        Call.answer([
            "do": "answer", "record": Call.record(devices: [device, Call.webDevice("desk")]), "now": Call.noon,
            "device": device[string: "id"]!, "stamp": stamp, "status": status,
            "reason": reason.map { $0 as Any } ?? NSNull(), "retryAfter": retryAfter.map { $0 as Any } ?? NSNull(),
            "tokenInvalid": tokenInvalid, "jitter": jitter,
        ])
    }

    static var twoQueued: [[String: Any]] {
        [
            Call.entry(stamp: 10, end: end, headers: ["apns-push-type": "alert"], payload: ["aps": ["alert": "a"]]),
            Call.entry(stamp: 11, kind: "withdrawal", end: end, payload: ["aps": ["content-available": 1]]),
        ]
    }

    @Test func answer_accepted_removesThePayload_andSendsTheNext() {
        let result = Self.answer(Call.apnsDevice(outbox: Self.twoQueued), status: 200)
        #expect(result[string: "outcome"] == "accepted")
        let phone = result[object: "record"].device("phone")
        #expect(phone[array: "outbox"].map { $0[int: "stamp"] } == [11])
        #expect(phone[int: "attempt"] == 0)
        #expect(phone.isNull("next"))
        #expect(result[array: "sends"].map { $0[int: "stamp"] } == [11])
        #expect(result[array: "sends"].first?[string: "body"] == #"{"aps":{"content-available":1}}"#)
        #expect(result.isNull("wakeAt"))
    }

    @Test func answer_gone_removesTheDevice() {
        let result = Self.answer(Call.apnsDevice(outbox: Self.twoQueued), status: 410, reason: "Unregistered")
        #expect(result[string: "outcome"] == "gone")
        #expect(result[object: "record"][array: "devices"].map { $0[string: "id"] } == ["desk"])
        #expect(result[array: "sends"].isEmpty)
    }

    @Test func answer_bug_dropsThePayloadWithoutRetry() {
        let result = Self.answer(Call.apnsDevice(outbox: Self.twoQueued), status: 400, reason: "BadCollapseId")
        #expect(result[string: "outcome"] == "bug")
        #expect(result[object: "record"].device("phone")[array: "outbox"].map { $0[int: "stamp"] } == [11])
    }

    @Test func answer_transient_backsOffWithJitterZeroAndOne() {
        let none = Self.answer(Call.apnsDevice(outbox: Self.twoQueued), status: 503, jitter: 0)
        #expect(none[string: "outcome"] == "transient")
        #expect(none[object: "record"].device("phone")[int: "attempt"] == 1)
        #expect(none[object: "record"].device("phone")[int: "next"] == Call.noonMilliseconds)
        let full = Self.answer(Call.apnsDevice(outbox: Self.twoQueued), status: 0, jitter: 1)
        #expect(full[object: "record"].device("phone")[int: "next"] == Call.noonMilliseconds + 1_000)
        #expect(full[object: "record"].device("phone")[array: "outbox"].count == 2)
        #expect(full[array: "sends"].isEmpty)
        #expect(full[int: "wakeAt"] == Call.noonMilliseconds + 1_000)
        var third = Call.apnsDevice(outbox: Self.twoQueued)
        third["attempt"] = 2
        let doubled = Self.answer(third, status: 500, jitter: 1)
        #expect(doubled[object: "record"].device("phone")[int: "next"] == Call.noonMilliseconds + 4_000)
    }

    @Test func answer_retryAfter_winsOverTheBackoff() {
        let result = Self.answer(Call.webDevice(outbox: Self.twoQueued), status: 429, retryAfter: 120, jitter: 1)
        #expect(result[object: "record"].device("laptop")[int: "next"] == Call.noonMilliseconds + 120_000)
        let fcm = Self.answer(Call.fcmDevice(outbox: Self.twoQueued), status: 503, retryAfter: 7, jitter: 1)
        #expect(fcm[object: "record"].device("android")[int: "next"] == Call.noonMilliseconds + 7_000)
    }

    @Test func answer_429_waitsAtLeastItsTransportsFloor() {
        let apns = Self.answer(Call.apnsDevice(outbox: Self.twoQueued), status: 429, reason: "TooManyRequests")
        #expect(apns[object: "record"].device("phone")[int: "next"] == Call.noonMilliseconds + 60_000)
        let apnsShort = Self.answer(
            Call.apnsDevice(outbox: Self.twoQueued), status: 429, reason: "TooManyRequests", retryAfter: 5)
        #expect(apnsShort[object: "record"].device("phone")[int: "next"] == Call.noonMilliseconds + 60_000)
        let fcm = Self.answer(Call.fcmDevice(outbox: Self.twoQueued), status: 429, reason: "QUOTA_EXCEEDED")
        #expect(fcm[object: "record"].device("android")[int: "next"] == Call.noonMilliseconds + 60_000)
        let fcmTold = Self.answer(Call.fcmDevice(outbox: Self.twoQueued), status: 429, retryAfter: 5)
        #expect(fcmTold[object: "record"].device("android")[int: "next"] == Call.noonMilliseconds + 5_000)
    }

    @Test func answer_fcmInvalidArgument_isGoneOnlyWhenTheTokenIsNamed() {
        let token = Self.answer(Call.fcmDevice(outbox: Self.twoQueued), status: 400, tokenInvalid: true)
        #expect(token[string: "outcome"] == "gone")
        let message = Self.answer(Call.fcmDevice(outbox: Self.twoQueued), status: 400, reason: "INVALID_ARGUMENT")
        #expect(message[string: "outcome"] == "bug")
    }

    @Test(arguments: [
        (RelayRecord.Transport.apns, 200, "", "accepted"), (.apns, 400, "BadDeviceToken", "gone"),
        (.apns, 400, "PayloadEmpty", "bug"), (.apns, 403, "ExpiredProviderToken", "transient"),
        (.apns, 403, "Forbidden", "bug"), (.apns, 410, "Unregistered", "gone"), (.apns, 413, "", "bug"),
        (.apns, 429, "TooManyProviderTokenUpdates", "transient"), (.apns, 503, "Shutdown", "transient"),
        (.apns, 0, "", "transient"), (.fcm, 200, "", "accepted"), (.fcm, 404, "UNREGISTERED", "gone"),
        (.fcm, 403, "SENDER_ID_MISMATCH", "gone"), (.fcm, 401, "THIRD_PARTY_AUTH_ERROR", "bug"),
        (.fcm, 500, "INTERNAL", "transient"), (.webpush, 201, "", "accepted"), (.webpush, 404, "", "gone"),
        (.webpush, 410, "", "gone"), (.webpush, 413, "", "bug"), (.webpush, 400, "", "bug"),
        (.webpush, 403, "", "bug"), (.webpush, 429, "", "transient"), (.webpush, 502, "", "transient"),
    ])
    func classification_followsRelayMdsTables(_ row: (RelayRecord.Transport, Int, String, String)) {
        let answer = PushServiceAnswer(
            status: row.1, reason: row.2.isEmpty ? nil : row.2, retryAfterSeconds: nil, tokenInvalid: false)
        #expect(answer.outcome(on: row.0).name == row.3, "\(row)")
    }

    @Test func answer_forAnUnregisteredDevice_changesNothing() {
        let result = Call.answer([
            "do": "answer", "record": Call.record(devices: [Call.webDevice()]), "now": Call.noon, "device": "gone",
            "stamp": 1, "status": 200,
        ])
        #expect(result[string: "outcome"] == "gone")
        #expect(result[object: "record"][array: "devices"].count == 1)
    }

    // MARK: wake

    @Test func wake_dropsExpiredPayloads_anExpiredAlertSetsDueASecondAfterItsEnd() {
        let nowSeconds = Call.noonMilliseconds / 1000
        let outbox = [
            Call.entry(stamp: 1, kind: "withdrawal", end: nowSeconds - 100),
            Call.entry(stamp: 2, end: nowSeconds - 5),
            Call.entry(stamp: 3, kind: "alert", group: "t2", end: nowSeconds),
            Call.entry(stamp: 4, group: "t3", end: nowSeconds + 100, headers: ["TTL": "540"], payload: ["tag": "t3"]),
        ]
        let result = Call.answer([
            "do": "wake", "record": Call.record(devices: [Call.webDevice(outbox: outbox)]), "now": Call.noon,
        ])
        let record = result[object: "record"]
        #expect(record.device("laptop")[array: "outbox"].map { $0[int: "stamp"] } == [4])
        #expect(record[object: "due"][int: "at"] == (nowSeconds - 4) * 1000)
        #expect(result["loop"] as? Bool == true)
        // Web Push: TTL rewritten to what is left; the body as stored.
        let send = result[array: "sends"].first ?? [:]
        #expect(send[object: "headers"][string: "TTL"] == "100")
        #expect(send[string: "body"] == #"{"tag":"t3"}"#)
        #expect(result.isNull("wakeAt"))
    }

    @Test func wake_beforeDueAndRetry_sendsNothing_andSaysWhenToWake() {
        var waiting = Call.fcmDevice(outbox: [Call.entry(stamp: 4, end: Self.end)])
        waiting["next"] = Call.noonMilliseconds + 9_000
        let record = Call.record(devices: [waiting], due: ["at": Call.noonMilliseconds + 20_000, "attempt": 1])
        let result = Call.answer(["do": "wake", "record": record, "now": Call.noon])
        #expect(result[array: "sends"].isEmpty)
        #expect(result["loop"] as? Bool == false)
        #expect(result[int: "wakeAt"] == Call.noonMilliseconds + 9_000)
    }

    /// FCM: the token merged into the message, `android.ttl` rewritten, the rest byte for byte.
    @Test func wake_fcmRetry_mergesTheTokenAndRewritesTheTTL() {
        let message: [String: Any] = [
            "data": ["tag": "t1", "stamp": "4"], "android": ["collapse_key": "t1", "priority": "high", "ttl": "540s"],
        ]
        var device = Call.fcmDevice(outbox: [
            Call.entry(stamp: 4, end: Call.noonMilliseconds / 1000 + 77, payload: message)
        ])
        device["next"] = Call.noonMilliseconds
        device["attempt"] = 1
        let result = Call.answer(["do": "wake", "record": Call.record(devices: [device]), "now": Call.noon])
        let body = result[array: "sends"].first?[string: "body"] ?? ""
        #expect(body.contains(#""ttl":"77s""#))
        #expect(body.hasPrefix(#"{"message":{"#))
        #expect(body.hasSuffix(#","token":""# + Call.fcmToken + #""}}"#))
        #expect(result[array: "sends"].first?[object: "headers"].isEmpty == true)
    }

    /// A record a relay stored re-formatted (spaces, `\u` escapes) gives the engine's bytes.
    @Test func send_body_isCompactRawUTF8_whateverTheStoredSpelling() {
        let record = #"""
            {"recipient": "u1", "settings": {"locale": "en", "preview": "full"}, "devices": [
              {"id": "laptop", "transport": "webpush", "token": "https://push.example/sub/1",
               "outbox": [{"stamp": 4, "kind": "alert", "group": "t1", "fallback": false, "end": 1795953700,
                           "headers": {"TTL": "100"}, "payload": {"title": "Caf\u00e9 \u2028 \"q\"", "n": 0.6}}]}]}
            """#
        let body = #"{"do":"wake","record":\#(record),"now":"2026-11-29T12:00:00Z"}"#
        let answer = try! RequestAnswers.relay(
            request: Array(body.utf8), appName: "Chat", catalogs: .builtIn, kept: KeptShapes())
        let object = try! JSONSerialization.jsonObject(with: Data(answer)) as! [String: Any]
        #expect(object[array: "sends"].first?[string: "body"] == "{\"title\":\"Café \u{2028} \\\"q\\\"\",\"n\":0.6}")
    }
}
