/// Decides the one notification to display from a recipient's pending
/// notifications, exactly as `docs/spec/compose.md` defines it.
/// Pure: no I/O, no clock (the time is `request.now`), no globals.
///
/// O(n log n) in the number of notifications and displayed entries: keys are
/// looked up in hash sets compared by code points, and only sorting is n log n.
///
/// The rules read the request's UTF-8 ranges (`ComposeRequest+Bytes`) and
/// answer with ranges of the same bytes for the keys and timestamps: only the
/// texts shown (title, subtitle, body, thread identifier, url) become `String`s.
///
/// The texts compose writes of its own ("New message", "3 new messages", the
/// sender list, the summary and fallback sentences) are the messages of
/// `request.catalog` (compose.md, Part II).
public enum Composer {
    /// `threadIdentifier` of a summary.
    public static let summaryThreadIdentifier = "summary"

    /// Composes the notification and the next `displayed` state.
    /// - Precondition: `request` satisfies `ComposeRequest`'s limits (the decoder checks them).
    public static func compose(_ request: ComposeRequest) -> ComposeResponse {
        // The records' ranges were checked as they were appended.
        precondition(
            request.fits(request.appRange) && request.fits(request.recipientRange),
            "app or recipient is outside the request's bytes")
        // The response is made where the rules decide it and moved out,
        // rather than copied from an intermediate value (each copy retains
        // its arrays and strings, and releases them again).
        return request.bytes.withUnsafeBufferPointer { bytes in
            request.notificationRecords.withUnsafeBufferPointer { notifications in
                request.displayedRecords.withUnsafeBufferPointer { displayed in
                    compose(request, bytes: bytes, notifications: notifications, displayed: displayed)
                }
            }
        }
    }

    /// What the rules read from a request besides its records, times and ranges.
    struct Settings {
        let catalog: Catalog
        let maxUnits: Int
        /// The request's bytes, which the response's ranges point into.
        let bytes: [UInt8]
    }

    private static func compose(
        _ request: ComposeRequest, bytes: UnsafeBufferPointer<UInt8>,
        notifications: UnsafeBufferPointer<ComposeRequest.NotificationRecord>,
        displayed entries: UnsafeBufferPointer<ComposeRequest.DisplayedRecord>
    ) -> ComposeResponse {
        let app =
            PlainText.normalisedString(bytes[request.appRange]) ?? PlainText.normalised(request.serverApp)
            ?? ComposeRequest.defaultApp
        // The closures below capture these rather than the whole request
        // (a copy of it would retain and release each of its arrays and strings).
        let settings = Settings(catalog: request.catalog, maxUnits: request.maxUnits, bytes: request.bytes)
        let recipient = bytes[request.recipientRange]
        // now − timestamp > maxAgeSeconds  ⇔  timestamp < now − maxAgeSeconds
        let freshFrom = request.nowMoment.adding(seconds: -Int64(request.maxAgeSeconds))
        // timestamp − now > 300 s  ⇔  timestamp > now + 300 s
        let futureAfter = request.nowMoment.adding(seconds: Int64(ComposeRequest.futureToleranceSeconds))

        guard request.fetch == .ok else {
            let reason: ComposeResponse.FallbackReason = request.fetch == .failed ? .failed : .timeout
            let next = DisplayedState.with(
                bytes: bytes, entries: entries, notifications: UnsafeBufferPointer(start: nil, count: 0)
            ) { state in state.next(shown: UnsafeBufferPointer(start: nil, count: 0), freshFrom: freshFrom) }
            return fallback(settings, reason: reason, app: app, dropped: [], next: next)
        }
        return DisplayedState.with(bytes: bytes, entries: entries, notifications: notifications) { state in
            ComposeScratch.withBuffer(of: NewestFirst.Record.self, count: notifications.count) { keptScratch in
                composeFetched(
                    settings, app: app, recipient: recipient, freshFrom: freshFrom, futureAfter: futureAfter,
                    state: &state,
                    keptScratch: keptScratch, bytes: bytes, notifications: notifications)
            }
        }
    }

    /// Steps 2 to 8 for fetched `notifications`; `state` holds the request's
    /// displayed entries; `keptScratch` has room for a record per notification.
    private static func composeFetched(
        _ settings: Settings, app: String, recipient: UnsafeBufferPointer<UInt8>?, freshFrom: Moment,
        futureAfter: Moment, state: inout DisplayedState,
        keptScratch: UnsafeMutableBufferPointer<NewestFirst.Record>, bytes: UnsafeBufferPointer<UInt8>,
        notifications: UnsafeBufferPointer<ComposeRequest.NotificationRecord>
    ) -> ComposeResponse {
        let (catalog, maxUnits) = (settings.catalog, settings.maxUnits)
        // Step 2: drop, in input order, with the first reason that applies.
        var dropped: [ComposeResponse.DropRecord] = []
        // Kept notifications, with their positions in `notifications`.
        var keptCount = 0
        for index in notifications.indices {
            let notification = notifications[index]
            let claim = state.claim(index)
            let reason: ComposeResponse.DropReason?
            if case .duplicate = claim {
                reason = .duplicate
            } else if notification.read {
                reason = .read
            } else if let recipient, let senderID = bytes[notification.senderID],
                CodePoints.equalBytes(senderID, recipient)
            {
                reason = .own
            } else if Moment.less(notification.moment, freshFrom, in: bytes) {
                reason = .stale
            } else if Moment.less(futureAfter, notification.moment, in: bytes) {
                reason = .future
            } else if case .first(displayed: true) = claim {
                reason = .displayed
            } else {
                reason = nil
            }
            if let reason {
                if dropped.isEmpty { dropped.reserveCapacity(notifications.count - index) }
                dropped.append(.init(key: notification.key, reason: reason))
            } else {
                keptScratch[keptCount] = .init(notification.moment, index: index)
                keptCount += 1
            }
        }

        // Step 3: newest first, equal instants by key in code-point order.
        let sortedCount = NewestFirst.sort(UnsafeMutableBufferPointer(rebasing: keptScratch[..<keptCount])) { a, b in
            NewestFirst.tieOrder(
                notifications[a].moment, notifications[a].key, notifications[b].moment, notifications[b].key, in: bytes)
        }
        let kept = UnsafeBufferPointer(rebasing: keptScratch[..<sortedCount])

        let content: ComposeResponse.Content
        let kind: ComposeResponse.Kind
        switch kept.count {
        case 0:
            return fallback(
                settings, reason: .empty, app: app, dropped: dropped,
                next: state.next(shown: kept, freshFrom: freshFrom)
            )
        case 1:
            kind = .single
            content = single(
                notifications[Int(kept[0].index)], bytes: bytes, app: app, catalog: catalog,
                maxUnits: maxUnits)
        default:
            if let thread = sharedMessageThread(notifications, kept, bytes: bytes) {
                kind = .bundle
                content = bundle(
                    notifications, kept, thread: thread, bytes: bytes, app: app, catalog: catalog,
                    maxUnits: maxUnits)
            } else {
                kind = .summary
                content = summary(count: kept.count, app: app, catalog: catalog, maxUnits: maxUnits)
            }
        }
        var shown: [TextRange] = []
        shown.reserveCapacity(kept.count)
        for record in kept { shown.append(notifications[Int(record.index)].key) }
        return ComposeResponse(
            kind: kind, reason: nil, notification: content, locale: catalog.tag, bytes: settings.bytes,
            shownKeys: shown, dropRecords: dropped, entryRecords: state.next(shown: kept, freshFrom: freshFrom))
    }

    // MARK: Step 5: one notification

    static func single(
        _ notification: ComposeRequest.NotificationRecord, bytes: UnsafeBufferPointer<UInt8>, app: String,
        catalog: Catalog, maxUnits: Int
    ) -> ComposeResponse.Content {
        let isMessage = notification.isMessage
        let title: String
        var subtitle: String?
        var body = ""
        if isMessage {
            let threadTitle = PlainText.normalisedString(bytes[notification.threadTitle])
            if let name = PlainText.normalisedString(bytes[notification.senderName]) {
                title = name
                subtitle = threadTitle
            } else {
                title = threadTitle ?? app
            }
            if let text = bytes[notification.text] {
                body = BodyRenderer.renderedBody(utf8: text, maxUnits: maxUnits)
            }
        } else {
            title = app
        }
        if body.isEmpty, let defaultText = bytes[notification.defaultText] {
            body = BodyRenderer.renderedBody(utf8: defaultText, maxUnits: maxUnits)
        }
        if body.isEmpty {
            body = catalog.format(isMessage ? .messageFallback : .notificationFallback)
        }
        let thread = notification.thread.count > 0 ? notification.thread : notification.key
        return .init(
            title: PlainText.capped(title),
            subtitle: subtitle.map(PlainText.capped),
            body: body,
            threadIdentifier: String(decoding: bytes[present: thread], as: UTF8.self),
            url: bytes[notification.url].map { String(decoding: $0, as: UTF8.self) }
        )
    }

    // MARK: Step 6: a bundle of one thread's messages

    /// The thread all `kept` notifications share, when all are messages with the same non-empty thread.
    static func sharedMessageThread(
        _ notifications: UnsafeBufferPointer<ComposeRequest.NotificationRecord>,
        _ kept: UnsafeBufferPointer<NewestFirst.Record>, bytes: UnsafeBufferPointer<UInt8>
    ) -> UnsafeBufferPointer<UInt8>? {
        guard let thread = bytes[notifications[Int(kept[0].index)].thread], !thread.isEmpty else { return nil }
        for record in kept {
            let notification = notifications[Int(record.index)]
            guard notification.isMessage, let other = bytes[notification.thread], CodePoints.equalBytes(other, thread)
            else { return nil }
        }
        return thread
    }

    /// `kept`: positions in `notifications`, newest first.
    static func bundle(
        _ notifications: UnsafeBufferPointer<ComposeRequest.NotificationRecord>,
        _ kept: UnsafeBufferPointer<NewestFirst.Record>, thread: UnsafeBufferPointer<UInt8>,
        bytes: UnsafeBufferPointer<UInt8>, app: String, catalog: Catalog,
        maxUnits: Int
    ) -> ComposeResponse.Content {
        var title: String?
        for record in kept where title == nil {
            title = PlainText.normalisedString(bytes[notifications[Int(record.index)].threadTitle])
        }
        // Names that are not normal already are normalised into one block
        // (never longer than the names), which the name list points into.
        var scratch: UnsafeMutableBufferPointer<UInt8>? = nil
        var scratchUsed = 0
        defer { scratch?.deallocate() }
        return DistinctStrings.with(capacity: kept.count) { names in
            var newestName: UnsafeBufferPointer<UInt8>?
            for (position, record) in kept.enumerated() {
                guard let raw = bytes[notifications[Int(record.index)].senderName] else { continue }
                // A name equal to one kept is normal (kept names are) and adds nothing.
                if position > 0, names.contains(raw) { continue }
                var name = raw
                if !PlainText.isNormal(raw) {
                    if scratch == nil {
                        var total = 0
                        for record in kept { total += Int(max(0, notifications[Int(record.index)].senderName.count)) }
                        scratch = .allocate(capacity: total)
                    }
                    let written = PlainText.normalise(raw, into: scratch!.baseAddress! + scratchUsed)
                    guard written > 0 else { continue }
                    name = UnsafeBufferPointer(start: scratch!.baseAddress! + scratchUsed, count: written)
                    scratchUsed += written
                }
                if position == 0 { newestName = name }
                names.insert(name)
            }

            let newest = notifications[Int(kept[0].index)]
            let body: String
            if let text = bytes[newest.text] {
                body = BodyRenderer.withRenderedBytes(utf8: text) { preview, inputCut in
                    bundleBody(
                        count: kept.count, name: newestName, preview: preview, inputCut: inputCut, catalog: catalog,
                        maxUnits: maxUnits)
                }
            } else {
                body = bundleBody(
                    count: kept.count, name: nil, preview: MessageValues.none, inputCut: false, catalog: catalog,
                    maxUnits: maxUnits)
            }
            return .init(
                title: PlainText.capped(title ?? app),
                subtitle: senderList(names.values, catalog: catalog),
                body: body,
                threadIdentifier: String(decoding: thread, as: UTF8.self),
                url: bytes[newest.url].map { String(decoding: $0, as: UTF8.self) }
            )
        }
    }

    /// The header `bundle.count`, then (when `preview` is not empty) a line
    /// break and `bundle.preview` with the newest's `name` and `preview` (the
    /// preview alone when it has no name), capped as one body.
    static func bundleBody(
        count n: Int, name: UnsafeBufferPointer<UInt8>?, preview: UnsafeBufferPointer<UInt8>, inputCut: Bool,
        catalog: Catalog, maxUnits: Int
    ) -> String {
        let header = MessageValues(count: n)
        guard !preview.isEmpty else {
            return BodyCap.apply(catalog.format(.bundleCount, values: header), maxUnits: maxUnits, inputCut: false)
                .body
        }
        let line = name.map { MessageValues(name: $0, text: preview) }
        let capacity =
            catalog.maximumByteCount(.bundleCount, header) + 1
            + (line.map { catalog.maximumByteCount(.bundlePreview, $0) } ?? preview.count)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var written = catalog.write(.bundleCount, header, into: buffer, at: 0)
            written = write("\n", into: buffer, at: written)
            if let line {
                written = catalog.write(.bundlePreview, line, into: buffer, at: written)
            } else {
                written = write(preview, into: buffer, at: written)
            }
            let bytes = UnsafeBufferPointer(rebasing: buffer[..<written])
            return BodyCap.apply(bytes, maxUnits: maxUnits, inputCut: inputCut, text: nil).body
        }
    }

    // MARK: Steps 7 and 8: summary and fallback

    static func summary(count n: Int, app: String, catalog: Catalog, maxUnits: Int) -> ComposeResponse.Content {
        var app = app
        return .init(
            title: app.withUTF8 { filledInTitle(.summaryTitle, MessageValues(app: $0), catalog: catalog) },
            subtitle: nil,
            body: BodyCap.apply(
                catalog.format(.summaryCount, values: MessageValues(count: n)), maxUnits: maxUnits, inputCut: false
            ).body,
            threadIdentifier: summaryThreadIdentifier,
            url: nil
        )
    }

    static func fallback(
        _ settings: Settings, reason: ComposeResponse.FallbackReason, app: String,
        dropped: [ComposeResponse.DropRecord], next: [ComposeResponse.EntryRecord]
    ) -> ComposeResponse {
        let (catalog, maxUnits) = (settings.catalog, settings.maxUnits)
        var app = app
        let text = app.withUTF8 { catalog.format(.fallbackBody, values: MessageValues(app: $0)) }
        let content = ComposeResponse.Content(
            title: PlainText.capped(app),
            subtitle: nil,
            body: BodyCap.apply(text, maxUnits: maxUnits, inputCut: false).body,
            threadIdentifier: nil,
            url: nil
        )
        return ComposeResponse(
            kind: .fallback, reason: reason, notification: content, locale: catalog.tag, bytes: settings.bytes,
            shownKeys: [], dropRecords: dropped, entryRecords: next)
    }

    /// The subtitle of a bundle's distinct `names` (C6, L13): none is
    /// absent, one is the name itself, more are the catalog's sender list;
    /// through the title cap.
    static func senderList(_ names: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>, catalog: Catalog) -> String? {
        guard names.count > 1 else {
            return names.first.map {
                BodyCap.apply($0, maxUnits: PlainText.titleMaxUnits, inputCut: false, text: nil).body
            }
        }
        let (key, values) = Catalog.senderMessage(names)
        return filledInTitle(key, values, catalog: catalog)
    }

    /// A title or subtitle filled in from the message `key` (C9): written
    /// into a temporary buffer, normalised by `plain` when it is not normal
    /// already, then through the title cap, becoming one `String`. The values
    /// filled in are normalised and not empty, so nothing normalises to absent.
    static func filledInTitle(_ key: MessageKey, _ values: MessageValues, catalog: Catalog) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: catalog.maximumByteCount(key, values)) { buffer in
            let written = catalog.write(key, values, into: buffer, at: 0)
            let bytes = UnsafeBufferPointer(rebasing: buffer[..<written])
            guard PlainText.isNormal(bytes) else {
                return PlainText.capped(PlainText.normalisedCopy(bytes) ?? String(decoding: bytes, as: UTF8.self))
            }
            return BodyCap.apply(bytes, maxUnits: PlainText.titleMaxUnits, inputCut: false, text: nil).body
        }
    }

    // MARK: Texts written as bytes, without interpolation

    /// Writes `text` at `offset`; the offset after it.
    static func write(_ text: StaticString, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        write(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount), into: buffer, at: offset)
    }

    /// Writes `bytes` at `offset`; the offset after them.
    static func write(
        _ bytes: UnsafeBufferPointer<UInt8>, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int
    ) -> Int {
        UnsafeMutableBufferPointer(rebasing: buffer[offset...]).initialize(fromContentsOf: bytes) + offset
    }
}
