import Testing

@testable import NotificationEngine

/// The thread's last topic (`KeptShapes.topic(of:)`): a repeated group
/// source gets the digest it got before, another gets its own.
@Suite struct TopicMemoTests {
    @Test func topic_isTheSourcesDigest_whateverWasAskedBefore() {
        let shapes = KeptShapes()
        for source in ["release-4182", "release-4182", "fallback", "release-4182", "ünïcode thread", "fallback"] {
            #expect(shapes.topic(of: source) == PushBuilder.digest(source), "\(source)")
        }
    }
}
