/// What a decoder's first pass leaves for the next body it reads on the same
/// thread: the last notification's and displayed entry's shapes
/// (`ObjectShape`, literals copied) and the recent day (`RecentDay`).
///
/// Clients send every request with the same members in the same order, so
/// the shape one request noted almost always fits the next request's first
/// notification and first displayed entry, which are then read by it rather
/// than by the general path.
///
/// It also keeps the buffers of the thread's last request
/// (`requestStorage`): the next first pass copies its body into them, so a
/// typical request allocates none (ADR 0021).
///
/// The caller owns it and hands it to each decode: the service keeps one per
/// thread (`ThreadKeptShapes`, made on the thread's first body and freed as
/// the thread exits), so a thread uses only its own, one body at a time and
/// no lock guards it; the library makes one per call. A first pass takes the
/// shapes (`takeNotificationShape()`, `takeDisplayedShape()`) and gives them
/// back as it ends; each shape frees its storage with the last owner. The
/// validated pass (ADR 0008) starts from shapes of its own and leaves none.
package final class KeptShapes {
    /// Nil only while a first pass holds them. Used by one thread, one body
    /// at a time (docs/architecture.md), so unchecked, as the adapter's are.
    @exclusivity(unchecked) var notification: ObjectShape?
    @exclusivity(unchecked) var displayed: ObjectShape?
    var recentDay = RecentDay()
    /// The buffers of the last request decoded and of its response, given
    /// back once the response was written (`RequestAnswers.compose`);
    /// a request and its response hold them in between.
    var requestStorage = ComposeRequest.Storage()
    /// Whether shapes are noted at all.
    let isEnabled: Bool
    /// The last group source whose topic (push.md P5, a SHA-256) this
    /// thread worked out, and that topic: a relay composes one thread's
    /// requests one after another, for each of its devices.
    private var lastTopic: (source: String, topic: String)? = nil

    /// Shapes not yet known; `isEnabled` false notes none (tests compare).
    package init(isEnabled: Bool = true) {
        self.isEnabled = isEnabled
        notification = ObjectShape(isEnabled: isEnabled)
        displayed = ObjectShape(isEnabled: isEnabled)
    }

    /// The notification shape, for a first pass to give back; a new one if
    /// a pass before never gave it back.
    func takeNotificationShape() -> ObjectShape {
        notification.take() ?? ObjectShape(isEnabled: isEnabled)
    }

    /// The topic of the group source `source` (`PushBuilder.digest`), hashed
    /// only when the last one asked for was another: by its UTF-8, which
    /// the digest hashes (`==` would take "é" and "e\u{301}" for one).
    func topic(of source: String) -> String {
        if let last = lastTopic, CodePoints.equal(last.source, source) { return last.topic }
        let topic = PushBuilder.digest(source)
        lastTopic = (source, topic)
        return topic
    }

    /// The displayed entry's shape, as `takeNotificationShape()`.
    func takeDisplayedShape() -> ObjectShape {
        displayed.take() ?? ObjectShape(isEnabled: isEnabled)
    }
}
