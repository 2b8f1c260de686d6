import EngineTestSupport
import Testing

@testable import NotificationEngine

/// `ComposeResponse.jsonBody()` writes once into an estimated buffer and falls back to
/// writing again at the exact size when escapes overflow it; both must match the
/// response written as a JSON tree byte for byte.
@Suite struct ComposeResponseJSONTests {
    /// The response's values as a JSON tree, members in the spec's order, written by the tests' tree writer.
    static func tree(_ response: ComposeResponse) -> [UInt8] {
        func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        func object(_ members: [(String, JSONValue)]) -> JSONValue { .object(JSONObject(members: members)) }
        let content = response.notification
        return object([
            ("kind", .string(response.kind.rawValue)),
            ("reason", string(response.reason?.rawValue)),
            (
                "notification",
                object(AnswerMember.allCases.map { ($0.name, string(content[$0])) })
            ),
            ("shown", .array(response.shown.map(JSONValue.string))),
            (
                "dropped",
                .array(
                    response.dropped.map {
                        object([("key", .string($0.key)), ("reason", .string($0.reason.rawValue))])
                    })
            ),
            (
                "displayed",
                .array(
                    response.displayed.map {
                        object([
                            ("key", $0.key.map(JSONValue.string) ?? .null), ("timestamp", .string($0.timestamp.raw)),
                            ("group", $0.group.map(JSONValue.string) ?? .null),
                        ])
                    })
            ),
            ("locale", .string(response.locale)),
            ("direction", .string(response.direction.rawValue)),
        ]).bytes
    }

    private let timestamp = Timestamp(rfc3339: "2026-11-29T12:00:00.5+02:00")!

    private func response(
        kind: ComposeResponse.Kind = .bundle, reason: ComposeResponse.FallbackReason? = nil,
        subtitle: String? = "Ana and Bo", threadIdentifier: String? = "t", url: String? = nil, keys: [String]
    ) -> ComposeResponse {
        ComposeResponse(
            kind: kind, reason: reason,
            notification: .init(
                title: "Title", subtitle: subtitle, body: "2 new messages\nAna: hi", threadIdentifier: threadIdentifier,
                url: url),
            shown: keys,
            dropped: keys.enumerated().map { .init(key: $1, reason: ComposeResponse.DropReason.allCases[$0 % 5]) },
            displayed: keys.map { DisplayedEntry(key: $0, timestamp: timestamp) }, locale: "pt-PT"
        )
    }

    @Test func jsonBody_plainKeys_matchesTheTree() {
        let keys =
            (0..<50).map { "chat:m\($0)" } + [
                "", "a", "abc", "abcd", "abcdefg", "abcdefgh", "é😀", String(repeating: "k", count: 300),
            ]
        let value = response(url: "https://x.io/a?b=1", keys: keys)
        #expect(value.jsonBody() == Self.tree(value))
    }

    @Test func jsonBody_keysOfEveryShortLengthWithAnEscapeAnywhere_matchTheTree() {
        for length in 1..<34 {
            let plain = String(repeating: "k", count: length)
            var keys = [plain]
            for position in 0..<length {
                for special in ["\"", "\\", "\u{1}", "\n"] {
                    var key = Array(plain.utf8)
                    key.replaceSubrange(position...position, with: Array(special.utf8))
                    keys.append(String(decoding: key, as: UTF8.self))
                }
            }
            let value = response(keys: keys)
            #expect(value.jsonBody() == Self.tree(value), "length \(length)")
        }
    }

    @Test func jsonBody_ofComposedTextsAndOfTextsSetSince_matchesTheTree() {
        let now = Timestamp(rfc3339: "2026-11-29T12:00:00Z")!
        let sent = Timestamp(rfc3339: "2026-11-29T11:59:00Z")!
        func message(_ id: String, thread: String?) -> PendingNotification {
            PendingNotification(
                id: id, source: "chat", type: "message", timestamp: sent, thread: thread, threadTitle: "#q\"a",
                sender: .init(id: "u\(id)", name: "N\t\(id)"), text: "line \\ one\n\nline \"two\"",
                url: "https://x.io/\(id)?a=\"b\"")
        }
        // A bundle, a single, a summary and a fallback, each with texts to escape.
        let requests = [
            ComposeRequest(notifications: [message("1", thread: "t"), message("2", thread: "t")], now: now),
            ComposeRequest(notifications: [message("1", thread: nil)], now: now),
            ComposeRequest(notifications: [message("1", thread: "t"), message("2", thread: "u")], now: now),
            ComposeRequest(notifications: [], now: now),
        ]
        #expect(requests.map { Composer.compose($0).kind } == [.bundle, .single, .summary, .fallback])
        for request in requests {
            var value = Composer.compose(request)
            #expect(value.composedTexts != nil, "\(value.kind)")
            #expect(value.jsonBody() == Self.tree(value), "\(value.kind)")
            value.notification.subtitle = "set \"since\""
            #expect(value.composedTexts == nil, "\(value.kind)")
            #expect(value.notification.subtitle == "set \"since\"", "\(value.kind)")
            #expect(value.jsonBody() == Self.tree(value), "\(value.kind)")
        }
    }

    @Test func jsonBody_everyKindReasonAndNull_matchesTheTree() {
        for kind in [ComposeResponse.Kind.single, .bundle, .summary, .fallback] {
            for reason in [nil, ComposeResponse.FallbackReason.failed, .timeout, .empty] {
                let value = response(kind: kind, reason: reason, subtitle: nil, threadIdentifier: nil, keys: [])
                #expect(value.jsonBody() == Self.tree(value), "\(kind) \(String(describing: reason))")
            }
        }
    }

    @Test func jsonBody_whenEscapesOverflowTheEstimate_writesAgainExactly() {
        // The estimate leaves room for a few escapes only: controls (6 bytes each) overflow it.
        // Plain keys after them are then past the end of the first buffer, only counted.
        let keys = (0..<40).map { "k\u{1}\u{2}\"\\\($0)\u{1F}\n" } + (0..<10).map { "chat:m\($0)" }
        let value = response(url: "u\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}", keys: keys)
        #expect(value.estimatedJSONCount() < Self.tree(value).count)
        #expect(value.jsonBody() == Self.tree(value))
    }

    @Test func jsonBody_escapesWithinTheEstimate_matchTheTree() {
        var value = response(url: "https://x.io/?q=\"a\"", keys: ["a\"b"])
        value.notification.title = "\u{1}\t\"quoted\"\u{7F}"
        #expect(value.estimatedJSONCount() >= Self.tree(value).count)
        #expect(value.jsonBody() == Self.tree(value))
    }

    @Test func jsonBody_escapesInTexts_matchTheTree() {
        var value = response(keys: ["a\"b", "c\\d"])
        value.notification.title = "\u{1}\t\"quoted\""
        value.notification.body = String(repeating: "line\n", count: 100)
        #expect(value.jsonBody() == Self.tree(value))
    }

}
