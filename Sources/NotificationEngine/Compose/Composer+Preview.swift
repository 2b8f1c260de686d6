/// What a request asks beyond the notification of compose.md 6.1: its
/// preview tier (C11) and its push payloads (push.md). Run only when the
/// request has a `preview` other than `full` or a `push` member, so a
/// compose without them costs what it did.
extension Composer {
    /// Applies the request's tier to `response`, then builds its `push`.
    @inline(never)
    static func finish(_ response: inout ComposeResponse, for request: ComposeRequest) {
        let kept = keptRecords(of: response, in: request)
        if request.preview != .full { applyPreview(request.preview, to: &response, request: request, kept: kept) }
        if let options = request.push {
            response.push = PushBuilder.answer(options, request: request, response: response, kept: kept)
        }
    }

    /// The positions in `request.notificationRecords` of the shown keys,
    /// newest first: a shown key is the range of its notification's key.
    static func keptRecords(of response: ComposeResponse, in request: ComposeRequest) -> [Int] {
        guard !response.shownIndices.isEmpty else { return [] }
        var positions: [TextRange: Int] = [:]
        positions.reserveCapacity(request.notificationRecords.count)
        for (index, record) in request.notificationRecords.enumerated() { positions[record.key] = index }
        return response.shownIndices.compactMap { positions[response.records[$0].key] }
    }

    /// C11: `sender` replaces the body of a single or bundle with the
    /// catalog's; `none` also makes the title the app and drops the subtitle.
    static func applyPreview(
        _ tier: PreviewTier, to response: inout ComposeResponse, request: ComposeRequest, kept: [Int]
    ) {
        let old = response.notification
        let catalog = request.catalog
        var texts = ComposedTexts.Writer(
            capacity: 2 * PlainText.titleMaxUnits + old.title.utf8.count + (old.subtitle?.utf8.count ?? 0)
                + (old.threadIdentifier?.utf8.count ?? 0) + (old.url?.utf8.count ?? 0) + 64)
        func append(_ text: String?) -> TextRange {
            guard var text else { return .absent }
            return text.withUTF8 { texts.append($0) }
        }
        let title: TextRange
        let subtitle: TextRange
        if tier == .none {
            title = appendCapped(app(of: request), into: &texts, maxUnits: PlainText.titleMaxUnits)
            subtitle = .absent
        } else {
            title = append(old.title)
            subtitle = append(old.subtitle)
        }
        let body: TextRange
        switch response.kind {
        case .single:
            let isMessage = kept.first.map { request.notificationRecords[$0].isMessage } ?? false
            body = appendMessage(
                isMessage ? .messageFallback : .notificationFallback, MessageValues(), catalog: catalog, into: &texts,
                maxUnits: request.maxUnits)
        case .bundle:
            body = appendMessage(
                .bundleCount, MessageValues(count: response.shownIndices.count), catalog: catalog, into: &texts,
                maxUnits: request.maxUnits)
        case .summary, .fallback:
            body = append(old.body)
        }
        let threadIdentifier = append(old.threadIdentifier)
        let url = append(old.url)
        response.replaceTexts(
            texts.texts(title: title, subtitle: subtitle, body: body, threadIdentifier: threadIdentifier, url: url))
    }

    /// The app name the texts use: the request's, normalised, else the server's.
    static func app(of request: ComposeRequest) -> String {
        request.bytes.withUnsafeBufferPointer { bytes in
            PlainText.normalisedString(bytes[request.appRange]) ?? PlainText.normalised(request.serverApp)
                ?? ComposeRequest.defaultApp
        }
    }
}
