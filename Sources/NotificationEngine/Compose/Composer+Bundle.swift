// MARK: Step 6: a bundle of one thread's messages

extension Composer {
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

    // Out of line: called once per request, it is kept out of composeFetched's loops.
    /// `kept`: positions in `notifications`, newest first.
    @inline(never)
    static func bundle(
        _ notifications: UnsafeBufferPointer<ComposeRequest.NotificationRecord>,
        _ kept: UnsafeBufferPointer<NewestFirst.Record>, thread: UnsafeBufferPointer<UInt8>,
        bytes: UnsafeBufferPointer<UInt8>, app: String, catalog: Catalog,
        maxUnits: Int, texts storage: inout [UInt8]
    ) -> ComposedTexts {
        let newest = notifications[Int(kept[0].index)]
        let text = bytes[newest.text]
        var texts = ComposedTexts.Writer(
            capacity: 3 * PlainText.titleMaxUnits + thread.count + (text?.count ?? 0)
                + ComposedTexts.Writer.copiedByteCount(of: newest), reusing: &storage)
        var title = TextRange.absent
        for record in kept where title.isAbsent {
            PlainText.withNormalised(bytes[notifications[Int(record.index)].threadTitle]) { threadTitle in
                guard let threadTitle else { return }
                title = texts.appendCapped(threadTitle, maxUnits: PlainText.titleMaxUnits, inputCut: false)
            }
        }
        if title.isAbsent { title = appendCapped(app, into: &texts, maxUnits: PlainText.titleMaxUnits) }
        texts[.title] = title

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

            texts[.subtitle] = appendSenderList(names.values, catalog: catalog, into: &texts)
            let body: TextRange
            if let text {
                body = BodyRenderer.withRenderedBytes(utf8: text) { preview, inputCut in
                    appendBundleBody(
                        count: kept.count, name: newestName, preview: preview, inputCut: inputCut, catalog: catalog,
                        maxUnits: maxUnits, into: &texts)
                }
            } else {
                body = appendBundleBody(
                    count: kept.count, name: nil, preview: MessageValues.none, inputCut: false, catalog: catalog,
                    maxUnits: maxUnits, into: &texts)
            }
            texts[.body] = body
            texts[.threadIdentifier] = texts.append(thread)
            texts.appendCopies(of: newest, from: bytes)
            return texts.texts()
        }
    }

    /// Appends the header `bundle.count`, then (when `preview` is not empty)
    /// a line break and `bundle.preview` with the newest's `name` and
    /// `preview` (the preview alone when it has no name), capped as one body; its range.
    static func appendBundleBody(
        count n: Int, name: UnsafeBufferPointer<UInt8>?, preview: UnsafeBufferPointer<UInt8>, inputCut: Bool,
        catalog: Catalog, maxUnits: Int, into texts: inout ComposedTexts.Writer
    ) -> TextRange {
        let header = MessageValues(count: n)
        guard !preview.isEmpty else {
            return appendMessage(.bundleCount, header, catalog: catalog, into: &texts, maxUnits: maxUnits)
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
            return texts.appendCapped(
                UnsafeBufferPointer(rebasing: buffer[..<written]), maxUnits: maxUnits, inputCut: inputCut)
        }
    }

    /// Appends the subtitle of a bundle's distinct `names` (C6, L13): none
    /// is absent, one is the name itself, more are the catalog's sender
    /// list; through the title cap. Its range, absent for none.
    static func appendSenderList(
        _ names: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>, catalog: Catalog,
        into texts: inout ComposedTexts.Writer
    ) -> TextRange {
        guard names.count > 1 else {
            guard let name = names.first else { return .absent }
            return texts.appendCapped(name, maxUnits: PlainText.titleMaxUnits, inputCut: false)
        }
        let (key, values) = Catalog.senderMessage(names)
        return appendFilledInTitle(key, values, catalog: catalog, into: &texts)
    }
}
