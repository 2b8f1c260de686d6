/// The one notification to display, and the state the caller must persist.
public struct ComposeResponse: Hashable, Sendable {
    /// What was composed.
    public enum Kind: String, Hashable, Sendable {
        /// One notification left: its own texts.
        case single
        /// Two or more messages of one thread: bundled.
        case bundle
        /// Two or more of mixed activity: a count.
        case summary
        /// Nothing to show from (fetch failed or timed out, or nothing left).
        case fallback
    }

    /// Why a fallback was shown (`reason` on the wire; `nil` for other kinds).
    public enum FallbackReason: String, Hashable, Sendable {
        case failed, timeout, empty
    }

    /// Why a notification was not shown, in order of precedence.
    public enum DropReason: String, Hashable, Sendable, CaseIterable {
        case duplicate, read, own, stale, future, displayed
    }

    /// A notification compose dropped (`dropped` on the wire), in input order.
    public struct Drop: Hashable, Sendable {
        public var key: String
        public var reason: DropReason

        public init(key: String, reason: DropReason) {
            self.key = key
            self.reason = reason
        }
    }

    /// The displayed texts (`notification` on the wire).
    public struct Content: Hashable, Sendable {
        /// Plain text, at most 256 UTF-16 units; never empty.
        public var title: String
        /// Plain text, at most 256 UTF-16 units, or `nil`.
        public var subtitle: String?
        /// At most the request's `maxUnits` UTF-16 units.
        public var body: String
        /// Groups notifications on the device; `nil` only for a fallback.
        public var threadIdentifier: String?
        public var url: String?

        public init(title: String, subtitle: String?, body: String, threadIdentifier: String?, url: String?) {
            self.title = title
            self.subtitle = subtitle
            self.body = body
            self.threadIdentifier = threadIdentifier
            self.url = url
        }
    }

    public var kind: Kind
    public var reason: FallbackReason?
    public var notification: Content
    /// Keys of the notifications represented, newest first (empty for a fallback).
    public var shown: [String]
    public var dropped: [Drop]
    /// The next state to persist: replaces the caller's `displayed`.
    public var displayed: [DisplayedEntry]

    public init(
        kind: Kind, reason: FallbackReason?, notification: Content, shown: [String], dropped: [Drop],
        displayed: [DisplayedEntry]
    ) {
        self.kind = kind
        self.reason = reason
        self.notification = notification
        self.shown = shown
        self.dropped = dropped
        self.displayed = displayed
    }
}
