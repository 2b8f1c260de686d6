import Testing

@testable import NotificationEngine

/// A request holds its texts as ranges of one buffer; its values are made
/// from the buffer when read, and setting them lays them out again.
@Suite struct ComposeRequestTests {
    private let now = Timestamp(rfc3339: "2026-11-29T12:00:00Z")!

    private func notification(_ id: String, name: String? = "Ana") -> PendingNotification {
        PendingNotification(
            id: id, source: "chat", type: "message", timestamp: Timestamp(rfc3339: "2026-11-29T11:59:00.5+01:00")!,
            read: false, thread: "t", threadTitle: "Lunch", sender: .init(id: "u1", name: name), text: "hi **there**",
            defaultText: nil, url: "https://x.io/\u{1F600}")
    }

    @Test func values_readBackAsGiven() {
        let notifications = [notification("1"), notification("2", name: nil)]
        let displayed = [DisplayedEntry(key: "caf\u{E9}:m0", timestamp: Timestamp(rfc3339: "2026-11-29T11:50:00Z")!)]
        let request = ComposeRequest(
            notifications: notifications, displayed: displayed, now: now, maxAgeSeconds: 60, maxUnits: 300,
            app: "  Wiki ", serverApp: "Buzz", recipient: "me", fetch: .timeout)
        #expect(request.notifications == notifications)
        #expect(request.displayed == displayed)
        #expect(request.now == now)
        #expect(request.app == "  Wiki ")
        #expect(request.recipient == "me")
        #expect((request.maxAgeSeconds, request.maxUnits, request.fetch) == (60, 300, .timeout))
    }

    @Test func settingValues_equalsBuildingWithThem() {
        var built = ComposeRequest(now: Timestamp(rfc3339: "2026-01-01T00:00:00Z")!)
        for id in 0..<50 { built.notifications.append(notification("\(id)")) }
        built.displayed.append(DisplayedEntry(key: "k", timestamp: now))
        built.now = now
        built.app = "Wiki"
        built.recipient = "me"
        built.app = nil
        let expected = ComposeRequest(
            notifications: (0..<50).map { notification("\($0)") },
            displayed: [DisplayedEntry(key: "k", timestamp: now)],
            now: now, recipient: "me")
        #expect(built == expected)
        #expect(built.hashValue == expected.hashValue)
        #expect(Composer.compose(built) == Composer.compose(expected))
        // Setting an array lays the request out anew: appending one at a time does not pile up bytes.
        #expect(built.bytes.count < 2 * expected.bytes.count, "\(built.bytes.count) bytes for \(expected.bytes.count)")
    }

    @Test func requests_withTheSameValuesInDifferentBuffers_areEqual() {
        var a = ComposeRequest(notifications: [notification("1")], now: now, app: "Wiki")
        let b = ComposeRequest(notifications: [notification("1")], now: now, app: "Wiki")
        a.app = "Wiki"  // the same value again, at another place in the buffer
        #expect(a.appRange != b.appRange)
        #expect(a == b)
        a.app = "Chat"
        #expect(a != b)
    }

    @Test func response_valuesReadBackAsGiven() {
        let content = ComposeResponse.Content(
            title: "T", subtitle: nil, body: "b", threadIdentifier: "t", url: nil)
        let displayed = [DisplayedEntry(key: "a:1", timestamp: Timestamp(rfc3339: "2026-11-29t11:59:00.10z")!)]
        let response = ComposeResponse(
            kind: .single, reason: nil, notification: content, shown: ["a:1"],
            dropped: [.init(key: "a:0", reason: .read)], displayed: displayed)
        #expect(response.shown == ["a:1"])
        #expect(response.dropped == [.init(key: "a:0", reason: .read)])
        #expect(response.displayed == displayed)
        #expect(response.displayed[0].timestamp.raw == "2026-11-29t11:59:00.10z")
    }
}
