import Foundation
import Testing

@testable import NotificationEngine

/// `event` (docs/relay.md, "Events"): `due` written first, `refresh` from a
/// settings change or a registration, devices added, replaced, removed.
@Suite struct RelayEventTests {
    typealias Call = RelayCall

    @Test func event_createdOnNoRecord_makesTheRecordWithDueNow() {
        let answer = Call.answer([
            "do": "event", "record": NSNull(), "now": Call.noon, "recipient": "u1",
            "settings": ["locale": "de", "preview": "sender", "androidChannel": "messages"],
            "event": ["type": "created"],
        ])
        let record = answer[object: "record"]
        #expect(record[string: "recipient"] == "u1")
        let settings = record[object: "settings"]
        #expect(settings[string: "locale"] == "de")
        #expect(settings[string: "preview"] == "sender")
        #expect(settings[string: "androidChannel"] == "messages")
        #expect(settings[int: "maxAgeSeconds"] == 600)
        #expect(settings[int: "maxUnits"] == 256)
        #expect(record[object: "due"][int: "at"] == Call.noonMilliseconds)
        #expect(record[object: "due"][int: "attempt"] == 0)
        #expect(record.isNull("stamp"))
        #expect(record["refresh"] as? Bool == false)
        #expect(record[array: "devices"].isEmpty)
    }

    @Test func event_read_keepsAnEarlierDueAndItsAttempts() {
        let earlier = Call.noonMilliseconds - 5_000
        let record = Call.record(devices: [], due: ["at": earlier, "attempt": 3])
        let answer = Call.answer(["do": "event", "record": record, "now": Call.noon, "event": ["type": "read"]])
        #expect(answer[object: "record"][object: "due"][int: "at"] == earlier)
        #expect(answer[object: "record"][object: "due"][int: "attempt"] == 3)
    }

    @Test func event_readAfterALaterDue_bringsDueToNow() {
        let record = Call.record(devices: [], due: ["at": Call.noonMilliseconds + 30_000, "attempt": 2])
        let answer = Call.answer(["do": "event", "record": record, "now": Call.noon, "event": ["type": "read"]])
        #expect(answer[object: "record"][object: "due"][int: "at"] == Call.noonMilliseconds)
        #expect(answer[object: "record"][object: "due"][int: "attempt"] == 2)
    }

    @Test func event_settings_changesThemAndSetsRefreshAndDue() {
        let record = Call.record(devices: [Call.apnsDevice()])
        let answer = Call.answer([
            "do": "event", "record": record, "now": Call.noon,
            "event": ["type": "settings", "preview": "none", "locale": "fr"],
        ])
        let next = answer[object: "record"]
        #expect(next[object: "settings"][string: "preview"] == "none")
        #expect(next[object: "settings"][string: "locale"] == "fr")
        #expect(next["refresh"] as? Bool == true)
        #expect(next[object: "due"][int: "at"] == Call.noonMilliseconds)
    }

    @Test func event_register_addsTheDeviceWithAnEmptyOutboxAndNoBadge() {
        let record = Call.record(devices: [Call.apnsDevice(badge: 2)])
        let answer = Call.answer([
            "do": "event", "record": record, "now": Call.noon,
            "event": ["type": "register", "device": ["id": "pixel", "transport": "fcm", "token": "tok"]],
        ])
        let next = answer[object: "record"]
        #expect(next[array: "devices"].map { $0[string: "id"] } == ["phone", "pixel"])
        let pixel = next.device("pixel")
        #expect(pixel.isNull("badge"))
        #expect(pixel[array: "outbox"].isEmpty)
        #expect(pixel[int: "attempt"] == 0)
        #expect(next["refresh"] as? Bool == true)
        #expect(next[object: "due"][int: "at"] == Call.noonMilliseconds)
    }

    @Test func event_registerAgain_replacesTheTokenAndEmptiesTheOutbox() {
        let queued = Call.entry(stamp: 5, end: Call.noonMilliseconds / 1000 + 100)
        let record = Call.record(devices: [Call.apnsDevice(badge: 2, outbox: [queued])])
        let answer = Call.answer([
            "do": "event", "record": record, "now": Call.noon,
            "event": [
                "type": "register",
                "device": ["id": "phone", "transport": "apns", "token": "ffff", "topic": "chat.example.app"],
            ],
        ])
        let phone = answer[object: "record"].device("phone")
        #expect(phone[string: "token"] == "ffff")
        #expect(phone[array: "outbox"].isEmpty)
        #expect(phone.isNull("badge"))
    }

    @Test func event_unregister_removesTheDeviceAndLeavesDue() {
        let record = Call.record(devices: [Call.apnsDevice(), Call.webDevice()])
        let answer = Call.answer([
            "do": "event", "record": record, "now": Call.noon, "event": ["type": "unregister", "device": "phone"],
        ])
        #expect(answer[object: "record"][array: "devices"].map { $0[string: "id"] } == ["laptop"])
        #expect(answer[object: "record"].isNull("due"))
    }
}

/// Bad requests get the documented problems, with their pointers.
@Suite struct RelayProblemTests {
    static let record =
        #"{"recipient":"u1","settings":{"locale":"en","preview":"full"},"devices":[]}"#

    @Test(arguments: [
        (#"{}"#, "missing-field", "/do"),
        (#"{"do":"jump"}"#, "invalid-value", "/do"),
        (#"{"do":3}"#, "invalid-type", "/do"),
        (#"[]"#, "invalid-type", ""),
        (#"{"do":"wake","now":"2026-11-29T12:00:00Z"}"#, "missing-field", "/record"),
        (#"{"do":"wake","record":\#(record),"now":"noon"}"#, "invalid-timestamp", "/now"),
        (#"{"do":"wake","record":\#(record),"now":"2026-11-29T12:00:00Z","colour":1}"#, "unknown-member", "/colour"),
        (
            #"{"do":"wake","record":{"recipient":"u1","settings":{"locale":"en","preview":"full"},"devices":[{"id":"a","transport":"sms","token":"t"}]},"now":"2026-11-29T12:00:00Z"}"#,
            "invalid-value", "/record/devices/0/transport"
        ),
        (
            #"{"do":"wake","record":{"recipient":"u1","settings":{"locale":"en","preview":"full"},"devices":[{"id":"a","transport":"apns","token":"t"}]},"now":"2026-11-29T12:00:00Z"}"#,
            "missing-field", "/record/devices/0/topic"
        ),
        (
            #"{"do":"wake","record":{"recipient":"u1","settings":{"locale":"en","preview":"all"},"devices":[]},"now":"2026-11-29T12:00:00Z"}"#,
            "invalid-value", "/record/settings/preview"
        ),
        (
            #"{"do":"wake","record":{"recipient":"u1","settings":{"locale":"en","preview":"full"},"stamp":"1"},"now":"2026-11-29T12:00:00Z"}"#,
            "invalid-type", "/record/stamp"
        ),
        (#"{"do":"gave-up","record":\#(record),"now":"2026-11-29T12:00:00Z","jitter":2}"#, "out-of-range", "/jitter"),
        (
            #"{"do":"loop","record":\#(record),"now":"2026-11-29T12:00:00Z","fetch":"ok","notifications":[]}"#,
            "missing-field", "/unread"
        ),
        (
            #"{"do":"loop","record":\#(record),"now":"2026-11-29T12:00:00Z","fetch":"failed","unread":1}"#,
            "invalid-value", "/unread"
        ),
        (#"{"do":"loop","record":\#(record),"now":"2026-11-29T12:00:00Z","fetch":"maybe"}"#, "invalid-value", "/fetch"),
        (
            #"{"do":"loop","record":\#(record),"now":"2026-11-29T12:00:00Z","fetch":"ok","unread":0,"notifications":[{"id":"1","type":"message"}]}"#,
            "missing-field", "/notifications/0/timestamp"
        ),
        (
            #"{"do":"loop","record":{"recipient":"u1","settings":{"locale":"12","preview":"full"}},"now":"2026-11-29T12:00:00Z","fetch":"failed"}"#,
            "invalid-locale", "/record/settings/locale"
        ),
        (
            #"{"do":"event","record":null,"now":"2026-11-29T12:00:00Z","recipient":"u1","event":{"type":"read"}}"#,
            "missing-field", "/settings"
        ),
        (
            #"{"do":"event","record":\#(record),"now":"2026-11-29T12:00:00Z","event":{"type":"read","colour":1}}"#,
            "unknown-member", "/event/colour"
        ),
        (
            #"{"do":"event","record":\#(record),"now":"2026-11-29T12:00:00Z","event":{"type":"read","device":"a"}}"#,
            "unknown-member", "/event/device"
        ),
        (
            #"{"do":"answer","record":\#(record),"now":"2026-11-29T12:00:00Z","device":"a","stamp":1}"#,
            "missing-field", "/status"
        ),
        (
            #"{"do":"answer","record":\#(record),"now":"2026-11-29T12:00:00Z","device":"a","stamp":1,"status":1000}"#,
            "out-of-range", "/status"
        ),
    ])
    func badRequest_isTheDocumentedProblem(_ bad: (body: String, code: String, pointer: String)) {
        let problem = RelayCall.problem(bad.body)
        #expect(problem?.status == 400, "\(bad.body)")
        #expect(problem?.code == bad.code, "\(bad.body): \(problem?.detail ?? "answered")")
        #expect(problem?.pointer == bad.pointer, "\(bad.body): \(problem?.detail ?? "answered")")
    }
}

/// Member names and words are compared as their decoded bytes: escapes in
/// them mean what they spell, a name that only starts like one is unknown.
@Suite struct RelayNameTests {
    @Test func escapedNamesAndWords_areReadAsTheyDecode() throws {
        let body =
            #"{"d\u006f":"event","record":null,"now":"2026-11-29T12:00:00Z","recipient":"u1","#
            + #""settings":{"locale":"en","\u0070review":"n\u006fne"},"event":{"type":"cr\u0065ated"}}"#
        let answer = try RequestAnswers.relay(
            request: Array(body.utf8), appName: "Chat", catalogs: .builtIn, kept: KeptShapes())
        let text = String(decoding: answer, as: UTF8.self)
        #expect(text.contains(#""preview":"none""#), "\(text)")
        #expect(text.contains(#""due":{"at":1795953600000,"attempt":0}"#), "\(text)")
    }

    @Test func aNameThatOnlyStartsLikeAMember_isUnknown() {
        let problem = RelayCall.problem(
            #"{"do":"wake","nowadays":1,"record":null,"now":"2026-11-29T12:00:00Z"}"#)
        #expect(problem?.code == "unknown-member")
        #expect(problem?.pointer == "/nowadays")
    }
}
