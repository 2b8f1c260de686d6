/// What a request asks beyond the notification of compose.md 6.1: its
/// preview tier (C11) and its push payloads (push.md). Run only when the
/// request has a `preview` other than `full` or a `push` member, so a
/// compose without them costs what it did.
extension Composer {
    /// Applies the request's tier to `response` (`compose` calls it).
    @inline(never)
    static func applyPreview(to response: inout ComposeResponse, for request: ComposeRequest) {
        applyPreview(request.preview, to: &response, request: request, kept: KeptFacts.of(response, in: request))
    }

    /// The `push` member of the answer to `request`, whose compose answer
    /// (its tier applied) is `response`; nil when the request has no `push`.
    /// `shapes`, the caller's for the thread, keeps the last topic's digest.
    ///
    /// It is not a member of `ComposeResponse`: a reference there, even nil,
    /// costs every compose without it (the response's buffers were no longer
    /// handed back to the next request), so the writer takes it beside the
    /// response (`jsonBody(push:)`).
    package static func push(for request: ComposeRequest, response: ComposeResponse, kept shapes: KeptShapes? = nil)
        -> PushAnswer?
    {
        guard let options = request.push else { return nil }
        return PushBuilder.answer(
            options, request: request, response: response, kept: KeptFacts.of(response, in: request), shapes: shapes)
    }

    /// What the tiers and the push payloads read of the kept notifications.
    struct KeptFacts {
        /// The position in `request.notificationRecords` of the newest kept
        /// notification; nil for a fallback.
        let newest: Int?
        /// Whether a kept notification is of type `mention` or `reply` (push.md P9).
        let hasDirect: Bool

        /// The facts of `response.shown`: a shown key is the range of its notification's key.
        /// (A function, not an initializer, whose parameters are owned: the
        /// response and the request would be copied in.)
        static func of(_ response: ComposeResponse, in request: ComposeRequest) -> KeptFacts {
            guard let first = response.shownIndices.first else { return KeptFacts(newest: nil, hasDirect: false) }
            let newestKey = response.records[first].key
            let newest = request.notificationRecords.firstIndex { $0.key == newestKey }
            let hasDirect = request.bytes.withUnsafeBufferPointer { bytes in
                // Direct notifications are few: only their keys are looked up among
                // the shown ones, one by one, or in a sorted copy when there are many.
                let shown = response.shownIndices
                var sortedStarts: [Int32]? = nil
                var lookups = 0
                for record in request.notificationRecords where Self.isDirect(bytes[record.type]) {
                    lookups += 1
                    if sortedStarts == nil && lookups * shown.count > 4096 {
                        sortedStarts = shown.map { response.records[$0].key.start }.sorted()
                    }
                    if let sortedStarts {
                        if Self.contains(sortedStarts, record.key.start) { return true }
                    } else if shown.contains(where: { response.records[$0].key == record.key }) {
                        return true
                    }
                }
                return false
            }
            return KeptFacts(newest: newest, hasDirect: hasDirect)
        }

        // Out of line: inlined, it made composeFetched's loops dearer for a
        // compose without `push` (bench/README.md, "What would come next").
        @inline(never)
        static func isDirect(_ type: UnsafeBufferPointer<UInt8>?) -> Bool {
            guard let type, let start = UnsafeRawPointer(type.baseAddress) else { return false }
            // `type` has the literal's length, 5 or 7: its first four bytes
            // and its last four (overlapping), each compared as one word.
            @inline(__always)
            func equals(_ literal: StaticString) -> Bool {
                let word = UnsafeRawPointer(literal.utf8Start)
                let last = literal.utf8CodeUnitCount - 4
                return start.loadUnaligned(as: UInt32.self) == word.loadUnaligned(as: UInt32.self)
                    && start.loadUnaligned(fromByteOffset: last, as: UInt32.self)
                        == word.loadUnaligned(fromByteOffset: last, as: UInt32.self)
            }
            switch type.count {
            case 5: return equals("reply")
            case 7: return equals("mention")
            default: return false
            }
        }

        /// Whether the sorted `values` hold `value` (a binary search).
        static func contains(_ values: [Int32], _ value: Int32) -> Bool {
            var (low, high) = (0, values.count)
            while low < high {
                let middle = (low + high) / 2
                if values[middle] < value { low = middle + 1 } else { high = middle }
            }
            return low < values.count && values[low] == value
        }
    }

    /// C11: `sender` replaces the body of a single or bundle with the
    /// catalog's; `none` also makes the title the app and drops the subtitle.
    static func applyPreview(
        _ tier: PreviewTier, to response: inout ComposeResponse, request: ComposeRequest, kept: KeptFacts
    ) {
        let old = response.notification
        let catalog = request.catalog
        var texts = ComposedTexts.Writer(
            capacity: 2 * PlainText.titleMaxUnits + 64
                + AnswerMember.allCases.reduce(0) { $0 + (old[$1]?.utf8.count ?? 0) })
        func append(_ text: String?) -> TextRange {
            guard var text else { return .absent }
            return text.withUTF8 { texts.append($0) }
        }
        // The tier rewrites these three; every other member is kept as composed.
        for member in AnswerMember.allCases where member != .title && member != .subtitle && member != .body {
            texts[member] = append(old[member])
        }
        if tier == .none {
            texts[.title] = appendCapped(app(of: request), into: &texts, maxUnits: PlainText.titleMaxUnits)
        } else {
            texts[.title] = append(old.title)
            texts[.subtitle] = append(old.subtitle)
        }
        switch response.kind {
        case .single:
            let isMessage = kept.newest.map { request.notificationRecords[$0].isMessage } ?? false
            texts[.body] = appendMessage(
                isMessage ? .messageFallback : .notificationFallback, MessageValues(), catalog: catalog, into: &texts,
                maxUnits: request.maxUnits)
        case .bundle:
            texts[.body] = appendMessage(
                .bundleCount, MessageValues(count: response.shownIndices.count), catalog: catalog, into: &texts,
                maxUnits: request.maxUnits)
        case .summary, .fallback:
            texts[.body] = append(old.body)
        }
        response.replaceTexts(texts.texts())
    }

    /// The app name the texts use: the request's, normalised, else the server's.
    static func app(of request: ComposeRequest) -> String {
        request.bytes.withUnsafeBufferPointer { bytes in
            PlainText.normalisedString(bytes[request.appRange]) ?? PlainText.normalised(request.serverApp)
                ?? ComposeRequest.defaultApp
        }
    }
}
