/// The caller's `displayed` entries, indexed once by key (code points): answers
/// the `displayed` drop and builds the next state to persist.
///
/// Up to 10,000 entries arrive per request, so the index is a small open-
/// addressing table of entry positions with each key's full hash beside it,
/// rather than a `Dictionary` of strings: nothing is retained per entry, and
/// keys are compared byte-wise only when full hashes match. Hashes come from
/// the stdlib's randomly seeded `Hasher`, so crafted keys cannot force collisions.
struct DisplayedState {
    private let entries: [DisplayedEntry]
    /// Power-of-two table, at most half full; `index == -1` marks an empty slot.
    private var slots: [Slot]
    /// Slots in use: per key, its latest entry; at equal instants the first in
    /// request order, so the persisted text does not change between calls.
    private var usedSlots: [Int] = []

    private struct Slot {
        var hash: Int
        var index: Int32
    }

    init(_ entries: [DisplayedEntry]) {
        self.entries = entries
        var capacity = 16
        while capacity < 2 * entries.count { capacity *= 2 }
        slots = Array(repeating: Slot(hash: 0, index: -1), count: capacity)
        usedSlots.reserveCapacity(entries.count)
        for index in entries.indices {
            let key = entries[index].key
            let hash = Self.hash(key)
            let slot = find(key, hash: hash)
            let kept = slots[slot].index
            if kept < 0 {
                slots[slot] = Slot(hash: hash, index: Int32(index))
                usedSlots.append(slot)
            } else if entries[index].timestamp.instant > entries[Int(kept)].timestamp.instant {
                slots[slot].index = Int32(index)
            }
        }
    }

    /// Whether the caller has displayed `key` (any entry, fresh or not).
    func contains(_ key: String) -> Bool {
        slots[find(key, hash: Self.hash(key))].index >= 0
    }

    /// The next state: each key's latest entry when still fresh
    /// (`timestamp ≥ now − maxAgeSeconds`, the negation of `stale`), plus every
    /// shown notification; newest first, equal instants by key; at most
    /// `ComposeRequest.maxDisplayedOutput` entries.
    /// - Precondition: no shown key is in this state (such notifications are dropped as `displayed`).
    func next(shown: [DisplayedEntry], freshFrom: Instant) -> [DisplayedEntry] {
        // Positions below entries.count are request entries, the rest shown ones.
        var positions: [Int] = []
        positions.reserveCapacity(usedSlots.count + shown.count)
        for slot in usedSlots {
            let index = Int(slots[slot].index)
            if !(entries[index].timestamp.instant < freshFrom) { positions.append(index) }
        }
        positions.append(contentsOf: entries.count..<(entries.count + shown.count))
        func entry(_ position: Int) -> DisplayedEntry {
            position < entries.count ? entries[position] : shown[position - entries.count]
        }
        let order = NewestFirst.order(
            count: positions.count, limit: ComposeRequest.maxDisplayedOutput,
            instant: { positions[$0] < entries.count ? entries[positions[$0]].timestamp.instant : shown[positions[$0] - entries.count].timestamp.instant },
            key: { positions[$0] < entries.count ? entries[positions[$0]].key : shown[positions[$0] - entries.count].key }
        )
        return order.map { entry(positions[$0]) }
    }

    /// The slot holding `key`, or the empty slot where it would go (linear probing).
    private func find(_ key: String, hash: Int) -> Int {
        let mask = slots.count - 1
        var slot = hash & mask
        while true {
            let candidate = slots[slot]
            if candidate.index < 0 { return slot }
            if candidate.hash == hash, CodePoints.equal(entries[Int(candidate.index)].key, key) { return slot }
            slot = (slot + 1) & mask
        }
    }

    /// The key's hash over its UTF-8 bytes (code points, not canonical equivalence).
    static func hash(_ key: String) -> Int {
        var hasher = Hasher()
        ExactString(key).hash(into: &hasher)
        return hasher.finalize()
    }
}
