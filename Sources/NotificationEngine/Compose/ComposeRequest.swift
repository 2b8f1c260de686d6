/// Everything compose decides from. It is a pure input: the clock is `now`.
///
/// The wire decoder (`POST /compose`, the `compose` CLI) fills it in and
/// enforces the static limits below before calling `Composer.compose`; the
/// composer trusts them.
///
/// A request holds its texts as ranges of one UTF-8 buffer, as the rules
/// read them: the service decodes a body into ranges of the body's own bytes,
/// without a `String` per field, and `init` lays a Swift caller's strings out
/// the same way. `notifications`, `displayed`, `now`, `app` and `recipient`
/// are made from the buffer when read; setting `notifications` or
/// `displayed` rebuilds it, so build a large request with `init`.
///
/// The request's `locale` is held as the catalog it chose (`catalog`): the
/// decoder resolves it once, and a malformed tag never reaches the composer.
package struct ComposeRequest: Hashable, Sendable {
    /// At most this many `notifications`.
    package static let maxNotifications = 1000
    /// At most this many `displayed` entries in a request.
    package static let maxDisplayedEntries = 10_000
    /// Allowed `maxAgeSeconds`.
    package static let maxAgeSecondsRange = 0...86_400
    /// `maxAgeSeconds` when the request has none (the seed's "10 minutes").
    package static let defaultMaxAgeSeconds = 600
    /// A notification more than this far ahead of `now` is dropped as `future`.
    package static let futureToleranceSeconds = 300
    /// The app name when neither the request nor the server configures one.
    package static let defaultApp = "Buzz"
    /// The response's `displayed` keeps at most this many entries (the newest).
    package static let maxDisplayedOutput = 1000
    /// A request's `displayed` names at most this many distinct groups
    /// (compose.md 2.2): what bounds the withdrawal payloads (push.md P21).
    package static let maxDisplayedGroups = 16

    /// Freshness window, in `maxAgeSecondsRange`.
    package var maxAgeSeconds = ComposeRequest.defaultMaxAgeSeconds
    /// Body cap in UTF-16 units, in `BodyRenderer.maxUnitsRange`.
    package var maxUnits = BodyRenderer.defaultMaxUnits
    /// The server's configured app name (`defaultApp` unless configured).
    package var serverApp: String
    package var fetch = FetchOutcome.ok
    /// The catalog compose writes its own texts from: the request's `locale`
    /// chosen among the server's catalogs by `CatalogSet.catalog(forLocale:)`
    /// (which answers `nil` for a malformed tag, the `invalid-locale`
    /// problem), the server's default catalog when the request has none.
    package var catalog: Catalog
    /// What the answer may show (`preview`, compose.md C11).
    package var preview = PreviewTier.full
    /// The request's `push` member: when present, the answer has the push payloads (push.md).
    package var push: PushOptions? {
        didSet { hasPush = push != nil }
    }
    /// Whether `push` is present, kept as it is set: testing the optional
    /// itself copies the options (through the optional's generic value
    /// witnesses) each time (bench/README.md).
    package private(set) var hasPush = false

    // MARK: The buffer (ComposeRequest+Bytes)

    /// The UTF-8 every range points into.
    package internal(set) var bytes: [UInt8]
    package internal(set) var notificationRecords: [NotificationRecord] = []
    package internal(set) var displayedRecords: [DisplayedRecord] = []
    /// The displayed entries' `digest`, `alerted` and `direct`, for those that have any (`DisplayedRecord.extrasIndex`).
    package internal(set) var displayedExtras: [DisplayedRecord.Extras] = []
    /// The reference time (`setNow`).
    package internal(set) var nowMoment: Moment
    /// Where the reference time's text is; absent until `setNow`.
    package internal(set) var nowRange = TextRange.absent
    /// The request's `app`; absent, or normalising to empty, means `serverApp`.
    package var appRange = TextRange.absent
    package var recipientRange = TextRange.absent
    /// Room set aside at the end of `bytes` for the keys still to be made
    /// (`reserve(notifications:)`): bytes no range points into until a key
    /// is written there.
    var keyRoom = 0..<0

    package init(
        notifications: [PendingNotification] = [],
        displayed: [DisplayedEntry] = [],
        now: Timestamp,
        maxAgeSeconds: Int = ComposeRequest.defaultMaxAgeSeconds,
        maxUnits: Int = BodyRenderer.defaultMaxUnits,
        app: String? = nil,
        serverApp: String = ComposeRequest.defaultApp,
        recipient: String? = nil,
        fetch: FetchOutcome = .ok,
        catalog: Catalog = CatalogSet.builtIn.defaultCatalog,
        preview: PreviewTier = .full,
        push: PushOptions? = nil
    ) {
        self.init(bytes: [], serverApp: serverApp, catalog: catalog)
        // The settings the request stores as values.
        (self.maxAgeSeconds, self.maxUnits, self.fetch, self.preview) = (maxAgeSeconds, maxUnits, fetch, preview)
        self.push = push
        hasPush = push != nil  // an initializer's own writes call no `didSet`
        reserve(notifications: notifications.count)
        reserve(displayed: displayed.count)
        // Room for typical texts, so the buffer rarely grows (each growth copies it).
        bytes.reserveCapacity(256 * notifications.count + 48 * displayed.count + 256)
        // The texts it holds in the buffer, then the notifications' and entries'.
        self.now = now
        self.app = app
        self.recipient = recipient
        // Read in place: copying a notification out would retain a dozen strings.
        notifications.withUnsafeBufferPointer { notifications in
            for index in notifications.indices { append(notifications[index]) }
        }
        displayed.withUnsafeBufferPointer { displayed in
            for index in displayed.indices {
                let entry = displayed[index]
                let timestamp = append(entry.timestamp.raw)
                let moment = moment(of: entry.timestamp.instant)
                var extras = DisplayedRecord.Extras()
                extras.digest = append(entry.digest)
                if let alerted = entry.alerted {
                    extras.alerted = append(alerted.raw)
                    extras.alertedMoment = self.moment(of: alerted.instant)
                }
                extras.direct = entry.direct.map { $0 ? 1 : 0 } ?? 2
                appendDisplayed(
                    key: append(entry.key), timestamp: timestamp, moment: moment, group: append(entry.group),
                    extras: extras)
            }
        }
    }

    // MARK: The request as values

    /// The fetched notifications, in the order fetched (may be empty; ignored
    /// unless `fetch` is `.ok`).
    package var notifications: [PendingNotification] {
        get {
            bytes.withUnsafeBufferPointer { bytes in
                notificationRecords.map { record in
                    PendingNotification(
                        text: { Self.string(record.ranges[$0], in: bytes) },
                        timestamp: Self.timestamp(record.timestamp, in: bytes), scalars: record.scalars)
                }
            }
        }
        set { rebuild(notifications: newValue, displayed: displayed) }
    }

    /// What the caller has already shown (the state it persisted last time).
    package var displayed: [DisplayedEntry] {
        get {
            bytes.withUnsafeBufferPointer { bytes in
                displayedRecords.map {
                    let extras = self.extras(of: $0)
                    return DisplayedEntry(
                        key: Self.string($0.key, in: bytes), timestamp: Self.timestamp($0.timestamp, in: bytes),
                        group: Self.string($0.group, in: bytes), digest: Self.string(extras.digest, in: bytes),
                        alerted: extras.alerted.isAbsent ? nil : Self.timestamp(extras.alerted, in: bytes),
                        direct: extras.direct == 2 ? nil : extras.direct == 1)
                }
            }
        }
        set { rebuild(notifications: notifications, displayed: newValue) }
    }

    /// The reference time; the server uses its clock when the wire has none.
    package var now: Timestamp {
        get { bytes.withUnsafeBufferPointer { Self.timestamp(nowRange, in: $0) } }
        set {
            let range = append(newValue.raw)
            nowMoment = moment(of: newValue.instant)
            nowRange = range
        }
    }

    /// The request's `app`; `nil`, or a value that normalises to empty, means `serverApp`.
    package var app: String? {
        get { bytes.withUnsafeBufferPointer { Self.string(appRange, in: $0) } }
        set { appRange = append(newValue) }
    }

    /// The recipient's own id; notifications whose `sender.id` equals it are dropped.
    package var recipient: String? {
        get { bytes.withUnsafeBufferPointer { Self.string(recipientRange, in: $0) } }
        set { recipientRange = append(newValue) }
    }

    /// The same request with new arrays, laid out in a new buffer.
    private mutating func rebuild(notifications: [PendingNotification], displayed: [DisplayedEntry]) {
        self = ComposeRequest(
            notifications: notifications, displayed: displayed, now: now, maxAgeSeconds: maxAgeSeconds,
            maxUnits: maxUnits, app: app, serverApp: serverApp, recipient: recipient, fetch: fetch, catalog: catalog,
            preview: preview, push: push)
    }

    private static func string(_ range: TextRange, in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        bytes[range].map { String(decoding: $0, as: UTF8.self) }
    }

    /// The timestamp at `range`: every filler parsed it.
    private static func timestamp(_ range: TextRange, in bytes: UnsafeBufferPointer<UInt8>) -> Timestamp {
        Timestamp(rfc3339: string(range, in: bytes)!)!
    }

    // MARK: Equality of the values

    package static func == (a: ComposeRequest, b: ComposeRequest) -> Bool {
        a.maxAgeSeconds == b.maxAgeSeconds && a.maxUnits == b.maxUnits && a.serverApp == b.serverApp
            && a.fetch == b.fetch && a.catalog === b.catalog && a.now == b.now && a.app == b.app
            && a.recipient == b.recipient && a.preview == b.preview && a.push == b.push
            && a.displayed == b.displayed && a.notifications == b.notifications
    }

    /// Hashes some of the values `==` compares (equal requests hash alike).
    package func hash(into hasher: inout Hasher) {
        hasher.combine(now)
        hasher.combine(notifications)
        hasher.combine(displayed)
    }
}
