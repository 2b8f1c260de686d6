/// Everything compose decides from, as ranges of one UTF-8 buffer.
///
/// The service fills it straight from a request body: a string without
/// escapes is a range of the body's own bytes, and only keys (`source:id`)
/// and escaped strings are appended. Its notifications and entries are
/// trivial records, so a request of 20 notifications costs no `String` and no
/// reference count until compose writes the texts it shows. `ComposeRequest`
/// is the same input with `String`s, for Swift callers; `Composer` turns it
/// into this one, so both run the same rules.
///
/// Limits (`ComposeRequest.maxNotifications`, …) are the filler's to enforce,
/// as for `ComposeRequest`.
public struct ComposeInput: Sendable {
    /// One fetched notification (`PendingNotification`'s fields as ranges).
    public struct Notification: Sendable {
        public let id: TextRange
        public let source: TextRange
        public let type: TextRange
        /// `source:id`, or `id` when the source is absent or empty.
        public let key: TextRange
        /// The timestamp as written, echoed in the next `displayed` state.
        public let timestamp: TextRange
        public let moment: Moment
        public let read: Bool
        /// Whether the type is one of `PendingNotification.messageTypes`.
        public let isMessage: Bool
        public let senderID: TextRange
        public let senderName: TextRange
        public let thread: TextRange
        public let threadTitle: TextRange
        public let text: TextRange
        public let defaultText: TextRange
        public let url: TextRange
    }

    /// One entry of the caller's `displayed` state.
    public struct Displayed: Sendable {
        public let key: TextRange
        /// As written, echoed when the entry is kept.
        public let timestamp: TextRange
        public let moment: Moment
    }

    /// The UTF-8 every range points into.
    public private(set) var bytes: [UInt8]
    public private(set) var notifications: [Notification] = []
    public private(set) var displayed: [Displayed] = []
    /// The reference time (`setNow`).
    public private(set) var now: Moment
    /// Where the reference time's text is; absent until `setNow`.
    public private(set) var nowText = TextRange.absent
    public var maxAgeSeconds = ComposeRequest.defaultMaxAgeSeconds
    public var maxUnits = BodyRenderer.defaultMaxUnits
    /// The request's `app`; absent, or normalising to empty, means `serverApp`.
    public var app = TextRange.absent
    /// The server's configured app name.
    public var serverApp: String
    public var recipient = TextRange.absent
    public var fetch = FetchOutcome.ok

    /// An input whose ranges point into `bytes` (a request body), with `now`
    /// at the Unix epoch until the filler sets it (`setNow`).
    public init(bytes: [UInt8], serverApp: String) {
        self.bytes = bytes
        self.serverApp = serverApp
        self.now = Moment(epochSeconds: 0, nanoseconds: 0, extraDigits: .empty)
    }

    // MARK: Filling

    /// Makes room for `count` notifications and their keys, so the bytes are
    /// copied (from a shared request body) at most once.
    public mutating func reserve(notifications count: Int) {
        notifications.reserveCapacity(count)
        // Keys with a source are appended: room for typical ones.
        bytes.reserveCapacity(bytes.count + 24 * count + 64)
    }

    /// Makes room for `count` displayed entries.
    public mutating func reserve(displayed count: Int) {
        displayed.reserveCapacity(count)
    }

    /// Appends `utf8` (well-formed UTF-8) and returns its range.
    public mutating func append(_ utf8: UnsafeBufferPointer<UInt8>) -> TextRange {
        let start = bytes.count
        bytes.append(contentsOf: utf8)
        return TextRange(start: start, count: utf8.count)
    }

    /// Appends `text` and returns its range.
    public mutating func append(_ text: String) -> TextRange {
        if let range = text.utf8.withContiguousStorageIfAvailable({ append($0) }) { return range }
        let start = bytes.count
        bytes.append(contentsOf: text.utf8)
        return TextRange(start: start, count: bytes.count - start)
    }

    /// The instant of the RFC 3339 date-time at `range` (`Timestamp`'s rules);
    /// nil when it is not one.
    public func moment(at range: TextRange) -> Moment? {
        precondition(fits(range), "a range outside the input's bytes")
        return bytes.withUnsafeBufferPointer { bytes in
            guard let parts = Timestamp.parse(bytes[range]) else { return nil }
            let extra = parts.extraDigits
            return Moment(
                epochSeconds: parts.epochSeconds, nanoseconds: parts.nanoseconds,
                extraDigits: extra.isEmpty
                    ? .empty : TextRange(start: Int(range.start) + extra.lowerBound, count: extra.count)
            )
        }
    }

    /// Whether `range` is absent or lies within `bytes`.
    @inline(__always)
    func fits(_ range: TextRange) -> Bool {
        range.isAbsent || (range.count >= 0 && range.end <= bytes.count)
    }

    /// Sets the reference time to the RFC 3339 date-time at `range`; false
    /// (and nothing set) when it is not one.
    public mutating func setNow(at range: TextRange) -> Bool {
        guard let moment = moment(at: range) else { return false }
        now = moment
        nowText = range
        return true
    }

    /// Adds a notification; its key is made here (`source:id`, or `id`).
    /// - Precondition: every range is absent or within `bytes` (checked: a
    ///   range outside would read outside the buffer); `id`, `type` and
    ///   `timestamp` are present; `moment` is `timestamp`'s; `source` has no `:`.
    public mutating func appendNotification(
        id: TextRange, source: TextRange, type: TextRange, timestamp: TextRange, moment: Moment, read: Bool,
        thread: TextRange, threadTitle: TextRange, senderID: TextRange, senderName: TextRange,
        text: TextRange, defaultText: TextRange, url: TextRange
    ) {
        precondition(
            fits(id) && fits(source) && fits(type) && fits(timestamp) && fits(moment.extraDigits) && fits(thread)
                && fits(threadTitle)
                && fits(senderID) && fits(senderName) && fits(text) && fits(defaultText) && fits(url),
            "a notification's range is outside the input's bytes"
        )
        precondition(
            !id.isAbsent && !type.isAbsent && !timestamp.isAbsent, "a notification needs an id, a type and a timestamp")
        var key = id
        if source.count > 0 {
            let start = bytes.count
            let count = Int(source.count) + 1 + Int(id.count)
            // Assembled aside and appended once: a slice of `bytes` would
            // share its storage and make the append copy all of it.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
                bytes.withUnsafeBufferPointer { bytes in
                    let colon = Composer.write(bytes[present: source], into: buffer, at: 0)
                    buffer[colon] = UInt8(ascii: ":")
                    _ = Composer.write(bytes[present: id], into: buffer, at: colon + 1)
                }
                bytes.append(contentsOf: UnsafeBufferPointer(buffer))
            }
            key = TextRange(start: start, count: count)
        }
        let isMessage = bytes.withUnsafeBufferPointer { PendingNotification.isMessageType($0[type]) }
        notifications.append(
            Notification(
                id: id, source: source, type: type, key: key, timestamp: timestamp, moment: moment, read: read,
                isMessage: isMessage,
                senderID: senderID, senderName: senderName, thread: thread, threadTitle: threadTitle,
                text: text, defaultText: defaultText, url: url
            ))
    }

    /// Adds an entry of the caller's `displayed` state.
    /// - Precondition: the ranges are present and within `bytes` (checked);
    ///   `moment` is `timestamp`'s.
    public mutating func appendDisplayed(key: TextRange, timestamp: TextRange, moment: Moment) {
        precondition(
            !key.isAbsent && !timestamp.isAbsent && fits(key) && fits(timestamp) && fits(moment.extraDigits),
            "a displayed entry's range is outside the input's bytes")
        displayed.append(Displayed(key: key, timestamp: timestamp, moment: moment))
    }
}

/// A range of a `ComposeInput`'s bytes, or an absent field (`absent`).
/// Eight bytes, trivially copyable.
public struct TextRange: Hashable, Sendable {
    /// The first byte; negative for `absent`.
    public let start: Int32
    public let count: Int32

    @inlinable
    public init(start: Int, count: Int) {
        self.start = Int32(truncatingIfNeeded: start)
        self.count = Int32(truncatingIfNeeded: count)
    }

    @usableFromInline
    init(absentMarker: ()) {
        start = -1
        count = 0
    }

    // Computed, not stored: a static `let` is a lazily initialised global,
    // and every use of it would check that it was.
    /// A field that is not there (or is JSON `null`).
    @inlinable
    public static var absent: TextRange { TextRange(absentMarker: ()) }
    /// A present, empty text.
    @inlinable
    public static var empty: TextRange { TextRange(start: 0, count: 0) }

    public var isAbsent: Bool { start < 0 }
    /// Just past the last byte.
    public var end: Int { Int(start) + Int(count) }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// The bytes at `range`; `nil` for an absent range.
    @inline(__always)
    public subscript(range: TextRange) -> UnsafeBufferPointer<UInt8>? {
        guard !range.isAbsent else { return nil }
        return UnsafeBufferPointer(rebasing: self[Int(range.start)..<range.end])
    }

    /// The bytes at `range` of a present field.
    @inline(__always)
    public subscript(present range: TextRange) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: self[Int(range.start)..<range.end])
    }
}

/// An instant, as `Instant`, whose fractional digits beyond nanoseconds
/// (rare) are a range of the input's bytes: trivially copyable, so sorting
/// and comparing moments never touches a reference count.
public struct Moment: Sendable {
    public let epochSeconds: Int64
    /// The first nine fractional digits, 0..<1_000_000_000.
    public let nanoseconds: Int32
    /// The digits after the ninth without trailing zeros; empty for nearly
    /// every real timestamp.
    public let extraDigits: TextRange

    public init(epochSeconds: Int64, nanoseconds: Int32, extraDigits: TextRange) {
        self.epochSeconds = epochSeconds
        self.nanoseconds = nanoseconds
        self.extraDigits = extraDigits
    }

    /// This moment shifted by whole seconds (fractions unchanged).
    func adding(seconds: Int64) -> Moment {
        Moment(epochSeconds: epochSeconds + seconds, nanoseconds: nanoseconds, extraDigits: extraDigits)
    }

    /// Whether `a` is before `b`; `bytes` holds their extra digits.
    @inline(__always)
    static func less(_ a: Moment, _ b: Moment, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if a.epochSeconds != b.epochSeconds { return a.epochSeconds < b.epochSeconds }
        if a.nanoseconds != b.nanoseconds { return a.nanoseconds < b.nanoseconds }
        return extraLess(a, b, in: bytes)
    }

    /// `less` for moments with equal whole nanoseconds: digit strings of this
    /// shape (no trailing zeros) compare byte-wise as the fractions they denote.
    static func extraLess(_ a: Moment, _ b: Moment, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if a.extraDigits.count == 0 { return b.extraDigits.count != 0 }
        if b.extraDigits.count == 0 { return false }
        return CodePoints.compareBytes(bytes[present: a.extraDigits], bytes[present: b.extraDigits]) < 0
    }
}

extension ComposeInput {
    /// The same input as `request`, its strings appended to one buffer.
    init(_ request: ComposeRequest) {
        self.init(bytes: [], serverApp: request.serverApp)
        reserve(notifications: request.notifications.count)
        reserve(displayed: request.displayed.count)
        // Room for typical texts, so the buffer rarely grows (each growth copies it).
        bytes.reserveCapacity(256 * request.notifications.count + 48 * request.displayed.count + 256)
        // Appended first: a call's receiver is read before its arguments.
        let now = append(request.now.raw)
        _ = setNow(at: now)  // a `Timestamp` is valid
        maxAgeSeconds = request.maxAgeSeconds
        maxUnits = request.maxUnits
        app = append(request.app)
        recipient = append(request.recipient)
        fetch = request.fetch
        // Read in place: copying a notification out would retain a dozen strings.
        request.notifications.withUnsafeBufferPointer { notifications in
            for index in notifications.indices {
                let timestamp = append(notifications[index].timestamp.raw)
                let moment = moment(of: notifications[index].timestamp.instant)
                let (id, source, type) = (
                    append(notifications[index].id), append(notifications[index].source),
                    append(notifications[index].type)
                )
                let (thread, threadTitle) = (
                    append(notifications[index].thread), append(notifications[index].threadTitle)
                )
                let (senderID, senderName) = (
                    append(notifications[index].sender?.id), append(notifications[index].sender?.name)
                )
                let (text, defaultText) = (append(notifications[index].text), append(notifications[index].defaultText))
                let url = append(notifications[index].url)
                appendNotification(
                    id: id, source: source, type: type, timestamp: timestamp, moment: moment,
                    read: notifications[index].read,
                    thread: thread, threadTitle: threadTitle, senderID: senderID, senderName: senderName,
                    text: text, defaultText: defaultText, url: url
                )
            }
        }
        request.displayed.withUnsafeBufferPointer { displayed in
            for index in displayed.indices {
                let timestamp = append(displayed[index].timestamp.raw)
                let moment = moment(of: displayed[index].timestamp.instant)
                appendDisplayed(key: append(displayed[index].key), timestamp: timestamp, moment: moment)
            }
        }
    }

    /// `instant` as a moment (its parsed `Timestamp` is not parsed again):
    /// its digits beyond nanoseconds, if any, appended.
    private mutating func moment(of instant: Instant) -> Moment {
        let extra = instant.subnanosecondDigits.isEmpty ? TextRange.empty : append(instant.subnanosecondDigits)
        return Moment(epochSeconds: instant.epochSeconds, nanoseconds: instant.nanoseconds, extraDigits: extra)
    }

    /// Appends `text`, or returns `.absent` for nil.
    private mutating func append(_ text: String?) -> TextRange {
        guard let text else { return .absent }
        return append(text)
    }
}

extension ComposeRequest {
    /// The same request as `input`, with `String`s (the service's decoder
    /// fills a `ComposeInput`; this gives a Swift caller the values).
    /// - Precondition: `input`'s time was set (`setNow`).
    public init(_ input: ComposeInput) {
        let (notifications, displayed, app, recipient, now) = input.bytes.withUnsafeBufferPointer { bytes in
            func string(_ range: TextRange) -> String? { bytes[range].map { String(decoding: $0, as: UTF8.self) } }
            // The filler parsed every timestamp.
            func timestamp(_ range: TextRange) -> Timestamp { Timestamp(rfc3339: string(range)!)! }
            let notifications = input.notifications.map { n in
                let sender =
                    n.senderID.isAbsent && n.senderName.isAbsent
                    ? nil : PendingNotification.Sender(id: string(n.senderID), name: string(n.senderName))
                return PendingNotification(
                    id: string(n.id)!, source: string(n.source), type: string(n.type)!,
                    timestamp: timestamp(n.timestamp), read: n.read,
                    thread: string(n.thread), threadTitle: string(n.threadTitle), sender: sender,
                    text: string(n.text), defaultText: string(n.defaultText), url: string(n.url)
                )
            }
            let displayed = input.displayed.map {
                DisplayedEntry(key: string($0.key)!, timestamp: timestamp($0.timestamp))
            }
            return (notifications, displayed, string(input.app), string(input.recipient), timestamp(input.nowText))
        }
        self.init(
            notifications: notifications, displayed: displayed, now: now, maxAgeSeconds: input.maxAgeSeconds,
            maxUnits: input.maxUnits, app: app, serverApp: input.serverApp, recipient: recipient, fetch: input.fetch
        )
    }
}

extension ComposeResponse {
    /// `outcome` with `String`s, its entries taken from `request`, the
    /// request `input` was made of.
    init(_ outcome: ComposeOutcome, input: ComposeInput, request: ComposeRequest) {
        let (shown, dropped, keys) = input.bytes.withUnsafeBufferPointer { bytes in
            func string(_ range: TextRange) -> String { String(decoding: bytes[present: range], as: UTF8.self) }
            return (
                outcome.shown.map(string),
                outcome.dropped.map { Drop(key: string($0.key), reason: $0.reason) },
                outcome.displayed.map { $0.origin < 0 ? string($0.key) : "" }
            )
        }
        var displayed: [DisplayedEntry] = []
        displayed.reserveCapacity(outcome.displayed.count)
        for (entry, key) in zip(outcome.displayed, keys) {
            // Kept entries are the caller's own; shown ones take their notification's timestamp.
            displayed.append(
                entry.origin >= 0
                    ? request.displayed[Int(entry.origin)]
                    : DisplayedEntry(key: key, timestamp: request.notifications[Int(-1 - entry.origin)].timestamp))
        }
        self.init(
            kind: outcome.kind, reason: outcome.reason, notification: outcome.notification, shown: shown,
            dropped: dropped, displayed: displayed)
    }
}
