import NotificationText
import Testing

@testable import NotificationService

/// `ComposeOutcome.jsonBody` (behind `ComposeResponse.jsonBody()`) writes once into an estimated buffer and falls
/// back to counting exactly when escapes overflow it; both must match the
/// straightforward `JSONWriter` encoding byte for byte.
@Suite struct ComposeResponseJSONTests {
    /// The response written member by member with `JSONWriter`, as the spec orders it.
    private func reference(_ response: ComposeResponse) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("kind")
        writer.string(response.kind.rawValue)
        writer.key("reason")
        writer.string(response.reason?.rawValue)
        writer.key("notification")
        writer.beginObject()
        writer.key("title")
        writer.string(response.notification.title)
        writer.key("subtitle")
        writer.string(response.notification.subtitle)
        writer.key("body")
        writer.string(response.notification.body)
        writer.key("threadIdentifier")
        writer.string(response.notification.threadIdentifier)
        writer.key("url")
        writer.string(response.notification.url)
        writer.endObject()
        writer.key("shown")
        writer.beginArray()
        for key in response.shown { writer.string(key) }
        writer.endArray()
        writer.key("dropped")
        writer.beginArray()
        for drop in response.dropped {
            writer.beginObject()
            writer.key("key")
            writer.string(drop.key)
            writer.key("reason")
            writer.string(drop.reason.rawValue)
            writer.endObject()
        }
        writer.endArray()
        writer.key("displayed")
        writer.beginArray()
        for entry in response.displayed {
            writer.beginObject()
            writer.key("key")
            writer.string(entry.key)
            writer.key("timestamp")
            writer.string(entry.timestamp.raw)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return writer.bytes
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
            dropped: keys.enumerated().map { .init(key: $1, reason: ComposeResponse.DropReason.allCases[$0 % 6]) },
            displayed: keys.map { DisplayedEntry(key: $0, timestamp: timestamp) }
        )
    }

    @Test func jsonBody_plainKeys_matchesTheWriter() {
        let keys =
            (0..<50).map { "chat:m\($0)" } + [
                "", "a", "abc", "abcd", "abcdefg", "abcdefgh", "é😀", String(repeating: "k", count: 300),
            ]
        let value = response(url: "https://x.io/a?b=1", keys: keys)
        #expect(value.jsonBody() == reference(value))
    }

    @Test func jsonBody_everyKindReasonAndNull_matchesTheWriter() {
        for kind in [ComposeResponse.Kind.single, .bundle, .summary, .fallback] {
            for reason in [nil, ComposeResponse.FallbackReason.failed, .timeout, .empty] {
                let value = response(kind: kind, reason: reason, subtitle: nil, threadIdentifier: nil, keys: [])
                #expect(value.jsonBody() == reference(value), "\(kind) \(String(describing: reason))")
            }
        }
    }

    @Test func jsonBody_whenEscapesOverflowTheEstimate_countsExactly() {
        // The estimate leaves room for a few escapes only: controls (6 bytes each) overflow it.
        let keys = (0..<40).map { "k\u{1}\u{2}\"\\\($0)\u{1F}\n" }
        let value = response(url: "u\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}", keys: keys)
        #expect(value.withOutcome { outcome, _ in outcome.estimatedJSONCount() } < reference(value).count)
        #expect(value.jsonBody() == reference(value))
    }

    @Test func jsonBody_escapesWithinTheEstimate_matchTheWriter() {
        var value = response(url: "https://x.io/?q=\"a\"", keys: ["a\"b"])
        value.notification.title = "\u{1}\t\"quoted\"\u{7F}"
        #expect(value.withOutcome { outcome, _ in outcome.estimatedJSONCount() } >= reference(value).count)
        #expect(value.jsonBody() == reference(value))
    }

    @Test func jsonBody_escapesInTexts_matchTheWriter() {
        var value = response(keys: ["a\"b", "c\\d"])
        value.notification.title = "\u{1}\t\"quoted\""
        value.notification.body = String(repeating: "line\n", count: 100)
        #expect(value.jsonBody() == reference(value))
    }

    @Test func bytes_whenTheCapacityIsTooSmall_isNil() {
        #expect(JSONWriter.bytes(capacity: 3) { $0.quoted("abc") } == nil)
        #expect(JSONWriter.bytes(capacity: 5) { $0.quoted("abc") } == Array("\"abc\"".utf8))
        #expect(JSONWriter.bytes(capacity: 0) { $0.raw("") } == [])
    }
}
