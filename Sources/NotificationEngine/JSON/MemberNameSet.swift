/// The names of one large object as `JSONParser` meets them, for its
/// duplicate check: an open-addressing table of the names' tape entries,
/// each beside its name's `KeyHash` (SipHash-1-3 of the decoded bytes, keyed
/// once per process), so an insert costs one hash and, unless two hashes
/// agree, no comparison of bytes: linear in the members whatever the names,
/// as crafted names cannot force collisions, and with no allocation per
/// name (a set of `[UInt8]` made an array of each name and hashed it a
/// byte at a time: about 2 µs a member).
///
/// Names are compared by code points, as the parser's small objects are:
/// `"a"` and `"\u0061"` are the same name, `"é"` and `"e\u0301"` are not.
struct MemberNameSet {
    /// Power-of-two table, at most half full: a name's hash in the high 32
    /// bits, its entry's index plus one in the low 32 (0: an empty slot).
    private var slots: [UInt64]
    private var count = 0
    private let key = KeyHash()

    /// An empty set with room for `capacity` names before it grows.
    init(capacity: Int) {
        var slotCount = 64
        while slotCount < 2 * capacity { slotCount &*= 2 }
        slots = [UInt64](repeating: 0, count: slotCount)
    }

    /// Adds the name at `entry` of `entries` (a string entry of `text`);
    /// false, and nothing added, when the set holds a name equal to it.
    mutating func insert(
        _ entry: Int, of entries: UnsafePointer<JSONTape.Entry>, in text: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        let name = entries[entry]
        let hash = UInt64(truncatingIfNeeded: hashOfName(name, in: text) &>> 32)
        let mask = slots.count &- 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let kept = slots[slot]
            if kept == 0 { break }
            if kept &>> 32 == hash,
                JSONTape.sameName(entries[Int(truncatingIfNeeded: kept & 0xFFFF_FFFF) &- 1], name, in: text)
            {
                return false
            }
            slot = (slot &+ 1) & mask
        }
        slots[slot] = hash &<< 32 | UInt64(truncatingIfNeeded: entry &+ 1)
        count &+= 1
        if 2 &* count > slots.count { grow() }
        return true
    }

    /// The name's hash: of its bytes as written when it has no escape, else
    /// of its decoded bytes, so every spelling of a name hashes alike.
    private func hashOfName(_ name: JSONTape.Entry, in text: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let raw = UnsafeBufferPointer(rebasing: text[Int(name.start)..<Int(name.end)])
        guard name.flag else { return key.hash(raw) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count) { output in
            // The parser decoded the name once already: it cannot fail here.
            let count = (try? JSONParser.unescape(raw, baseOffset: Int(name.start), into: output)) ?? 0
            return key.hash(UnsafeBufferPointer(rebasing: output[..<count]))
        }
    }

    /// Doubles the table, placing each name by the hash kept beside it.
    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: 2 * old.count)
        let mask = slots.count &- 1
        for kept in old where kept != 0 {
            var slot = Int(truncatingIfNeeded: kept &>> 32) & mask
            while slots[slot] != 0 { slot = (slot &+ 1) & mask }
            slots[slot] = kept
        }
    }
}
