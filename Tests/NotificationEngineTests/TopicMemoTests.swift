import Testing

@testable import NotificationEngine

/// The thread's last topic (`KeptShapes.topic(of:)`): a repeated group
/// source gets the digest it got before, another gets its own.
@Suite struct TopicMemoTests {
    @Test func topic_isTheSourcesDigest_whateverWasAskedBefore() {
        let shapes = KeptShapes()
        // "é" as one scalar, then as "e" and a combining acute: equal as
        // Strings, two UTF-8 byte sequences, two digests.
        let sources = ["release-4182", "release-4182", "fallback", "release-4182", "caf\u{E9}", "cafe\u{301}"]
        for source in sources {
            #expect(shapes.topic(of: source) == PushBuilder.digest(source), "\(source)")
        }
    }
}
