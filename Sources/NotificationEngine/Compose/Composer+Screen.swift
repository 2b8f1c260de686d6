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

    /// S1 to S3 for a fetch `ok` that kept `keptCount` notifications (the
    /// drops made in `state`), shown under `groupKey`. Walks D, not the
    /// kept keys: D's keys are distinct, so counting D's entries whose key
    /// was kept is counting the kept keys that have an entry.
    static func transition<Hashing: KeyHashing>(
        _ state: DisplayedState<Hashing>, keptCount: Int, groupKey: String,
        entries: UnsafeBufferPointer<ComposeRequest.DisplayedRecord>, bytes: UnsafeBufferPointer<UInt8>
    ) -> ComposeResponse.Transition {
        var groupKey = groupKey
        return groupKey.withUTF8 { g in
            // S2: the device shows exactly K under G when every entry of D
            // under G is a kept key's, and every kept key's entry is under G.
            var underG = 0, keptUnderG = 0, keptWithEntry = 0
            var hasOtherGroup = false
            state.forEachEntry { index, isKept in
                var isUnderG = false
                if let group = bytes[entries[index].group] {
                    isUnderG = CodePoints.equalBytes(group, g)
                    if isUnderG { underG += 1 } else { hasOtherGroup = true }
                }
                if isKept {
                    keptWithEntry += 1
                    if isUnderG { keptUnderG += 1 }
                }
            }
            let send = !(underG == keptUnderG && keptUnderG == keptCount)
            // S3: a new key is a kept key without an entry.
            return ComposeResponse.Transition(
                send: send, alert: send && keptWithEntry < keptCount,
                withdraw: hasOtherGroup ? withdrawnGroups(state, excluding: g, entries: entries, bytes: bytes) : [])
        }
    }

    /// C10 step 1 for a failed or timed-out fetch: D, with the entry of a
    /// fallback notification unless D has one, in C10's order, at most its
    /// limit, appended to `records`; and S1 to S3 (nothing withdrawn; an
    /// alert unless a fallback is on the device already).
    static func appendCarriedOver<Hashing: KeyHashing>(
        _ state: DisplayedState<Hashing>, now: TextRange, nowMoment: Moment,
        entries: UnsafeBufferPointer<ComposeRequest.DisplayedRecord>, bytes: UnsafeBufferPointer<UInt8>,
        to records: inout [ComposeResponse.KeyRecord]
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
            // -1 stands for the fallback entry this answer records.
            if !hasFallback { order.append(-1) }
            func item(_ index: Int) -> (Moment, UnsafeBufferPointer<UInt8>?, UnsafeBufferPointer<UInt8>?) {
                index < 0
                    ? (nowMoment, nil, fallback)
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
                    records.append(.init(key: .absent, timestamp: now, answerGroup: true))
                } else {
                    let entry = entries[index]
                    records.append(
                        .init(key: entry.key, timestamp: entry.timestamp, group: entry.group, answerGroup: false))
                }
            }
            return ComposeResponse.Transition(send: !hasFallback, alert: !hasFallback, withdraw: [])
        }
    }
}
