/// From one screen to the next (compose.md C10, C14, S1 to S3): the group
/// key the answer is shown under, the next displayed state of a fallback
/// for a failed fetch, and the transition a request with `push` gets.
extension Composer {
    /// The group source of a fallback, and so its group key (C14).
    package static let fallbackGroupKey = "fallback"

    /// G of C14 for the group source `source` (UTF-8).
    static func groupKey(of source: UnsafeBufferPointer<UInt8>) -> String {
        if PushBuilder.isPlainGroupKey(source) { return String(decoding: source, as: UTF8.self) }
        return PushBuilder.digest(source)
    }

    /// Whether the entry at `a` (its moment, key and group) comes before
    /// the one at `b` in the order of C10 step 4: newest first; at equal
    /// instants entries with a key first, keys in code-point order, then
    /// groups in code-point order.
    @inline(__always)
    static func precedes(
        _ a: Moment, _ aKey: UnsafeBufferPointer<UInt8>?, _ aGroup: UnsafeBufferPointer<UInt8>?,
        _ b: Moment, _ bKey: UnsafeBufferPointer<UInt8>?, _ bGroup: UnsafeBufferPointer<UInt8>?,
        in bytes: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        if Moment.less(b, a, in: bytes) { return true }
        if Moment.less(a, b, in: bytes) { return false }
        switch (aKey, bKey) {
        case (let x?, let y?): return CodePoints.compareBytes(x, y) < 0
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil):
            return CodePoints.compareBytes(
                aGroup ?? UnsafeBufferPointer(start: nil, count: 0), bGroup ?? .init(start: nil, count: 0)) < 0
        }
    }

    /// Whether D's entry at `a` comes before its entry at `b` (C10 step 4).
    @inline(__always)
    static func precedes(
        _ a: Int, _ b: Int, entries: UnsafeBufferPointer<ComposeRequest.DisplayedRecord>,
        in bytes: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        precedes(
            entries[a].moment, bytes[entries[a].key], bytes[entries[a].group], entries[b].moment,
            bytes[entries[b].key], bytes[entries[b].group], in: bytes)
    }

    /// S1's groups: the groups of D's entries other than `excluded` (none
    /// when nil), each once, in D's order (C10 step 4): a group comes where
    /// its first entry in that order does.
    static func withdrawnGroups<Hashing: KeyHashing>(
        _ state: DisplayedState<Hashing>, excluding excluded: UnsafeBufferPointer<UInt8>?,
        entries: UnsafeBufferPointer<ComposeRequest.DisplayedRecord>, bytes: UnsafeBufferPointer<UInt8>
    ) -> [String] {
        // Each group with the first of its entries in D's order: at most 16 groups.
        var firsts = SixteenSlots<Int32>(repeating: 0)
        var count = 0
        state.forEachEntry { index, _ in
            guard let group = bytes[entries[index].group] else { return }
            if let excluded, CodePoints.equalBytes(group, excluded) { return }
            var noted = 0
            while noted < count {
                let first = Int(firsts[noted])
                if CodePoints.equalBytes(bytes[present: entries[first].group], group) {
                    if precedes(index, first, entries: entries, in: bytes) {
                        firsts[noted] = Int32(truncatingIfNeeded: index)
                    }
                    return
                }
                noted += 1
            }
            precondition(count < 16, "more groups than a request may name")
            firsts[count] = Int32(truncatingIfNeeded: index)
            count += 1
        }
        guard count > 0 else { return [] }
        // Insertion sort of at most 16, by D's order.
        var sorted = 1
        while sorted < count {
            let next = firsts[sorted]
            var place = sorted
            while place > 0, precedes(Int(next), Int(firsts[place - 1]), entries: entries, in: bytes) {
                firsts[place] = firsts[place - 1]
                place -= 1
            }
            firsts[place] = next
            sorted += 1
        }
        var groups: [String] = []
        groups.reserveCapacity(count)
        for index in 0..<count {
            groups.append(String(decoding: bytes[present: entries[Int(firsts[index])].group], as: UTF8.self))
        }
        return groups
    }

    /// What S3 and S6 read besides D: the answer's `now` (its text and
    /// instant), the alert window, and whether `push.activeUntil` is later
    /// than `now`.
    struct Screen {
        let now: TextRange
        let nowMoment: Moment
        let windowSeconds: Int
        let isActiveElsewhere: Bool
        /// Whether the request has `push`: then each entry records `digest`, `alerted` and `direct`.
        let hasPush: Bool
        /// The request's `displayedExtras`, which entries point into.
        let extrasRows: UnsafeBufferPointer<ComposeRequest.DisplayedRecord.Extras>

        /// What `entry` records of the payloads (none when it has no `Extras`).
        @inline(__always)
        func extras(_ entry: ComposeRequest.DisplayedRecord) -> ComposeRequest.DisplayedRecord.Extras {
            entry.extrasIndex < 0 ? .init() : extrasRows[Int(entry.extrasIndex)]
        }
    }

    /// S1 to S3 and S6 for a fetch `ok` that kept the notifications at
    /// `kept` (the drops made in `state`), shown under `groupKey`. Walks D,
    /// not the kept keys: D's keys are distinct, so counting D's entries
    /// whose key was kept is counting the kept keys that have an entry.
    /// S2's comparison of digests waits for the tier (`settleDigest`).
    static func transition<Hashing: KeyHashing>(
        _ state: DisplayedState<Hashing>, kept: UnsafeBufferPointer<NewestFirst.Record>, groupKey: String,
        screen: Screen, entries: UnsafeBufferPointer<ComposeRequest.DisplayedRecord>,
        notifications: UnsafeBufferPointer<ComposeRequest.NotificationRecord>, bytes: UnsafeBufferPointer<UInt8>
    ) -> ComposeResponse.Transition {
        var groupKey = groupKey
        return groupKey.withUTF8 { g in
            var underG = 0, keptUnderG = 0, keptWithEntry = 0, directWithEntry = 0, lowWithEntry = 0, highWithEntry = 0
            var hasOtherGroup = false, madeDirect = false, madeDirectAlerts = false
            var digest = TextRange.absent, digestsDiffer = false
            // The entry under G with the latest `alerted` (ties: the first in D's order).
            var alerted = -1
            state.forEachEntryWithNotification { index, notification in
                let entry = entries[index]
                let extras = screen.extras(entry)
                var isUnderG = false
                if let group = bytes[entry.group] {
                    isUnderG = CodePoints.equalBytes(group, g)
                    if isUnderG { underG += 1 } else { hasOtherGroup = true }
                }
                if isUnderG, let entryDigest = bytes[extras.digest] {
                    if let first = bytes[digest] {
                        digestsDiffer = digestsDiffer || !CodePoints.equalBytes(first, entryDigest)
                    } else {
                        digest = extras.digest
                    }
                }
                if isUnderG, !extras.alerted.isAbsent,
                    alerted < 0 || laterAlert(index, than: alerted, screen: screen, entries: entries, bytes: bytes)
                {
                    alerted = index
                }
                guard notification >= 0 else { return }
                keptWithEntry += 1
                if isUnderG { keptUnderG += 1 }
                // A low notification alerts for nothing, not even for being direct (S3).
                let importance = Importance.of(bytes[notifications[notification].ranges[.importance]])
                if KeptFacts.isDirect(bytes[notifications[notification].type]) {
                    if extras.direct == 0 { madeDirect = true }
                    if importance != .low {
                        directWithEntry += 1
                        if extras.direct == 0 { madeDirectAlerts = true }
                    }
                }
                switch importance {
                case .low: lowWithEntry += 1
                case .high: highWithEntry += 1
                case .normal: break
                }
            }
            var directKept = 0, lowKept = 0, highKept = 0
            for record in kept {
                let notification = notifications[Int(record.index)]
                let importance = Importance.of(bytes[notification.ranges[.importance]])
                if importance != .low, KeptFacts.isDirect(bytes[notification.type]) { directKept += 1 }
                switch importance {
                case .low: lowKept += 1
                case .high: highKept += 1
                case .normal: break
                }
            }
            // S3: a new direct or high key, a key made direct, or a new key
            // that is not low outside the window.
            let newKey = keptWithEntry - lowWithEntry < kept.count - lowKept
            let inWindow =
                alerted >= 0 && screen.windowSeconds > 0
                && Moment.less(
                    screen.nowMoment.adding(seconds: -Int64(screen.windowSeconds)),
                    screen.extras(entries[alerted]).alertedMoment,
                    in: bytes)
            let alert =
                directKept > directWithEntry || madeDirectAlerts || highKept > highWithEntry || (newKey && !inWindow)
            if alert, screen.isActiveElsewhere {
                return ComposeResponse.Transition(send: false, alert: false, withdraw: [], held: true)
            }
            // S2 (without the digests): the device shows exactly K under G,
            // and no key of K was made direct.
            let sameKeys = underG == keptUnderG && keptUnderG == kept.count
            var transition = ComposeResponse.Transition(
                send: !sameKeys || madeDirect, alert: alert,
                withdraw: hasOtherGroup ? withdrawnGroups(state, excluding: g, entries: entries, bytes: bytes) : [])
            transition.digestUnderG = digest
            transition.digestsDiffer = digestsDiffer
            transition.latestAlerted = alerted < 0 ? .absent : screen.extras(entries[alerted]).alerted
            return transition
        }
    }

    /// Whether D's entry at `a` has a later `alerted` than the one at `b`,
    /// or the same instant and comes first in D's order (both have one).
    private static func laterAlert(
        _ a: Int, than b: Int, screen: Screen, entries: UnsafeBufferPointer<ComposeRequest.DisplayedRecord>,
        bytes: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        let (x, y) = (screen.extras(entries[a]).alertedMoment, screen.extras(entries[b]).alertedMoment)
        if Moment.less(y, x, in: bytes) { return true }
        if Moment.less(x, y, in: bytes) { return false }
        return precedes(a, b, entries: entries, in: bytes)
    }

    /// C10 step 1 for a failed or timed-out fetch, or step 5 for a held
    /// answer: D in C10's order, at most its limit, appended to `records`
    /// (with what each entry records, to `extras`, for a request with
    /// `push`: `screen`); for a failed fetch, the entry of a fallback
    /// notification unless D has one, or the answer is held. And S1 to S3
    /// and S6 for a failed fetch (nothing withdrawn; an alert unless a
    /// fallback is on the device already, held while active elsewhere).
    static func appendCarriedOver<Hashing: KeyHashing>(
        _ state: DisplayedState<Hashing>, addingFallback: Bool, screen: Screen,
        entries: UnsafeBufferPointer<ComposeRequest.DisplayedRecord>, bytes: UnsafeBufferPointer<UInt8>,
        to records: inout [ComposeResponse.KeyRecord], extras: inout [ComposeResponse.EntryExtras]
    ) -> ComposeResponse.Transition {
        var fallback = fallbackGroupKey
        return fallback.withUTF8 { fallback in
            var order: [Int] = []
            order.reserveCapacity(state.entryCount + 1)
            var hasFallback = false
            state.forEachEntry { index, _ in
                order.append(index)
                if bytes[entries[index].key] == nil,
                    CodePoints.equalBytes(bytes[present: entries[index].group], fallback)
                {
                    hasFallback = true
                }
            }
            let held = addingFallback && !hasFallback && screen.isActiveElsewhere
            // -1 stands for the fallback entry this answer records.
            if addingFallback && !hasFallback && !held { order.append(-1) }
            let now = screen.nowMoment
            func item(_ index: Int) -> (Moment, UnsafeBufferPointer<UInt8>?, UnsafeBufferPointer<UInt8>?) {
                index < 0
                    ? (now, nil, fallback)
                    : (entries[index].moment, bytes[entries[index].key], bytes[entries[index].group])
            }
            order.sort { a, b in
                let (x, y) = (item(a), item(b))
                return precedes(x.0, x.1, x.2, y.0, y.1, y.2, in: bytes)
            }
            // C10 step 4: the fallback entry is never cut; past the cap it
            // takes the place of the last entry kept.
            var kept = order.prefix(ComposeRequest.maxDisplayedOutput)
            if order.count > kept.count,
                let position = order.firstIndex(where: { index in
                    index < 0
                        || (bytes[entries[index].key] == nil
                            && CodePoints.equalBytes(bytes[present: entries[index].group], fallback))
                }), position >= kept.count
            {
                kept = order.prefix(kept.count - 1) + [order[position]]
            }
            for index in kept {
                if index < 0 {
                    records.append(.init(key: .absent, timestamp: screen.now, answerGroup: true))
                    if screen.hasPush {
                        extras.append(.init(isAnswerDigest: true, alerted: screen.now, direct: 0))
                    }
                } else {
                    let entry = entries[index]
                    records.append(
                        .init(key: entry.key, timestamp: entry.timestamp, group: entry.group, answerGroup: false))
                    if screen.hasPush {
                        let carried = screen.extras(entry)
                        extras.append(
                            .init(
                                digest: carried.digest, alerted: carried.alerted, direct: carried.direct)
                        )
                    }
                }
            }
            let alert = addingFallback && !hasFallback && !held
            return ComposeResponse.Transition(send: alert, alert: alert, withdraw: [], held: held)
        }
    }
}
