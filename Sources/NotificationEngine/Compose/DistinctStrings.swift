/// UTF-8 texts kept once each by code points (`"é"` and `"e\u{301}"` are
/// two), in the order first inserted: the bundle's distinct sender names.
/// It holds views of the texts, not copies, in storage that lives only
/// during `with` (a bundle's is on the stack): the texts must outlive it.
///
/// A bundle rarely has more than a few senders, so the first few strings are
/// compared directly, by length and a word of their bytes first (names up to
/// 8 bytes are their word); beyond that an open-addressing table of positions
/// with each string's full `KeyHash` beside it keeps inserts O(1), comparing
/// bytes only when hashes match.
struct DistinctStrings {
    private let storage: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>
    /// `word(of:)` of each string kept, while they are compared directly.
    private let words: UnsafeMutableBufferPointer<UInt64>
    private(set) var count = 0
    /// Power-of-two table, at most half full; `index == -1` marks an empty
    /// slot. Empty while there are at most `linearCount` values.
    private var slots: [Slot] = []
    private let hasher = KeyHash()
    private static let linearCount = 8

    private struct Slot {
        var hash: UInt64
        var index: Int32
    }

    /// Calls `body` with an empty set that has room for `capacity` strings
    /// (inserting more stops the process).
    static func with<R>(capacity: Int, _ body: (inout DistinctStrings) -> R) -> R {
        let textBytes = capacity * MemoryLayout<UnsafeBufferPointer<UInt8>>.stride
        return ComposeScratch.withBytes(textBytes + capacity * MemoryLayout<UInt64>.stride) { scratch in
            var strings = DistinctStrings(
                storage: UnsafeMutableRawBufferPointer(rebasing: scratch[..<textBytes]).bindMemory(
                    to: UnsafeBufferPointer<UInt8>.self),
                words: UnsafeMutableRawBufferPointer(rebasing: scratch[textBytes...]).bindMemory(to: UInt64.self))
            return body(&strings)
        }
    }

    private init(
        storage: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>, words: UnsafeMutableBufferPointer<UInt64>
    ) {
        self.storage = storage
        self.words = words
    }

    /// The distinct strings, in the order first inserted.
    var values: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>> {
        UnsafeBufferPointer(rebasing: storage[..<count])
    }

    /// Whether a string equal to `value` is in.
    func contains(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard slots.isEmpty else { return find(value, hash: hasher.hash(value)).found }
        return linearIndex(of: value, word: Self.word(of: value)) != nil
    }

    /// Adds `value` unless an equal string is already in; whether it was added.
    @discardableResult
    mutating func insert(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard slots.isEmpty else { return insertHashed(value) }
        let word = Self.word(of: value)
        if linearIndex(of: value, word: word) != nil { return false }
        words[count] = word
        append(value)
        if count > Self.linearCount {
            slots = Array(repeating: Slot(hash: 0, index: -1), count: 4 * Self.linearCount)
            for index in 0..<count {
                place(Slot(hash: hasher.hash(storage[index]), index: Int32(truncatingIfNeeded: index)))
            }
        }
        return true
    }

    /// The bytes of `text` as a little-endian word when it has at most 8
    /// (so equal lengths and words are equal texts), else its first 8; read
    /// with at most three loads, overlapping ones.
    @inline(__always)
    static func word(of text: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let count = text.count
        guard count > 0, let base = UnsafeRawPointer(text.baseAddress) else { return 0 }
        if count >= 8 { return UInt64(littleEndian: base.loadUnaligned(as: UInt64.self)) }
        if count >= 4 {
            let low = UInt64(UInt32(littleEndian: base.loadUnaligned(as: UInt32.self)))
            let high = UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)))
            return low | high &<< UInt64(8 &* (count &- 4))
        }
        let middle = count &>> 1
        return UInt64(base.load(as: UInt8.self))
            | UInt64(base.load(fromByteOffset: middle, as: UInt8.self)) &<< UInt64(8 &* middle)
            | UInt64(base.load(fromByteOffset: count &- 1, as: UInt8.self)) &<< UInt64(8 &* (count &- 1))
    }

    /// The position of the kept string equal to `value` (whose word is `word`), while compared directly.
    @inline(__always)
    private func linearIndex(of value: UnsafeBufferPointer<UInt8>, word: UInt64) -> Int? {
        let length = value.count
        for index in 0..<count where words[index] == word && storage[index].count == length {
            if length <= 8 || CodePoints.equalBytes(storage[index], value) { return index }
        }
        return nil
    }

    private mutating func insertHashed(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        if 2 * (count + 1) > slots.count { grow() }
        let hash = hasher.hash(value)
        let (found, slot) = find(value, hash: hash)
        if found { return false }
        slots[slot] = Slot(hash: hash, index: Int32(truncatingIfNeeded: count))
        append(value)
        return true
    }

    /// The slot holding a string equal to `value`, or the empty slot where it would go.
    private func find(_ value: UnsafeBufferPointer<UInt8>, hash: UInt64) -> (found: Bool, slot: Int) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let candidate = slots[slot]
            if candidate.index < 0 { return (false, slot) }
            if candidate.hash == hash, CodePoints.equalBytes(storage[Int(candidate.index)], value) {
                return (true, slot)
            }
            slot = (slot + 1) & mask
        }
    }

    private mutating func append(_ value: UnsafeBufferPointer<UInt8>) {
        precondition(count < storage.count, "more strings than the storage has room for")
        storage[count] = value
        count += 1
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
