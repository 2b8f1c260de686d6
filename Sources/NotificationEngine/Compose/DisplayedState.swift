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
///
/// It reads the input through buffer pointers: use it only within the call
/// that lent them (`Composer.compose`).
struct DisplayedState<Hashing: KeyHashing> {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let entries: UnsafeBufferPointer<ComposeRequest.DisplayedRecord>
    private let notifications: UnsafeBufferPointer<ComposeRequest.NotificationRecord>
    /// Power-of-two table, at most half full.
    private let slots: UnsafeMutableBufferPointer<Slot>
    /// Slots holding a displayed key, in the order first seen: per key, its
    /// latest entry; at equal instants the first in request order, so the
    /// persisted text does not change between calls.
    private let displayedSlots: UnsafeBufferPointer<Int32>
    private let hasher = Hashing()

    /// One key: the positions plus one of its kept `displayed` entry and of
    /// its first notification in the request, each 0 when there is none, so
    /// an empty table is all zero bytes. A slot with neither is empty.
    private struct Slot {
        /// The high half of the key's hash (the low bits chose the slot).
        var hash: UInt32
        var entry: Int32
        var notification: Int32

        var isEmpty: Bool { entry | notification == 0 }
    }

    /// What `claim` found for a notification's key.
    enum Claim {
        /// An earlier notification of the request has the key.
        case duplicate
        /// The first notification with this key; `displayed` when the caller has shown it.
        case first(displayed: Bool)
    }

    /// Calls `body` with the state of `entries` indexed; `notifications` are
    /// the ones `claim` will be asked about. The table lives only during the
    /// call (on the stack for a typical request: `ComposeScratch`).
    static func with<R>(
        bytes: UnsafeBufferPointer<UInt8>, entries: UnsafeBufferPointer<ComposeRequest.DisplayedRecord>,
        notifications: UnsafeBufferPointer<ComposeRequest.NotificationRecord>, _ body: (inout DisplayedState) -> R
    ) -> R {
        precondition(
            entries.count + notifications.count <= Hashing.maxKeys, "more keys than the hashing is made for")
        var capacity = 16
        while capacity < 2 * (entries.count + notifications.count) { capacity *= 2 }
        let slotBytes = capacity * MemoryLayout<Slot>.stride
        return ComposeScratch.withBytes(slotBytes + entries.count * MemoryLayout<Int32>.stride) { scratch in
            // Zeroed 1 KB at a time: one memset of a large table (glibc's
            // `rep stosb` from 2 KB) left it slower to probe afterwards.
            // "compose 1000 pending + 10000 displayed" (a 384 KB table):
            // about 440 µs this way, about 690 µs with one memset.
            var zeroed = 0
            while zeroed < slotBytes {
                let end = min(slotBytes, zeroed + 1_024)
                UnsafeMutableRawBufferPointer(rebasing: scratch[zeroed..<end]).initializeMemory(
                    as: UInt8.self, repeating: 0)
                zeroed = end
            }
            let slots = UnsafeMutableRawBufferPointer(rebasing: scratch[..<slotBytes]).bindMemory(to: Slot.self)
            let displayedSlots = UnsafeMutableRawBufferPointer(rebasing: scratch[slotBytes...]).bindMemory(
                to: Int32.self)
            var state = DisplayedState(
                bytes: bytes, entries: entries, notifications: notifications, slots: slots,
                displayedSlots: displayedSlots)
            return body(&state)
        }
    }

    /// Indexes `entries` into the zeroed `slots`, noting in `displayedSlots`
    /// (room for one per entry) the slot of each distinct key.
    private init(
        bytes: UnsafeBufferPointer<UInt8>, entries: UnsafeBufferPointer<ComposeRequest.DisplayedRecord>,
        notifications: UnsafeBufferPointer<ComposeRequest.NotificationRecord>,
        slots: UnsafeMutableBufferPointer<Slot>, displayedSlots: UnsafeMutableBufferPointer<Int32>
    ) {
        self.bytes = bytes
        self.entries = entries
        self.notifications = notifications
        self.slots = slots
        var distinct = 0
        for index in entries.indices {
            let key = bytes[present: entries[index].key]
            let hash = hasher.hash(key)
            let slot = Self.find(
                key, hash: hash, in: slots, bytes: bytes, entries: entries, notifications: notifications)
            let kept = slots[slot].entry
            if kept == 0 {
                slots[slot] = Slot(
                    hash: UInt32(truncatingIfNeeded: hash &>> 32), entry: Int32(truncatingIfNeeded: index + 1),
                    notification: 0)
                displayedSlots[distinct] = Int32(truncatingIfNeeded: slot)
                distinct += 1
            } else if Moment.less(entries[Int(kept) - 1].moment, entries[index].moment, in: bytes) {
                slots[slot].entry = Int32(truncatingIfNeeded: index + 1)
            }
        }
        self.displayedSlots = UnsafeBufferPointer(rebasing: displayedSlots[..<distinct])
    }

    /// Looks up the key of the notification at `position` and records it as seen.
    /// - Precondition: each position is claimed once, in increasing order.
    @inline(__always)
    mutating func claim(_ position: Int) -> Claim {
        let key = bytes[present: notifications[position].key]
        let hash = hasher.hash(key)
        let slot = Self.find(
            key, hash: hash, in: slots, bytes: bytes, entries: entries, notifications: notifications)
        if slots[slot].notification != 0 { return .duplicate }
        let displayed = slots[slot].entry != 0
        slots[slot].hash = UInt32(truncatingIfNeeded: hash &>> 32)
        slots[slot].notification = Int32(truncatingIfNeeded: position + 1)
        return .first(displayed: displayed)
    }

    /// How many distinct keys the displayed entries have: the next state
    /// holds at most this many of them, and the shown notifications.
    var entryKeyCount: Int { displayedSlots.count }

    /// Appends the next state to `records`: each key's latest entry when
    /// still fresh (`timestamp ≥ now − maxAgeSeconds`, the negation of
    /// `stale`), plus every shown notification; newest first, equal instants
    /// by key; at most `ComposeRequest.maxDisplayedOutput` entries.
    /// - Parameter shown: the shown notifications, newest first (step 3's order).
    /// - Precondition: no shown key is in this state (such notifications are dropped as `displayed`).
    func appendNext(
        shown: UnsafeBufferPointer<NewestFirst.Record>, freshFrom: Moment, to records: inout [ComposeResponse.KeyRecord]
    ) {
        ComposeScratch.withBuffer(of: NewestFirst.Record.self, count: displayedSlots.count) { scratch in
            var freshCount = 0
            for slot in displayedSlots {
                let index = Int(slots[Int(slot)].entry) - 1
                if !Moment.less(entries[index].moment, freshFrom, in: bytes) {
                    scratch[freshCount] = .init(entries[index].moment, index: index)
                    freshCount += 1
                }
            }
            // Usually newest first already (the caller sends back the state
            // compose returned), which `sort` checks first: then a merge is all it takes.
            let (bytes, entries) = (self.bytes, self.entries)
            let sorted = NewestFirst.sort(
                UnsafeMutableBufferPointer(rebasing: scratch[..<freshCount]), limit: ComposeRequest.maxDisplayedOutput
            ) { a, b in
                NewestFirst.tieOrder(entries[a].moment, entries[a].key, entries[b].moment, entries[b].key, in: bytes)
            }
            appendMerged(fresh: UnsafeBufferPointer(rebasing: scratch[..<sorted]), shown: shown, to: &records)
        }
    }

    /// Appends the first `maxDisplayedOutput` of `fresh` entries and `shown`
    /// notifications, each newest first, merged.
    private func appendMerged(
        fresh: UnsafeBufferPointer<NewestFirst.Record>, shown: UnsafeBufferPointer<NewestFirst.Record>,
        to next: inout [ComposeResponse.KeyRecord]
    ) {
        let limit = ComposeRequest.maxDisplayedOutput
        let (bytes, entries, notifications) = (self.bytes, self.entries, self.notifications)
        let count = min(limit, fresh.count + shown.count)
        next.reserveCapacity(next.count + count)
        var f = 0, s = 0
        while f + s < count {
            let takesFresh: Bool
            if f == fresh.count {
                takesFresh = false
            } else if s == shown.count {
                takesFresh = true
            } else if fresh[f].time != shown[s].time {
                takesFresh = shown[s].time < fresh[f].time
            } else {
                let x = Int(fresh[f].index), y = Int(shown[s].index)
                takesFresh = NewestFirst.tieOrder(
                    entries[x].moment, entries[x].key, notifications[y].moment, notifications[y].key, in: bytes)
            }
            if takesFresh {
                let index = Int(fresh[f].index)
                next.append(.init(key: entries[index].key, timestamp: entries[index].timestamp))
                f += 1
            } else {
                let index = Int(shown[s].index)
                next.append(.init(key: notifications[index].key, timestamp: notifications[index].timestamp))
                s += 1
            }
        }
    }

    /// The slot holding `key`, or the empty slot where it would go (linear probing).
    @inline(__always)
    private static func find(
        _ key: UnsafeBufferPointer<UInt8>, hash: UInt64, in slots: UnsafeMutableBufferPointer<Slot>,
        bytes: UnsafeBufferPointer<UInt8>, entries: UnsafeBufferPointer<ComposeRequest.DisplayedRecord>,
        notifications: UnsafeBufferPointer<ComposeRequest.NotificationRecord>
    ) -> Int {
        let mask = slots.count - 1
        let high = UInt32(truncatingIfNeeded: hash &>> 32)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let candidate = slots[slot]
            if candidate.isEmpty { return slot }
            if candidate.hash == high {
                let other =
                    candidate.entry != 0
                    ? entries[Int(candidate.entry) - 1].key : notifications[Int(candidate.notification) - 1].key
                if CodePoints.equalBytes(bytes[present: other], key) { return slot }
            }
            slot = (slot + 1) & mask
        }
    }
}
