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
package enum Composer {
    /// `threadIdentifier` of a summary.
    package static let summaryThreadIdentifier = "summary"

    /// Composes the notification and the next `displayed` state.
    /// - Precondition: `request` satisfies `ComposeRequest`'s limits (the decoder checks them).
    package static func compose(_ request: ComposeRequest) -> ComposeResponse {
        var spare = Spare()
        return compose(request, spare: &spare)
    }

    /// `compose(_:)`, writing the response into the response's buffers in
    /// `storage` (`ComposeRequest.Storage`), which it takes: with the
    /// storage of a response before, it allocates none.
    package static func compose(
        _ request: ComposeRequest, reusing storage: inout ComposeRequest.Storage
    ) -> ComposeResponse {
        var spare = Spare()
        swap(&spare.records, &storage.responseRecords)
        swap(&spare.texts, &storage.responseTexts)
        return compose(request, spare: &spare)
    }

    /// Buffers a response is written into, emptied when taken (none when new).
    struct Spare {
        var records: [ComposeResponse.KeyRecord] = []
        var texts: [UInt8] = []

        /// The records buffer with room for `count`, leaving none here.
        mutating func takeRecords(capacity count: Int) -> [ComposeResponse.KeyRecord] {
            var taken: [ComposeResponse.KeyRecord] = []
            swap(&taken, &records)
            taken.removeAll(keepingCapacity: true)
            taken.reserveCapacity(count)
            return taken
        }
    }

    private static func compose(_ request: ComposeRequest, spare: inout Spare) -> ComposeResponse {
        // The records' ranges were checked as they were appended.
        precondition(
            request.fits(request.appRange) && request.fits(request.recipientRange),
            "app or recipient is outside the request's bytes")
        // The response is made where the rules decide it and moved out,
        // rather than copied from an intermediate value (each copy retains
        // its arrays and strings, and releases them again).
        let response = request.bytes.withUnsafeBufferPointer { bytes in
            request.notificationRecords.withUnsafeBufferPointer { notifications in
                request.displayedRecords.withUnsafeBufferPointer { displayed in
                    request.displayedExtras.withUnsafeBufferPointer { extras in
                        compose(
                            request, bytes: bytes, notifications: notifications, displayed: displayed, extras: extras,
                            spare: &spare)
                    }
                }
            }
        }
        // The tiers only when asked for (Composer+Preview); the push payloads are `push(for:response:)`.
        guard request.preview != .full || response.transition != nil else { return response }
        var tiered = response
        if request.preview != .full { applyPreview(to: &tiered, for: request) }
        // S2's digests compare the texts as the tier leaves them (C15).
        if tiered.transition != nil { tiered.settleDigest() }
        return tiered
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
        displayed entries: UnsafeBufferPointer<ComposeRequest.DisplayedRecord>,
        extras extrasRows: UnsafeBufferPointer<ComposeRequest.DisplayedRecord.Extras>, spare: inout Spare
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
        // The options are read only when there are some (`hasPush`).
        let hasPush = request.hasPush
        var windowSeconds = PushOptions.defaultAlertWindowSeconds
        var isActiveElsewhere = false
        if hasPush, let push = request.push {
            windowSeconds = push.alertWindowSeconds
            isActiveElsewhere = push.activeUntil.map { $0.instant > request.now.instant } ?? false
        }
        let screen = Screen(
            now: request.nowRange, nowMoment: request.nowMoment, windowSeconds: windowSeconds,
            isActiveElsewhere: isActiveElsewhere, hasPush: hasPush, extrasRows: extrasRows)

        guard request.fetch == .ok else {
            let reason: ComposeResponse.FallbackReason = request.fetch == .failed ? .failed : .timeout
            var records = spare.takeRecords(capacity: min(ComposeRequest.maxDisplayedOutput, entries.count + 1))
            var extras: [ComposeResponse.EntryExtras] = []
            let transition = DisplayedState<SipKeyHashing>.with(
                bytes: bytes, entries: entries, notifications: UnsafeBufferPointer(start: nil, count: 0)
            ) { state in
                appendCarriedOver(
                    state, addingFallback: true, screen: screen, entries: entries, bytes: bytes, to: &records,
                    extras: &extras)
            }
            var response = fallback(
                settings, reason: reason, app: app, records: records, dropCount: 0,
                transition: hasPush ? transition : nil, texts: &spare.texts)
            response.entryExtras = extras
            return response
        }
        // The displayed entries decide nothing but the transition, which
        // only a request with `push` gets (C10 step 3, S1 to S3).
        let entries = hasPush ? entries : UnsafeBufferPointer(start: nil, count: 0)
        // A table small enough hashes its keys the quick way (`QuickKeyHashing`):
        // the steps are compiled once for each hashing, so neither path tests which.
        func composeFetched<Hashing: KeyHashing>(hashing: Hashing.Type) -> ComposeResponse {
            DisplayedState<Hashing>.with(bytes: bytes, entries: entries, notifications: notifications) { state in
                ComposeScratch.withBuffer(of: NewestFirst.Record.self, count: notifications.count) { keptScratch in
                    Self.composeFetched(
                        settings, app: app, recipient: recipient, freshFrom: freshFrom, futureAfter: futureAfter,
                        screen: screen, state: &state, entries: hasPush ? entries : nil,
                        keptScratch: keptScratch, bytes: bytes, notifications: notifications, spare: &spare)
                }
            }
        }
        if entries.count + notifications.count <= QuickKeyHashing.maxKeys {
            return composeFetched(hashing: QuickKeyHashing.self)
        }
        return composeFetched(hashing: SipKeyHashing.self)
    }

    /// Steps 2 to 8 for fetched `notifications`; `state` holds the request's
    /// displayed `entries` when the answer has a transition (nil otherwise:
    /// then it holds none); `keptScratch` has room for a record per notification.
    private static func composeFetched<Hashing: KeyHashing>(
        _ settings: Settings, app: String, recipient: UnsafeBufferPointer<UInt8>?, freshFrom: Moment,
        futureAfter: Moment, screen: Screen, state: inout DisplayedState<Hashing>,
        entries: UnsafeBufferPointer<ComposeRequest.DisplayedRecord>?,
        keptScratch: UnsafeMutableBufferPointer<NewestFirst.Record>, bytes: UnsafeBufferPointer<UInt8>,
        notifications: UnsafeBufferPointer<ComposeRequest.NotificationRecord>, spare: inout Spare
    ) -> ComposeResponse {
        let (catalog, maxUnits) = (settings.catalog, settings.maxUnits)
        // The drops, the shown keys and the next state, in that order in one
        // array, allocated once: drops and shown keys are at most one per
        // notification together, the next state one per shown key.
        var records = spare.takeRecords(capacity: 2 * notifications.count)
        // Step 2: drop, in input order, with the first reason that applies.
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
            } else {
                reason = nil
            }
            if let reason {
                records.append(.init(key: notification.key, reason: reason))
                if case .first(let slot) = claim { state.drop(slot: slot) }
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
        let dropCount = records.count

        let kind: ComposeResponse.Kind
        let texts: ComposedTexts
        let groupKey: String
        switch kept.count {
        case 0:
            // C10 step 2: nothing is left on the device; S1: all of it is withdrawn.
            let transition = entries.map { entries in
                ComposeResponse.Transition(
                    send: false, alert: false,
                    withdraw: withdrawnGroups(state, excluding: nil, entries: entries, bytes: bytes))
            }
            return fallback(
                settings, reason: .empty, app: app, records: records, dropCount: dropCount, transition: transition,
                texts: &spare.texts)
        case 1:
            kind = .single
            let notification = notifications[Int(kept[0].index)]
            texts = single(
                notification, bytes: bytes, app: app, catalog: catalog, maxUnits: maxUnits, texts: &spare.texts)
            // C5.4: the thread, else the key.
            groupKey = Self.groupKey(
                of: bytes[present: notification.thread.count > 0 ? notification.thread : notification.key])
        default:
            if let thread = sharedMessageThread(notifications, kept, bytes: bytes) {
                kind = .bundle
                texts = bundle(
                    notifications, kept, thread: thread, bytes: bytes, app: app, catalog: catalog,
                    maxUnits: maxUnits, texts: &spare.texts)
                groupKey = Self.groupKey(of: thread)
            } else {
                kind = .summary
                texts = summary(count: kept.count, app: app, catalog: catalog, maxUnits: maxUnits, texts: &spare.texts)
                groupKey = summaryThreadIdentifier
            }
        }
        for record in kept { records.append(.init(shown: notifications[Int(record.index)].key)) }
        var extras: [ComposeResponse.EntryExtras] = []
        let transition = entries.map { entries in
            Self.transition(
                state, kept: kept, groupKey: groupKey, screen: screen, entries: entries, notifications: notifications,
                bytes: bytes)
        }
        if let entries, transition?.held == true {
            // C10 step 5: held, the device shows what it showed.
            _ = appendCarriedOver(
                state, addingFallback: false, screen: screen, entries: entries, bytes: bytes, to: &records,
                extras: &extras)
        } else {
            // C10 step 3: the kept keys, newest first (step 3's order), each under G.
            if transition != nil { extras.reserveCapacity(min(kept.count, ComposeRequest.maxDisplayedOutput)) }
            for record in kept.prefix(ComposeRequest.maxDisplayedOutput) {
                let notification = notifications[Int(record.index)]
                records.append(.init(key: notification.key, timestamp: notification.timestamp, answerGroup: true))
                if let transition {
                    extras.append(
                        .init(
                            isAnswerDigest: true, alerted: transition.alert ? screen.now : transition.latestAlerted,
                            direct: KeptFacts.isDirect(bytes[notification.type]) ? 1 : 0))
                }
            }
        }
        return ComposeResponse(
            kind: kind, reason: nil, texts: texts, locale: catalog.tag, direction: catalog.direction,
            bytes: settings.bytes, records: records, dropCount: dropCount, shownCount: kept.count, groupKey: groupKey,
            transition: transition, entryExtras: extras)
    }

    // MARK: Step 5: one notification

    // Out of line: called once per request, it is kept out of composeFetched's loops.
    @inline(never)
    static func single(
        _ notification: ComposeRequest.NotificationRecord, bytes: UnsafeBufferPointer<UInt8>, app: String,
        catalog: Catalog, maxUnits: Int, texts storage: inout [UInt8]
    ) -> ComposedTexts {
        let isMessage = notification.isMessage
        let thread = notification.thread.count > 0 ? notification.thread : notification.key
        let text = isMessage ? bytes[notification.text] : nil
        let defaultText = bytes[notification.defaultText]
        var texts = ComposedTexts.Writer(
            capacity: 2 * PlainText.titleMaxUnits + Int(thread.count) + (text?.count ?? 0) + (defaultText?.count ?? 0)
                + ComposedTexts.Writer.copiedByteCount(of: notification), reusing: &storage)
        var title = TextRange.absent
        var subtitle = TextRange.absent
        if isMessage {
            PlainText.withNormalised(bytes[notification.senderName]) { name in
                guard let name else { return }
                title = texts.appendCapped(name, maxUnits: PlainText.titleMaxUnits, inputCut: false)
            }
            PlainText.withNormalised(bytes[notification.threadTitle]) { threadTitle in
                guard let threadTitle else { return }
                let capped = texts.appendCapped(threadTitle, maxUnits: PlainText.titleMaxUnits, inputCut: false)
                if title.isAbsent { title = capped } else { subtitle = capped }
            }
        }
        if title.isAbsent { title = appendCapped(app, into: &texts, maxUnits: PlainText.titleMaxUnits) }
        // The text rendered, else the default text, else the catalog's fallback.
        func appendRendered(_ source: UnsafeBufferPointer<UInt8>) -> TextRange {
            BodyRenderer.withRenderedBytes(utf8: source) { rendered, inputCut in
                texts.appendCapped(rendered, maxUnits: maxUnits, inputCut: inputCut)
            }
        }
        var body = TextRange.empty
        if let text { body = appendRendered(text) }
        if body.count == 0, let defaultText { body = appendRendered(defaultText) }
        if body.count == 0 {
            body = appendMessage(
                isMessage ? .messageFallback : .notificationFallback, MessageValues(), catalog: catalog, into: &texts,
                maxUnits: nil)
        }
        texts[.title] = title
        texts[.subtitle] = subtitle
        texts[.body] = body
        texts[.threadIdentifier] = texts.append(bytes[present: thread])
        texts.appendCopies(of: notification, from: bytes)
        return texts.texts()
    }

    // MARK: Steps 7 and 8: summary and fallback

    // Out of line: called once per request, it is kept out of composeFetched's loops.
    @inline(never)
    static func summary(
        count n: Int, app: String, catalog: Catalog, maxUnits: Int, texts storage: inout [UInt8]
    ) -> ComposedTexts {
        var app = app
        var texts = ComposedTexts.Writer(capacity: 2 * PlainText.titleMaxUnits, reusing: &storage)
        let title = app.withUTF8 {
            appendFilledInTitle(.summaryTitle, MessageValues(app: $0), catalog: catalog, into: &texts)
        }
        texts[.title] = title
        texts[.body] = appendMessage(
            .summaryCount, MessageValues(count: n), catalog: catalog, into: &texts, maxUnits: maxUnits)
        var identifier = summaryThreadIdentifier
        texts[.threadIdentifier] = identifier.withUTF8 { texts.append($0) }
        return texts.texts()
    }

    /// The fallback; `records` holds `dropCount` drops, then the next state.
    static func fallback(
        _ settings: Settings, reason: ComposeResponse.FallbackReason, app: String,
        records: [ComposeResponse.KeyRecord], dropCount: Int, transition: ComposeResponse.Transition?,
        texts storage: inout [UInt8]
    ) -> ComposeResponse {
        let (catalog, maxUnits) = (settings.catalog, settings.maxUnits)
        var app = app
        var texts = ComposedTexts.Writer(capacity: 2 * PlainText.titleMaxUnits, reusing: &storage)
        texts[.title] = appendCapped(app, into: &texts, maxUnits: PlainText.titleMaxUnits)
        texts[.body] = app.withUTF8 {
            appendMessage(.fallbackBody, MessageValues(app: $0), catalog: catalog, into: &texts, maxUnits: maxUnits)
        }
        return ComposeResponse(
            kind: .fallback, reason: reason, texts: texts.texts(),
            locale: catalog.tag, direction: catalog.direction, bytes: settings.bytes, records: records,
            dropCount: dropCount, shownCount: 0, groupKey: fallbackGroupKey, transition: transition)
    }

    // MARK: Texts

    /// Appends `text` through the body cap at `maxUnits`; its range.
    static func appendCapped(_ text: String, into texts: inout ComposedTexts.Writer, maxUnits: Int) -> TextRange {
        var text = text
        return text.withUTF8 { texts.appendCapped($0, maxUnits: maxUnits, inputCut: false) }
    }

    /// Appends the message `key` filled in from `values`, through the body
    /// cap at `maxUnits` unless that is nil; its range.
    static func appendMessage(
        _ key: MessageKey, _ values: MessageValues, catalog: Catalog, into texts: inout ComposedTexts.Writer,
        maxUnits: Int?
    ) -> TextRange {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: catalog.maximumByteCount(key, values)) { buffer in
            let written = catalog.write(key, values, into: buffer, at: 0)
            let bytes = UnsafeBufferPointer(rebasing: buffer[..<written])
            guard let maxUnits else { return texts.append(bytes) }
            return texts.appendCapped(bytes, maxUnits: maxUnits, inputCut: false)
        }
    }

    /// Appends a title or subtitle filled in from the message `key` (C9):
    /// written into a temporary buffer, normalised by `plain` when it is not
    /// normal already, then through the title cap; its range. The values
    /// filled in are normalised and not empty, so nothing normalises to absent.
    static func appendFilledInTitle(
        _ key: MessageKey, _ values: MessageValues, catalog: Catalog, into texts: inout ComposedTexts.Writer
    ) -> TextRange {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: catalog.maximumByteCount(key, values)) { buffer in
            let written = catalog.write(key, values, into: buffer, at: 0)
            let bytes = UnsafeBufferPointer(rebasing: buffer[..<written])
            return PlainText.withNormalised(bytes) { normal in
                texts.appendCapped(normal ?? bytes, maxUnits: PlainText.titleMaxUnits, inputCut: false)
            }
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
