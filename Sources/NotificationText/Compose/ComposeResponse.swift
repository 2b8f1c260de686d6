/// The one notification to display, and the state the caller must persist.
///
/// Its keys and timestamps are ranges of the request's bytes (`shown`,
/// `dropped` and `displayed` are made from them when read), so the service
/// writes its reply without a `String` per key.
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

    /// The displayed texts.
    public var notification: Content {
        get {
            switch storedNotification {
            case .values(let content): content
            case .texts(let texts): texts.content
            }
        }
        set { storedNotification = .values(newValue) }
    }

    /// The texts as `Composer` wrote them, unless `notification` was set
    /// since: the service writes its reply from their bytes.
    @_spi(Engine) public var composedTexts: ComposedTexts? {
        if case .texts(let texts) = storedNotification { texts } else { nil }
    }

    private var storedNotification: StoredNotification

    private enum StoredNotification: Sendable {
        case values(Content)
        case texts(ComposedTexts)
    }

    /// The tag of the catalog the texts were written from, as its file writes
    /// it (`pt-PT`), for every kind: the request's `locale` once chosen, or
    /// the default's.
    public var locale: String

    // MARK: Keys and timestamps, as ranges

    /// The bytes the keys and timestamps are ranges of: the request's, when
    /// `Composer` made the response, so none is copied into a `String`.
    @_spi(Engine) public let bytes: [UInt8]
    /// Keys of the notifications represented, newest first.
    @_spi(Engine) public let shownKeys: [TextRange]
    @_spi(Engine) public let dropRecords: [DropRecord]
    /// The next state to persist.
    @_spi(Engine) public let entryRecords: [EntryRecord]

    /// A dropped notification: its key and why.
    @_spi(Engine) public struct DropRecord: Sendable {
        @_spi(Engine) public let key: TextRange
        @_spi(Engine) public let reason: DropReason

        @_spi(Engine) public init(key: TextRange, reason: DropReason) {
            self.key = key
            self.reason = reason
        }
    }

    /// An entry of the next `displayed` state.
    @_spi(Engine) public struct EntryRecord: Sendable {
        @_spi(Engine) public let key: TextRange
        /// RFC 3339 text that `Timestamp` parses (the reply copies it without escaping).
        @_spi(Engine) public let timestamp: TextRange

        @_spi(Engine) public init(key: TextRange, timestamp: TextRange) {
            self.key = key
            self.timestamp = timestamp
        }
    }

    @_spi(Engine) public init(
        kind: Kind, reason: FallbackReason?, notification: Content, locale: String, bytes: [UInt8],
        shownKeys: [TextRange], dropRecords: [DropRecord], entryRecords: [EntryRecord]
    ) {
        self.init(
            kind: kind, reason: reason, storedNotification: .values(notification), locale: locale, bytes: bytes,
            shownKeys: shownKeys, dropRecords: dropRecords, entryRecords: entryRecords)
    }

    /// A response whose texts are `texts` (`Composer`'s bundle).
    @_spi(Engine) public init(
        kind: Kind, reason: FallbackReason?, texts: ComposedTexts, locale: String, bytes: [UInt8],
        shownKeys: [TextRange], dropRecords: [DropRecord], entryRecords: [EntryRecord]
    ) {
        self.init(
            kind: kind, reason: reason, storedNotification: .texts(texts), locale: locale, bytes: bytes,
            shownKeys: shownKeys, dropRecords: dropRecords, entryRecords: entryRecords)
    }

    private init(
        kind: Kind, reason: FallbackReason?, storedNotification: StoredNotification, locale: String, bytes: [UInt8],
        shownKeys: [TextRange], dropRecords: [DropRecord], entryRecords: [EntryRecord]
    ) {
        self.kind = kind
        self.reason = reason
        self.storedNotification = storedNotification
        self.locale = locale
        self.bytes = bytes
        self.shownKeys = shownKeys
        self.dropRecords = dropRecords
        self.entryRecords = entryRecords
    }

    /// A response of these values, their keys and timestamps laid out in one buffer.
    public init(
        kind: Kind, reason: FallbackReason?, notification: Content, shown: [String], dropped: [Drop],
        displayed: [DisplayedEntry], locale: String = CatalogSet.defaultLocale
    ) {
        var bytes: [UInt8] = []
        func append(_ text: String) -> TextRange {
            let start = bytes.count
            bytes.append(contentsOf: text.utf8)
            return TextRange(start: start, count: bytes.count - start)
        }
        let shownKeys = shown.map(append)
        let dropRecords = dropped.map { DropRecord(key: append($0.key), reason: $0.reason) }
        let entryRecords = displayed.map { EntryRecord(key: append($0.key), timestamp: append($0.timestamp.raw)) }
        self.init(
            kind: kind, reason: reason, notification: notification, locale: locale, bytes: bytes,
            shownKeys: shownKeys, dropRecords: dropRecords, entryRecords: entryRecords)
    }

    // MARK: The response as values

    /// Keys of the notifications represented, newest first (empty for a fallback).
    public var shown: [String] {
        bytes.withUnsafeBufferPointer { bytes in shownKeys.map { Self.string($0, in: bytes) } }
    }

    public var dropped: [Drop] {
        bytes.withUnsafeBufferPointer { bytes in
            dropRecords.map { Drop(key: Self.string($0.key, in: bytes), reason: $0.reason) }
        }
    }

    /// The next state to persist: replaces the caller's `displayed`.
    public var displayed: [DisplayedEntry] {
        bytes.withUnsafeBufferPointer { bytes in
            entryRecords.map {
                // Every timestamp here was parsed when the request was filled.
                DisplayedEntry(
                    key: Self.string($0.key, in: bytes),
                    timestamp: Timestamp(rfc3339: Self.string($0.timestamp, in: bytes))!)
            }
        }
    }

    private static func string(_ range: TextRange, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes[present: range], as: UTF8.self)
    }

    // MARK: Equality of the values

    public static func == (a: ComposeResponse, b: ComposeResponse) -> Bool {
        a.kind == b.kind && a.reason == b.reason && a.notification == b.notification && a.locale == b.locale
            && a.shown == b.shown && a.dropped == b.dropped && a.displayed == b.displayed
    }

    /// Hashes some of the values `==` compares (equal responses hash alike).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(notification)
        hasher.combine(shown)
    }
}
