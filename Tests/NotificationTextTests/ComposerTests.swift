import Foundation
import NotificationText
import Testing

/// `Composer.compose(_:)` on plain values, and the JSON answers' shapes.
@Suite struct ComposerTests {
    static let now = Timestamp(rfc3339: "2026-11-29T12:00:00Z")!

    static func message(_ id: String, thread: String? = "t1", name: String = "Ana", text: String = "hi")
        -> PendingNotification
    {
        PendingNotification(
            id: id, type: "message", timestamp: Timestamp(rfc3339: "2026-11-29T11:59:0\(id.count)Z")!, thread: thread,
            threadTitle: "Deploys", sender: .init(id: "u-\(name)", name: name), text: text)
    }

    @Test func compose_oneMessage_showsItsOwnTexts() {
        let response = Composer.compose(
            ComposeRequest(notifications: [Self.message("1", text: "**done**")], now: Self.now))
        #expect(response.kind == .single)
        #expect(response.reason == nil)
        #expect(response.notification.body == "done")
        #expect(response.notification.threadIdentifier == "t1")
        #expect(response.shown == ["1"])
        #expect(response.locale == "en")
        #expect(response.displayed.map(\.key) == ["1"])
    }

    @Test func compose_twoMessagesOfOneThread_bundles() {
        let response = Composer.compose(
            ComposeRequest(notifications: [Self.message("1"), Self.message("22", name: "Bo")], now: Self.now))
        #expect(response.kind == .bundle)
        #expect(Set(response.shown) == ["1", "22"])
    }

    @Test func compose_failedFetch_fallsBack_inTheRequestedLocale() {
        let response = Composer.compose(ComposeRequest(now: Self.now, fetch: .failed, locale: "ru-RU"))
        #expect(response.kind == .fallback)
        #expect(response.reason == .failed)
        #expect(response.locale == "ru")
        #expect(response.notification.threadIdentifier == nil)
    }

    @Test func compose_dropsTheRecipientsOwn_andKeepsTheDisplayedUnread() {
        let own = PendingNotification(
            id: "9", type: "message", timestamp: Self.now, sender: .init(id: "me", name: "Me"), text: "mine")
        let seen = Self.message("1")
        let response = Composer.compose(
            ComposeRequest(
                notifications: [own, seen],
                displayed: [DisplayedEntry(key: "1", timestamp: seen.timestamp, group: "t1")],
                now: Self.now, recipient: "me", push: PushOptions()))
        #expect(response.dropped == [.init(key: "9", reason: .own)])
        #expect(response.kind == .single && response.shown == ["1"])
        #expect(response.displayed.map(\.key) == ["1"] && response.displayed.map(\.group) == ["t1"])
        // With `push`, the entry records what was sent: its digest, no alert (none was sent), not direct.
        #expect(response.displayed.first?.digest?.utf8.count == 16)
        #expect(response.displayed.first?.alerted == nil && response.displayed.first?.direct == false)
        // The device shows exactly that already: nothing to send, nothing to withdraw.
        #expect(response.push?.send == false && response.push?.alert == false && response.push?.withdraw == [])
    }

    @Test func compose_pushOptionsOutOfRange_areClampedOrLeftOut_andTheValueKeepsThem() {
        let options = PushOptions(
            badge: -5, androidChannel: "", reserveBytes: 99_999, stamp: -1, alertWindowSeconds: 999_999,
            declarativeWebPush: true, navigate: "ftp://example.org")
        let request = ComposeRequest(notifications: [Self.message("1")], now: Self.now, push: options)
        let push = Composer.compose(request).push
        // Badge 0, stamp 0, the channel left out; without a navigable `navigate`, the classic Web Push payload.
        #expect(push?.apns.json.contains(#""badge":0"#) == true)
        #expect(push?.stamp == 0)
        #expect(push?.fcm.json.contains(#""channel""#) == false)
        #expect(push?.webpush.json.contains("web_push") == false)
        // The request's own value is as the caller wrote it: the composer clamps a copy.
        #expect(request.push == options && request.push?.badge == -5 && request.push?.declarativeWebPush == true)
    }

    @Test func pushOptions_isNavigable_takesAnHTTPURLOfAtMost512Bytes() {
        #expect(PushOptions.isNavigable("https://example.org/a"))
        #expect(!PushOptions.isNavigable("https://example.org/" + String(repeating: "a", count: 493)))
        #expect(PushOptions.isNavigable("https://example.org/" + String(repeating: "a", count: 492)))
        #expect(!PushOptions.isNavigable("ftp://example.org"))
        #expect(!PushOptions.isNavigable("https://exa mple.org"))
    }

    @Test func compose_malformedLocale_meansTheDefault_whileTheJSONAnswerRefusesIt() {
        let response = Composer.compose(
            ComposeRequest(now: Self.now, fetch: .timeout, locale: "not a tag", defaultLocale: "de"))
        #expect(response.locale == "de")
        let answer = answer(
            composeRequest: Array(#"{"fetch":"timeout","locale":"not a tag"}"#.utf8), defaultLocale: "de",
            now: Self.now)
        #expect(answer.status == 400)
        #expect(answer.contentType == "application/problem+json")
        #expect(String(decoding: answer.body, as: UTF8.self).contains(#""code":"invalid-locale""#))
    }

    @Test func answer_bodyRequest_isTheRoutesJSON() {
        let answer = answer(bodyRequest: Array(#"{"text":"**hi** there"}"#.utf8))
        #expect(answer.status == 200)
        #expect(
            String(decoding: answer.body, as: UTF8.self)
                == #"{"body":"hi there","units":8,"truncated":false,"inputCut":false}"#)
    }

    @Test func answer_withoutNow_usesTheGivenTime() {
        let answer = answer(composeRequest: Array(#"{"fetch":"failed"}"#.utf8), now: Self.now)
        #expect(answer.status == 200)
        #expect(String(decoding: answer.body, as: UTF8.self).contains(#""kind":"fallback""#))
    }

    @Test func timestamp_keepsItsText_andRefusesWhatIsNotRFC3339() {
        #expect(Timestamp(rfc3339: "2026-11-29T12:00:00.50+01:00")?.rfc3339 == "2026-11-29T12:00:00.50+01:00")
        #expect(Timestamp(rfc3339: "2026-11-29 12:00") == nil)
    }

    @Test func content_writesAndReadsEveryMemberOfTheTable() throws {
        var content = ComposeResponse.Content(
            title: "Ana", subtitle: nil, body: "hi", threadIdentifier: "t1", url: "https://chat.example/1")
        content[.subtitle] = "Deploys"
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(content)) as! [String: Any]
        // Every member of the answer's table, `null` included, as the answer writes it.
        #expect(Set(json.keys) == Set(AnswerMember.allCases.map(\.name)))
        #expect(json["subtitle"] as? String == "Deploys")
        let read = try JSONDecoder().decode(ComposeResponse.Content.self, from: JSONEncoder().encode(content))
        #expect(read == content)
        #expect(read.url == "https://chat.example/1")
    }
}
