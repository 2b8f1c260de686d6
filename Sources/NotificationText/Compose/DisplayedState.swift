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
struct DisplayedState {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let entries: UnsafeBufferPointer<ComposeRequest.DisplayedRecord>
    private let notifications: UnsafeBufferPointer<ComposeRequest.NotificationRecord>
    /// Power-of-two table of `slotCount` slots, at most half full.
    private let slots: SlotTable
    private let slotCount: Int
    /// Slots holding a displayed key: per key, its latest entry; at equal
    /// instants the first in request order, so the persisted text does not
    /// change between calls.
    private let displayedSlots: [Int32]
    private let hasher = KeyHash()

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

    /// Indexes `entries`; `notifications` are the ones `claim` will be asked about.
    init(
        bytes: UnsafeBufferPointer<UInt8>, entries: UnsafeBufferPointer<ComposeRequest.DisplayedRecord>,
        notifications: UnsafeBufferPointer<ComposeRequest.NotificationRecord>
    ) {
        self.bytes = bytes
        self.entries = entries
        self.notifications = notifications
        var capacity = 16
        while capacity < 2 * (entries.count + notifications.count) { capacity *= 2 }
        let slots = unsafeDowncast(SlotTable.create(minimumCapacity: capacity) { _ in }, to: SlotTable.self)
        var displayedSlots: [Int32] = []
        displayedSlots.reserveCapacity(entries.count)
        let hasher = self.hasher
        slots.withUnsafeMutablePointerToElements { base in
            let slots = UnsafeMutableBufferPointer(start: base, count: capacity)
            slots.initialize(repeating: .empty)
            for index in entries.indices {
                let key = bytes[present: entries[index].key]
                let hash = hasher.hash(key)
                let slot = Self.find(
                    key, hash: hash, in: slots, bytes: bytes, entries: entries, notifications: notifications)
                let kept = slots[slot].entry
                if kept < 0 {
                    slots[slot] = Slot(hash: hash, entry: Int32(truncatingIfNeeded: index), notification: -1)
                    displayedSlots.append(Int32(truncatingIfNeeded: slot))
                } else if Moment.less(entries[Int(kept)].moment, entries[index].moment, in: bytes) {
                    slots[slot].entry = Int32(truncatingIfNeeded: index)
                }
            }
        }
        self.slotCount = capacity
        self.slots = slots
        self.displayedSlots = displayedSlots
    }

    /// Looks up the key of the notification at `position` and records it as seen.
    /// - Precondition: each position is claimed once, in increasing order.
    mutating func claim(_ position: Int) -> Claim {
        let key = bytes[present: notifications[position].key]
        let hash = hasher.hash(key)
        let (bytes, entries, notifications) = (self.bytes, self.entries, self.notifications)
        return slots.withUnsafeMutablePointerToElements { base in
            let slots = UnsafeMutableBufferPointer(start: base, count: slotCount)
            let slot = Self.find(
                key, hash: hash, in: slots, bytes: bytes, entries: entries, notifications: notifications)
            if slots[slot].notification >= 0 { return .duplicate }
            let displayed = slots[slot].entry >= 0
            slots[slot].hash = hash
            slots[slot].notification = Int32(truncatingIfNeeded: position)
            return .first(displayed: displayed)
        }
    }

    /// The next state: each key's latest entry when still fresh
    /// (`timestamp ≥ now − maxAgeSeconds`, the negation of `stale`), plus every
    /// shown notification; newest first, equal instants by key; at most
    /// `ComposeRequest.maxDisplayedOutput` entries.
    /// - Parameter shown: the shown notifications, newest first (step 3's order).
    /// - Precondition: no shown key is in this state (such notifications are dropped as `displayed`).
    func next(shown: [NewestFirst.Record], freshFrom: Moment) -> [ComposeResponse.EntryRecord] {
        let limit = ComposeRequest.maxDisplayedOutput
        let (bytes, entries, notifications) = (self.bytes, self.entries, self.notifications)
        var fresh: [NewestFirst.Record] = []
        fresh.reserveCapacity(displayedSlots.count)
        slots.withUnsafeMutablePointerToElements { slots in
            for slot in displayedSlots {
                let index = Int(slots[Int(slot)].entry)
                if !Moment.less(entries[index].moment, freshFrom, in: bytes) {
                    fresh.append(.init(entries[index].moment, index: index))
                }
            }
        }
        // Usually newest first already (the caller sends back the state
        // compose returned), which `sort` checks first: then a merge is all it takes.
        NewestFirst.sort(&fresh, limit: limit) { a, b in
            NewestFirst.tieOrder(entries[a].moment, entries[a].key, entries[b].moment, entries[b].key, in: bytes)
        }

        let count = min(limit, fresh.count + shown.count)
        var next: [ComposeResponse.EntryRecord] = []
        next.reserveCapacity(count)
        var f = 0, s = 0
        while next.count < count {
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
        return next
    }

    /// The slot holding `key`, or the empty slot where it would go (linear probing).
    @inline(__always)
    private static func find(
        _ key: UnsafeBufferPointer<UInt8>, hash: UInt64, in slots: UnsafeMutableBufferPointer<Slot>,
        bytes: UnsafeBufferPointer<UInt8>, entries: UnsafeBufferPointer<ComposeRequest.DisplayedRecord>,
        notifications: UnsafeBufferPointer<ComposeRequest.NotificationRecord>
    ) -> Int {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let candidate = slots[slot]
            if candidate.isEmpty { return slot }
            if candidate.hash == hash {
                let other =
                    candidate.entry >= 0
                    ? entries[Int(candidate.entry)].key : notifications[Int(candidate.notification)].key
                if CodePoints.equalBytes(bytes[present: other], key) { return slot }
            }
            slot = (slot + 1) & mask
        }
    }
}
