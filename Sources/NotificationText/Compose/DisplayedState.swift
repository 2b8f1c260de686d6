/// The keys compose looks up, indexed once by code points: the caller's
/// `displayed` entries (for the `displayed` drop and the next state to persist)
/// and the request's notification keys (for the `duplicate` drop). One table
/// holds both, so each key is hashed once.
///
/// Up to 10,000 entries and 1000 notifications arrive per request, so the index
/// is a small open-addressing table of positions with each key's full hash
/// beside it, rather than a `Dictionary` of strings: nothing is retained per
/// key, and keys are compared byte-wise only when full hashes match. Hashes are
/// `KeyHash`es, randomly keyed per process, so crafted keys cannot force collisions.
struct DisplayedState {
    private let entries: [DisplayedEntry]
    /// Power-of-two table of `slotCount` slots, at most half full.
    private let slots: SlotTable
    private let slotCount: Int
    /// Slots holding a displayed key: per key, its latest entry; at equal
    /// instants the first in request order, so the persisted text does not
    /// change between calls.
    private let displayedSlots: [Int32]
    private let hasher = KeyHash()
    private let notificationCount: Int

    /// One key: the position of its kept `displayed` entry and of its first
    /// notification in the request, each -1 when there is none. A slot with
    /// neither is empty.
    private struct Slot {
        var hash: UInt64
        var entry: Int32
        var notification: Int32

        var isEmpty: Bool { entry < 0 && notification < 0 }
        static let empty = Slot(hash: 0, entry: -1, notification: -1)
    }

    /// The slots in one allocation of a concrete class: an `Array` of them made
    /// with `Array(repeating:count:)` looks up its generic metadata at run time
    /// on every call (some 300 instructions).
    private final class SlotTable: ManagedBuffer<Void, Slot> {}

    /// What `claim` found for a notification's key.
    enum Claim {
        /// An earlier notification of the request has the key.
        case duplicate
        /// The first notification with this key; `displayed` when the caller has shown it.
        case first(displayed: Bool)
    }

    /// - Parameter notificationCount: how many notification keys `claim` will be given.
    init(_ entries: [DisplayedEntry], notificationCount: Int = 0) {
        self.entries = entries
        self.notificationCount = notificationCount
        var capacity = 16
        while capacity < 2 * (entries.count + notificationCount) { capacity *= 2 }
        let slots = unsafeDowncast(SlotTable.create(minimumCapacity: capacity) { _ in }, to: SlotTable.self)
        var displayedSlots: [Int32] = []
        displayedSlots.reserveCapacity(entries.count)
        let hasher = self.hasher
        // Through buffers: no uniqueness or bounds checks per probe.
        entries.withUnsafeBufferPointer { entries in
            slots.withUnsafeMutablePointerToElements { base in
                let slots = UnsafeMutableBufferPointer(start: base, count: capacity)
                slots.initialize(repeating: .empty)
                for index in entries.indices {
                    let hash = hasher.hash(entries[index].key)
                    let slot = Self.find(entries[index].key, hash: hash, in: slots, entries: entries) { _ in "" }
                    let kept = slots[slot].entry
                    if kept < 0 {
                        slots[slot] = Slot(hash: hash, entry: Int32(truncatingIfNeeded: index), notification: -1)
                        displayedSlots.append(Int32(truncatingIfNeeded: slot))
                    } else if entries[Int(kept)].timestamp.instant < entries[index].timestamp.instant {
                        slots[slot].entry = Int32(truncatingIfNeeded: index)
                    }
                }
            }
        }
        self.slotCount = capacity
        self.slots = slots
        self.displayedSlots = displayedSlots
    }

    /// Looks up `keys[position]`, the key of the request's notification at
    /// `position`, and records it as seen.
    /// - Precondition: positions are claimed in increasing order, fewer than
    ///   `notificationCount` of them; `keys` holds every claimed key.
    mutating func claim(_ position: Int, of keys: [String]) -> Claim {
        // Keeps the table at most half full, so probing always ends.
        precondition(position < notificationCount, "more notification keys than the table was sized for")
        let hash = hasher.hash(keys[position])
        let slotCount = self.slotCount
        return entries.withUnsafeBufferPointer { entries in
            slots.withUnsafeMutablePointerToElements { base in
                let slots = UnsafeMutableBufferPointer(start: base, count: slotCount)
                let slot = Self.find(keys[position], hash: hash, in: slots, entries: entries) { keys[$0] }
                if slots[slot].notification >= 0 { return .duplicate }
                let displayed = slots[slot].entry >= 0
                slots[slot].hash = hash
                slots[slot].notification = Int32(truncatingIfNeeded: position)
                return .first(displayed: displayed)
            }
        }
    }

    /// The next state: each key's latest entry when still fresh
    /// (`timestamp ≥ now − maxAgeSeconds`, the negation of `stale`), plus every
    /// shown notification; newest first, equal instants by key; at most
    /// `ComposeRequest.maxDisplayedOutput` entries.
    /// - Precondition: no shown key is in this state (such notifications are dropped as `displayed`).
    func next(shown: [DisplayedEntry], freshFrom: Instant) -> [DisplayedEntry] {
        next(
            shownCount: shown.count, freshFrom: freshFrom,
            shownInstant: { shown[$0].timestamp.instant }, shownKey: { shown[$0].key }, shownEntry: { shown[$0] }
        )
    }

    /// `next(shown:freshFrom:)` with the shown entries given by position, so
    /// compose builds only those that are kept: `shownEntry(i)` is the i-th,
    /// `shownInstant(i)` and `shownKey(i)` its parts.
    func next(
        shownCount: Int, freshFrom: Instant,
        shownInstant: (Int) -> Instant, shownKey: (Int) -> String, shownEntry: (Int) -> DisplayedEntry
    ) -> [DisplayedEntry] {
        let limit = ComposeRequest.maxDisplayedOutput
        var fresh: [NewestFirst.Record] = []
        fresh.reserveCapacity(displayedSlots.count)
        entries.withUnsafeBufferPointer { entries in
            slots.withUnsafeMutablePointerToElements { slots in
                for slot in displayedSlots {
                    let index = Int(slots[Int(slot)].entry)
                    if !(entries[index].timestamp.instant < freshFrom) { fresh.append(.init(entries[index].timestamp.instant, index: index)) }
                }
            }
        }
        var added: [NewestFirst.Record] = []
        added.reserveCapacity(shownCount)
        for index in 0..<shownCount { added.append(.init(shownInstant(index), index: index)) }
        // Both are usually newest first already (the caller sends back the
        // state compose returned; compose passes its shown notifications in
        // order), which `sort` checks first: then a merge is all it takes.
        NewestFirst.sort(&fresh, limit: limit) { a, b in
            NewestFirst.tieOrder(entries[a].timestamp.instant, entries[a].key, entries[b].timestamp.instant, entries[b].key)
        }
        NewestFirst.sort(&added, limit: limit) { a, b in
            NewestFirst.tieOrder(shownInstant(a), shownKey(a), shownInstant(b), shownKey(b))
        }

        let count = min(limit, fresh.count + added.count)
        // Array(unsafeUninitializedCapacity: 0) stores its count into the
        // shared empty-array singleton, a write other threads race with.
        guard count > 0 else { return [] }
        return [DisplayedEntry](unsafeUninitializedCapacity: count) { next, initializedCount in
            var f = 0, a = 0
            for position in 0..<count {
                let takesFresh: Bool
                if f == fresh.count {
                    takesFresh = false
                } else if a == added.count {
                    takesFresh = true
                } else if fresh[f].time != added[a].time {
                    takesFresh = added[a].time < fresh[f].time
                } else {
                    let x = Int(fresh[f].index), y = Int(added[a].index)
                    takesFresh = NewestFirst.tieOrder(entries[x].timestamp.instant, entries[x].key, shownInstant(y), shownKey(y))
                }
                if takesFresh {
                    (next.baseAddress! + position).initialize(to: entries[Int(fresh[f].index)])
                    f += 1
                } else {
                    (next.baseAddress! + position).initialize(to: shownEntry(Int(added[a].index)))
                    a += 1
                }
                initializedCount = position + 1
            }
        }
    }

    /// The slot holding `key`, or the empty slot where it would go (linear
    /// probing). `notificationKey(i)` is the key of the notification at `i`.
    @inline(__always)
    private static func find(
        _ key: String, hash: UInt64, in slots: UnsafeMutableBufferPointer<Slot>,
        entries: UnsafeBufferPointer<DisplayedEntry>, notificationKey: (Int) -> String
    ) -> Int {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let candidate = slots[slot]
            if candidate.isEmpty { return slot }
            if candidate.hash == hash {
                let same = candidate.entry >= 0
                    ? CodePoints.equal(entries[Int(candidate.entry)].key, key)
                    : CodePoints.equal(notificationKey(Int(candidate.notification)), key)
                if same { return slot }
            }
            slot = (slot + 1) & mask
        }
    }
}
