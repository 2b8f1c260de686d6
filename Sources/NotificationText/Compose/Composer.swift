/// Decides the one notification to display from a recipient's pending
/// notifications, exactly as `shared/spec/compose-rules.md` defines it.
/// Pure: no I/O, no clock (the time is `request.now`), no globals.
///
/// O(n log n) in the number of notifications and displayed entries: keys are
/// looked up in hash sets compared by code points, and only sorting is n log n.
public enum Composer {
    /// Body of a single message with no text, default text or rendering.
    public static let newMessageText = "New message"
    /// Body of a single non-message with no default text.
    public static let newNotificationText = "You have a new notification."
    /// `threadIdentifier` of a summary.
    public static let summaryThreadIdentifier = "summary"

    /// Composes the notification and the next `displayed` state.
    /// - Precondition: `request` satisfies `ComposeRequest`'s limits (the decoder checks them).
    public static func compose(_ request: ComposeRequest) -> ComposeResponse {
        let app = PlainText.normalised(request.app) ?? PlainText.normalised(request.serverApp) ?? ComposeRequest.defaultApp
        // now − timestamp > maxAgeSeconds  ⇔  timestamp < now − maxAgeSeconds
        let freshFrom = request.now.instant.adding(seconds: -Int64(request.maxAgeSeconds))
        // timestamp − now > 300 s  ⇔  timestamp > now + 300 s
        let futureAfter = request.now.instant.adding(seconds: Int64(ComposeRequest.futureToleranceSeconds))

        guard request.fetch == .ok else {
            let reason: ComposeResponse.FallbackReason = request.fetch == .failed ? .failed : .timeout
            let displayed = DisplayedState(request.displayed)
            return fallback(reason: reason, app: app, request: request, dropped: [], next: displayed.next(shown: [], freshFrom: freshFrom))
        }

        // Fields are read in place through the buffer: copying a notification
        // out of the array would retain a dozen strings.
        return request.notifications.withUnsafeBufferPointer { notifications in
            composeOK(request, notifications, app: app, freshFrom: freshFrom, futureAfter: futureAfter)
        }
    }

    /// Steps 2 to 7, for a fetch that went well.
    private static func composeOK(
        _ request: ComposeRequest, _ notifications: UnsafeBufferPointer<PendingNotification>,
        app: String, freshFrom: Instant, futureAfter: Instant
    ) -> ComposeResponse {
        // Step 2: drop, in input order, with the first reason that applies.
        var displayed = DisplayedState(request.displayed, notificationCount: notifications.count)
        var keys: [String] = []
        keys.reserveCapacity(notifications.count)
        var dropped: [ComposeResponse.Drop] = []
        // Kept notifications, with their positions in `notifications`.
        var kept: [NewestFirst.Record] = []
        kept.reserveCapacity(notifications.count)
        // Notifications of one source share its "source:" prefix, made once.
        var lastSource: String?
        var sourcePrefix = ""
        for index in notifications.indices {
            if let source = notifications[index].source, !source.isEmpty {
                if lastSource.map({ !CodePoints.equal($0, source) }) ?? true {
                    lastSource = source
                    sourcePrefix = source + ":"
                }
                keys.append(sourcePrefix + notifications[index].id)
            } else {
                keys.append(notifications[index].id)
            }
            let claim = displayed.claim(index, of: keys)
            let reason: ComposeResponse.DropReason?
            if case .duplicate = claim {
                reason = .duplicate
            } else if notifications[index].read {
                reason = .read
            } else if let recipient = request.recipient, let senderID = notifications[index].sender?.id, CodePoints.equal(senderID, recipient) {
                reason = .own
            } else if notifications[index].timestamp.instant < freshFrom {
                reason = .stale
            } else if futureAfter < notifications[index].timestamp.instant {
                reason = .future
            } else if case .first(displayed: true) = claim {
                reason = .displayed
            } else {
                reason = nil
            }
            if let reason {
                if dropped.isEmpty { dropped.reserveCapacity(notifications.count - index) }
                dropped.append(.init(key: keys[index], reason: reason))
            } else {
                kept.append(.init(notifications[index].timestamp.instant, index: index))
            }
        }

        // Step 3: newest first, equal instants by key in code-point order.
        NewestFirst.sort(&kept) { a, b in
            NewestFirst.tieOrder(notifications[a].timestamp.instant, keys[a], notifications[b].timestamp.instant, keys[b])
        }

        let content: ComposeResponse.Content
        let kind: ComposeResponse.Kind
        switch kept.count {
        case 0:
            return fallback(reason: .empty, app: app, request: request, dropped: dropped, next: displayed.next(shown: [], freshFrom: freshFrom))
        case 1:
            kind = .single
            let index = Int(kept[0].index)
            content = single(notifications[index], key: keys[index], app: app, maxUnits: request.maxUnits)
        default:
            if let thread = sharedMessageThread(notifications, kept) {
                kind = .bundle
                content = bundle(notifications, kept, thread: thread, app: app, maxUnits: request.maxUnits)
            } else {
                kind = .summary
                content = summary(count: kept.count, app: app, maxUnits: request.maxUnits)
            }
        }
        var shown: [String] = []
        shown.reserveCapacity(kept.count)
        for record in kept { shown.append(keys[Int(record.index)]) }
        let next = displayed.next(
            shownCount: kept.count, freshFrom: freshFrom,
            shownInstant: { notifications[Int(kept[$0].index)].timestamp.instant },
            shownKey: { keys[Int(kept[$0].index)] },
            shownEntry: { DisplayedEntry(key: keys[Int(kept[$0].index)], timestamp: notifications[Int(kept[$0].index)].timestamp) }
        )
        return ComposeResponse(
            kind: kind, reason: nil, notification: content,
            shown: shown, dropped: dropped, displayed: next
        )
    }

    // MARK: Step 5: one notification

    static func single(_ notification: PendingNotification, key: String, app: String, maxUnits: Int) -> ComposeResponse.Content {
        let isMessage = notification.isMessage
        let title: String
        var subtitle: String?
        var body = ""
        if isMessage {
            let threadTitle = PlainText.normalised(notification.threadTitle)
            if let name = PlainText.normalised(notification.sender?.name) {
                title = name
                subtitle = threadTitle
            } else {
                title = threadTitle ?? app
            }
            if let text = notification.text {
                body = BodyRenderer.render(text, maxUnits: maxUnits).body
            }
        } else {
            title = app
        }
        if body.isEmpty, let defaultText = notification.defaultText {
            body = BodyRenderer.render(defaultText, maxUnits: maxUnits).body
        }
        if body.isEmpty {
            body = isMessage ? newMessageText : newNotificationText
        }
        let thread = notification.thread ?? ""
        return .init(
            title: PlainText.capped(title),
            subtitle: subtitle.map(PlainText.capped),
            body: body,
            threadIdentifier: thread.isEmpty ? key : thread,
            url: notification.url
        )
    }

    // MARK: Step 6: a bundle of one thread's messages

    /// The thread all `kept` notifications share, when all are messages with the same non-empty thread.
    static func sharedMessageThread(_ notifications: UnsafeBufferPointer<PendingNotification>, _ kept: [NewestFirst.Record]) -> String? {
        guard let thread = notifications[Int(kept[0].index)].thread, !thread.isEmpty else { return nil }
        for record in kept {
            let index = Int(record.index)
            guard notifications[index].isMessage, let other = notifications[index].thread,
                  CodePoints.equal(other, thread)
            else { return nil }
        }
        return thread
    }

    /// `kept`: positions in `notifications`, newest first.
    static func bundle(_ notifications: UnsafeBufferPointer<PendingNotification>, _ kept: [NewestFirst.Record], thread: String, app: String, maxUnits: Int) -> ComposeResponse.Content {
        var title: String?
        var names = DistinctStrings(capacity: kept.count)
        var newestName: String?
        for (position, record) in kept.enumerated() {
            let index = Int(record.index)
            if title == nil { title = PlainText.normalised(notifications[index].threadTitle) }
            if let name = PlainText.normalised(notifications[index].sender?.name) {
                if position == 0 { newestName = name }
                names.insert(name)
            }
        }

        let newest = Int(kept[0].index)
        let body: String
        if let text = notifications[newest].text {
            body = BodyRenderer.withRenderedBytes(text) { preview, inputCut in
                bundleBody(count: kept.count, name: newestName, preview: preview, inputCut: inputCut, maxUnits: maxUnits)
            }
        } else {
            body = count(kept.count, "new message", "new messages")
        }
        return .init(
            title: PlainText.capped(title ?? app),
            subtitle: PlainText.senderList(names.values).map(PlainText.capped),
            body: body,
            threadIdentifier: thread,
            url: notifications[newest].url
        )
    }

    /// `N new messages`, then (when `preview` is not empty) a line break,
    /// `name: ` and `preview`, capped as one body.
    static func bundleBody(count n: Int, name: String?, preview: UnsafeBufferPointer<UInt8>, inputCut: Bool, maxUnits: Int) -> String {
        guard !preview.isEmpty else { return count(n, "new message", "new messages") }
        var name = name ?? ""
        return name.withUTF8 { name in
            // "1000 new messages\n" is at most 18 bytes.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 18 + name.count + 2 + preview.count) { buffer in
                var written = writeCount(n, "new message", "new messages", into: buffer, at: 0)
                written = write("\n", into: buffer, at: written)
                if !name.isEmpty {
                    written = write(name, into: buffer, at: written)
                    written = write(": ", into: buffer, at: written)
                }
                written = write(preview, into: buffer, at: written)
                let bytes = UnsafeBufferPointer(rebasing: buffer[..<written])
                return BodyCap.apply(bytes, maxUnits: maxUnits, inputCut: inputCut, text: nil).body
            }
        }
    }

    // MARK: Steps 7 and 8: summary and fallback

    static func summary(count n: Int, app: String, maxUnits: Int) -> ComposeResponse.Content {
        .init(
            title: PlainText.capped("New activity on " + app),
            subtitle: nil,
            body: BodyCap.apply(count(n, "new notification", "new notifications"), maxUnits: maxUnits, inputCut: false).body,
            threadIdentifier: summaryThreadIdentifier,
            url: nil
        )
    }

    static func fallback(
        reason: ComposeResponse.FallbackReason, app: String, request: ComposeRequest,
        dropped: [ComposeResponse.Drop], next: [DisplayedEntry]
    ) -> ComposeResponse {
        let content = ComposeResponse.Content(
            title: PlainText.capped(app),
            subtitle: nil,
            body: BodyCap.apply("There might be new activity on " + app + ".", maxUnits: request.maxUnits, inputCut: false).body,
            threadIdentifier: nil,
            url: nil
        )
        return ComposeResponse(
            kind: .fallback, reason: reason, notification: content, shown: [], dropped: dropped,
            displayed: next
        )
    }

    // MARK: Texts written as bytes, without interpolation

    /// `1 new message` / `N new messages`.
    static func count(_ n: Int, _ singular: StaticString, _ plural: StaticString) -> String {
        String(unsafeUninitializedCapacity: 20 + plural.utf8CodeUnitCount + 1) { buffer in
            writeCount(n, singular, plural, into: buffer, at: 0)
        }
    }

    /// Writes `1 singular` or `n plural` at `offset`; the offset after it.
    /// - Precondition: `n ≥ 0`, and `buffer` has room for 20 digits, a space and `plural`.
    static func writeCount(
        _ n: Int, _ singular: StaticString, _ plural: StaticString,
        into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int
    ) -> Int {
        var digitCount = 1
        var rest = n / 10
        while rest > 0 { digitCount += 1; rest /= 10 }
        var value = n
        for position in stride(from: offset + digitCount - 1, through: offset, by: -1) {
            buffer[position] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
        }
        buffer[offset + digitCount] = UInt8(ascii: " ")
        return write(n == 1 ? singular : plural, into: buffer, at: offset + digitCount + 1)
    }

    /// Writes `text` at `offset`; the offset after it.
    static func write(_ text: StaticString, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        write(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount), into: buffer, at: offset)
    }

    /// Writes `bytes` at `offset`; the offset after them.
    static func write(_ bytes: UnsafeBufferPointer<UInt8>, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        UnsafeMutableBufferPointer(rebasing: buffer[offset...]).initialize(fromContentsOf: bytes) + offset
    }
}
