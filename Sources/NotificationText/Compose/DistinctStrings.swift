/// UTF-8 texts kept once each by code points (`"é"` and `"e\u{301}"` are
/// two), in the order first inserted: the bundle's distinct sender names.
/// It holds views of the texts, not copies: they must outlive it.
///
/// A bundle rarely has more than a few senders, so the first few strings are
/// compared directly (different lengths reject at once); beyond that an
/// open-addressing table of positions with each string's full `KeyHash`
/// beside it keeps inserts O(1), comparing bytes only when hashes match.
struct DistinctStrings {
    private(set) var values: [UnsafeBufferPointer<UInt8>] = []
    /// Power-of-two table, at most half full; `index == -1` marks an empty
    /// slot. Empty while there are at most `linearCount` values.
    private var slots: [Slot] = []
    private let hasher = KeyHash()
    private static let linearCount = 8

    private struct Slot {
        var hash: UInt64
        var index: Int32
    }

    /// - Parameter capacity: the most strings that will be inserted.
    init(capacity: Int) {
        values.reserveCapacity(capacity)
    }

    /// Adds `value` unless an equal string is already in; whether it was added.
    @discardableResult
    mutating func insert(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard slots.isEmpty else { return insertHashed(value) }
        for other in values where CodePoints.equalBytes(other, value) { return false }
        values.append(value)
        if values.count > Self.linearCount {
            slots = Array(repeating: Slot(hash: 0, index: -1), count: 4 * Self.linearCount)
            for index in values.indices {
                place(Slot(hash: hasher.hash(values[index]), index: Int32(truncatingIfNeeded: index)))
            }
        }
        return true
    }

    private mutating func insertHashed(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        if 2 * (values.count + 1) > slots.count { grow() }
        let hash = hasher.hash(value)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let candidate = slots[slot]
            if candidate.index < 0 { break }
            if candidate.hash == hash, CodePoints.equalBytes(values[Int(candidate.index)], value) { return false }
            slot = (slot + 1) & mask
        }
        slots[slot] = Slot(hash: hash, index: Int32(truncatingIfNeeded: values.count))
        values.append(value)
        return true
    }

    /// Puts `entry` in the first empty slot from its hash on.
    private mutating func place(_ entry: Slot) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: entry.hash) & mask
        while slots[slot].index >= 0 { slot = (slot + 1) & mask }
        slots[slot] = entry
    }

    /// Doubles the table.
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Slot(hash: 0, index: -1), count: 2 * old.count)
        for entry in old where entry.index >= 0 { place(entry) }
    }
}
