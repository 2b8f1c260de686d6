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

        let displayed = DisplayedState(request.displayed)

        guard request.fetch == .ok else {
            let reason: ComposeResponse.FallbackReason = request.fetch == .failed ? .failed : .timeout
            return fallback(reason: reason, app: app, request: request, dropped: [], next: displayed.next(shown: [], freshFrom: freshFrom))
        }

        // Step 2: drop, in input order, with the first reason that applies.
        var seenKeys = Set<ExactString>(minimumCapacity: request.notifications.count)
        var dropped: [ComposeResponse.Drop] = []
        var keptIndices: [Int] = []
        var keptKeys: [String] = []
        // Fields are read in place: copying each notification would retain a dozen strings.
        let notifications = request.notifications
        for index in notifications.indices {
            let key = notifications[index].key
            let exactKey = ExactString(key)
            let reason: ComposeResponse.DropReason?
            let instant = notifications[index].timestamp.instant
            if !seenKeys.insert(exactKey).inserted {
                reason = .duplicate
            } else if notifications[index].read {
                reason = .read
            } else if let recipient = request.recipient, let senderID = notifications[index].sender?.id, CodePoints.equal(senderID, recipient) {
                reason = .own
            } else if instant < freshFrom {
                reason = .stale
            } else if instant > futureAfter {
                reason = .future
            } else if displayed.contains(key) {
                reason = .displayed
            } else {
                reason = nil
            }
            if let reason {
                dropped.append(.init(key: key, reason: reason))
            } else {
                keptIndices.append(index)
                keptKeys.append(key)
            }
        }

        // Step 3: newest first, equal instants by key in code-point order.
        let order = NewestFirst.order(
            count: keptIndices.count,
            instant: { request.notifications[keptIndices[$0]].timestamp.instant },
            key: { keptKeys[$0] }
        )
        // Positions in `notifications`, and their keys, newest first.
        let kept = order.map { keptIndices[$0] }
        let shownKeys = order.map { keptKeys[$0] }

        let content: ComposeResponse.Content
        let kind: ComposeResponse.Kind
        switch kept.count {
        case 0:
            return fallback(reason: .empty, app: app, request: request, dropped: dropped, next: displayed.next(shown: [], freshFrom: freshFrom))
        case 1:
            kind = .single
            content = single(notifications[kept[0]], key: shownKeys[0], app: app, maxUnits: request.maxUnits)
        default:
            if let thread = sharedMessageThread(notifications, kept) {
                kind = .bundle
                content = bundle(notifications, kept, thread: thread, app: app, maxUnits: request.maxUnits)
            } else {
                kind = .summary
                content = summary(count: kept.count, app: app, maxUnits: request.maxUnits)
            }
        }
        let shown = zip(shownKeys, kept).map { DisplayedEntry(key: $0, timestamp: notifications[$1].timestamp) }
        return ComposeResponse(
            kind: kind, reason: nil, notification: content,
            shown: shownKeys, dropped: dropped,
            displayed: displayed.next(shown: shown, freshFrom: freshFrom)
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
    static func sharedMessageThread(_ notifications: [PendingNotification], _ kept: [Int]) -> String? {
        guard let thread = notifications[kept[0]].thread, !thread.isEmpty else { return nil }
        for index in kept {
            guard notifications[index].isMessage, let other = notifications[index].thread,
                  CodePoints.equal(other, thread)
            else { return nil }
        }
        return thread
    }

    /// `kept`: positions in `notifications`, newest first.
    static func bundle(_ notifications: [PendingNotification], _ kept: [Int], thread: String, app: String, maxUnits: Int) -> ComposeResponse.Content {
        let title = kept.lazy.compactMap { PlainText.normalised(notifications[$0].threadTitle) }.first ?? app

        var names: [String] = []
        var seenNames = Set<ExactString>()
        for index in kept {
            if let name = PlainText.normalised(notifications[index].sender?.name), seenNames.insert(ExactString(name)).inserted {
                names.append(name)
            }
        }

        let newest = notifications[kept[0]]
        var body = count(kept.count, "new message", "new messages")
        var inputCut = false
        if let text = newest.text {
            let preview = BodyRenderer.renderUncapped(text)
            if !preview.text.isEmpty {
                let prefix = PlainText.normalised(newest.sender?.name).map { $0 + ": " } ?? ""
                body += "\n" + prefix + preview.text
                inputCut = preview.inputCut
            }
        }
        return .init(
            title: PlainText.capped(title),
            subtitle: PlainText.senderList(names).map(PlainText.capped),
            body: BodyCap.apply(body, maxUnits: maxUnits, inputCut: inputCut).body,
            threadIdentifier: thread,
            url: newest.url
        )
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
            body: BodyCap.apply("There might be new activity on \(app).", maxUnits: request.maxUnits, inputCut: false).body,
            threadIdentifier: nil,
            url: nil
        )
        return ComposeResponse(
            kind: .fallback, reason: reason, notification: content, shown: [], dropped: dropped,
            displayed: next
        )
    }

    /// `1 new message` / `N new messages`.
    static func count(_ n: Int, _ singular: String, _ plural: String) -> String {
        n == 1 ? "1 \(singular)" : "\(n) \(plural)"
    }
}
