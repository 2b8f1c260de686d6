/// What `Composer` decided from a `ComposeInput`: `ComposeResponse` with its
/// keys and timestamps left as ranges of the input's bytes, so the service
/// writes them into its reply without making a `String` of each.
public struct ComposeOutcome: Sendable {
    /// A dropped notification: its key and why.
    public struct Drop: Sendable {
        public let key: TextRange
        public let reason: ComposeResponse.DropReason

        public init(key: TextRange, reason: ComposeResponse.DropReason) {
            self.key = key
            self.reason = reason
        }
    }

    /// An entry of the next `displayed` state.
    public struct Entry: Sendable {
        public let key: TextRange
        public let timestamp: TextRange
        /// Where it comes from: the input's `displayed[origin]` when
        /// `origin ≥ 0`, else its `notifications[-1 - origin]`.
        public let origin: Int32

        public init(key: TextRange, timestamp: TextRange, origin: Int32) {
            self.key = key
            self.timestamp = timestamp
            self.origin = origin
        }
    }

    public var kind: ComposeResponse.Kind
    public var reason: ComposeResponse.FallbackReason?
    public var notification: ComposeResponse.Content
    /// Keys of the notifications represented, newest first.
    public var shown: [TextRange]
    public var dropped: [Drop]
    public var displayed: [Entry]

    public init(
        kind: ComposeResponse.Kind, reason: ComposeResponse.FallbackReason?, notification: ComposeResponse.Content,
        shown: [TextRange], dropped: [Drop], displayed: [Entry]
    ) {
        self.kind = kind
        self.reason = reason
        self.notification = notification
        self.shown = shown
        self.dropped = dropped
        self.displayed = displayed
    }
}
