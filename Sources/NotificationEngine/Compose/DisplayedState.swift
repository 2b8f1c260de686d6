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
    /// The entries without a key: per group, the latest (ties: the first).
    /// A request names at most 16 groups (the decoder checks it).
    private var groupOnly = SixteenSlots<Int32>(repeating: 0)
    private var groupOnlyCount = 0
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
        /// The first notification with this key, in `slot` (for `drop(slot:)`).
        case first(slot: Int)
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
        var groupOnly = SixteenSlots<Int32>(repeating: 0)
        var groupOnlyCount = 0
        for index in entries.indices {
            guard let key = bytes[entries[index].key] else {
                Self.noteGroupOnly(index, in: &groupOnly, count: &groupOnlyCount, bytes: bytes, entries: entries)
                continue
            }
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
        self.groupOnly = groupOnly
        self.groupOnlyCount = groupOnlyCount
    }

    /// Notes the entry at `index`, which has a group and no key, unless an
    /// entry of its group at a later instant (or the same) was noted before.
    private static func noteGroupOnly(
        _ index: Int, in groupOnly: inout SixteenSlots<Int32>, count groupOnlyCount: inout Int,
        bytes: UnsafeBufferPointer<UInt8>, entries: UnsafeBufferPointer<ComposeRequest.DisplayedRecord>
    ) {
        let group = bytes[present: entries[index].group]
        var noted = 0
        while noted < groupOnlyCount {
            let other = Int(groupOnly[noted])
            if CodePoints.equalBytes(bytes[present: entries[other].group], group) {
                if Moment.less(entries[other].moment, entries[index].moment, in: bytes) {
                    groupOnly[noted] = Int32(truncatingIfNeeded: index)
                }
                return
            }
            noted += 1
        }
        precondition(groupOnlyCount < 16, "more groups than a request may name")
        groupOnly[groupOnlyCount] = Int32(truncatingIfNeeded: index)
        groupOnlyCount += 1
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
        slots[slot].hash = UInt32(truncatingIfNeeded: hash &>> 32)
        slots[slot].notification = Int32(truncatingIfNeeded: position + 1)
        return .first(slot: slot)
    }

    /// How many entries D has (compose.md C10): one per distinct key, one
    /// per group of the entries without a key.
    var entryCount: Int { displayedSlots.count + groupOnlyCount }

    /// Notes that the notification claimed in `slot` was dropped (a key
    /// with a displayed entry only: the transition asks which are kept).
    @inline(__always)
    mutating func drop(slot: Int) {
        // -1: claimed, so a later notification of the key is still a
        // duplicate; never read as a position, since the slot has an entry.
        if slots[slot].entry != 0 { slots[slot].notification = -1 }
    }

    /// Calls `body` with the position in the request's `displayed` of each
    /// entry of D (per key its latest entry, per group of the entries
    /// without a key the latest of them; ties: the first in the request),
    /// and whether a notification of its key was kept (once the drops are
    /// made: `drop(slot:)`).
    @inline(__always)
    func forEachEntry(_ body: (_ entry: Int, _ isKept: Bool) -> Void) {
        forEachEntryWithNotification { entry, notification in body(entry, notification >= 0) }
    }

    /// `forEachEntry`, with the position in `notifications` of the kept
    /// notification of the entry's key, or -1 when none was kept.
    @inline(__always)
    func forEachEntryWithNotification(_ body: (_ entry: Int, _ notification: Int) -> Void) {
        for slot in displayedSlots {
            let record = slots[Int(slot)]
            body(Int(record.entry) - 1, record.notification > 0 ? Int(record.notification) - 1 : -1)
        }
        var index = 0
        while index < groupOnlyCount {
            body(Int(groupOnly[index]), -1)
            index += 1
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
