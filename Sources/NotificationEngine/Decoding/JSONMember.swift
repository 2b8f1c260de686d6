/// The members one kind of request object knows (a compose request, a
/// notification, a sender…), as an enum whose raw values are the names on
/// the wire. The cases are the one list of names: adding a member is adding a
/// case, and the decoder's `switch` over them then asks for its handling.
protocol JSONMember: RawRepresentable<String>, CaseIterable, Sendable where AllCases == [Self] {}

/// Finds a member by its name's exact bytes: a name's length and first and
/// last bytes pick a slot of a small open-addressing table, and the name is
/// compared (a word or two) with the names whose slots it probes.
///
/// Built once per kind and never freed: one block of plain memory, so a
/// lookup costs a few loads and one comparison, with no reference counting.
/// A decoder keeps its tables in one static value and reads it once per body:
/// every read of a static `let` calls `swift_once` on Linux.
struct MemberTable<Member: JSONMember>: @unchecked Sendable {
    /// Twice as many slots as a kind may have members, so probes stay short.
    private static var slotCount: Int { 128 }

    /// The block: `slotCount` slots, each the position of its member among
    /// the cases plus one (0 when empty); then per position where its name
    /// starts among the names and its length (two `UInt16`s); then the
    /// cases; then the names' UTF-8, one after another.
    private let base: UnsafeMutableRawPointer
    private let spansOffset: Int
    private let casesOffset: Int
    private let namesOffset: Int

    init() {
        let cases = Member.allCases
        precondition(cases.count <= 64, "a member's position is a bit of a 64-bit set")
        let names = cases.map { Array($0.rawValue.utf8) }
        spansOffset = Self.slotCount
        casesOffset = (spansOffset + 4 * cases.count + 7) & ~7
        namesOffset = casesOffset + MemoryLayout<Member>.stride * cases.count
        base = .allocate(byteCount: namesOffset + names.reduce(0) { $0 + $1.count } + 1, alignment: 8)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: Self.slotCount)
        var start = 0
        for (position, name) in names.enumerated() {
            precondition(start + name.count <= Int(UInt16.max), "member names too long for the table")
            (base + spansOffset + 4 * position).storeBytes(of: UInt16(start), as: UInt16.self)
            (base + spansOffset + 4 * position + 2).storeBytes(of: UInt16(name.count), as: UInt16.self)
            (base + casesOffset).assumingMemoryBound(to: Member.self).advanced(by: position).initialize(
                to: cases[position])
            (base + namesOffset + start).copyMemory(from: name, byteCount: name.count)
            start += name.count
            var slot = Self.slot(name.count, name.first ?? 0, name.last ?? 0)
            while base.load(fromByteOffset: slot, as: UInt8.self) != 0 { slot = (slot + 1) & (Self.slotCount - 1) }
            base.storeBytes(of: UInt8(position + 1), toByteOffset: slot, as: UInt8.self)
        }
    }

    @inline(__always)
    private static func slot(_ count: Int, _ first: UInt8, _ last: UInt8) -> Int {
        (count &* 31 &+ Int(first) &* 7 &+ Int(last)) & (slotCount - 1)
    }

    /// The member `name` (unescaped UTF-8) is, and its position among the
    /// cases; nil when it names none.
    @inline(__always)
    func member(named name: UnsafeBufferPointer<UInt8>) -> (member: Member, position: Int)? {
        var slot = Self.slot(name.count, name.first ?? 0, name.last ?? 0)
        while true {
            let entry = Int(base.load(fromByteOffset: slot, as: UInt8.self))
            guard entry != 0 else { return nil }
            let position = entry &- 1
            let start = Int(base.load(fromByteOffset: spansOffset &+ 4 &* position, as: UInt16.self))
            let count = Int(base.load(fromByteOffset: spansOffset &+ 4 &* position &+ 2, as: UInt16.self))
            let candidate = UnsafeBufferPointer(
                start: (base + (namesOffset &+ start)).assumingMemoryBound(to: UInt8.self), count: count)
            if CodePoints.equalBytes(name, candidate) {
                return ((base + casesOffset).assumingMemoryBound(to: Member.self)[position], position)
            }
            slot = (slot &+ 1) & (Self.slotCount - 1)
        }
    }
}

/// The names of one kind of object (a notification, a sender, a displayed
/// entry) as the decoder meets them, kept from one object of the kind to the next.
///
/// For the object being read: which names it had, so a repeated name sends
/// the body to the parser (which reports it), by a bit per member. (A name
/// the kind does not have stops the first pass whether or not it repeats.)
///
/// For the next object: the known names of this one in order, each as the
/// bytes of the body from its opening quote through its `:`. Clients write
/// every object of a kind with the same members in the same order, so
/// comparing those bytes at the same position (a word or two) usually finds
/// the next name without a scan. A match is exact: the bytes were checked to
/// be that name, unescaped.
struct MemberNames<Member: JSONMember> {
    /// The kind's names, looked up when a name is not the predicted one.
    let table: MemberTable<Member>
    private var known: UInt64 = 0
    /// How many names the object had so far.
    private(set) var position = 0

    /// Eight bytes, so the names stay small.
    private struct Name {
        var start: Int32
        var length: UInt16
        var position: UInt8
        var member: Member?
    }

    private static var capacity: Int { 16 }
    private var names = SixteenSlots<Name>(repeating: Name(start: 0, length: 0, position: 0, member: nil))
    /// Names of the previous object (usable for predictions).
    private var previousCount = 0
    /// Names of this object recorded so far, from its first without a gap.
    private var count = 0

    init(_ table: MemberTable<Member>) {
        self.table = table
    }

    /// Starts the next object of the kind.
    @inline(__always)
    mutating func startObject() {
        known = 0
        position = 0
        previousCount = count
        count = 0
    }

    /// Notes a known member by its position among the cases; false when the object named it before.
    @inline(__always)
    mutating func insert(_ member: Int) -> Bool {
        let bit: UInt64 = 1 &<< UInt64(member & 63)
        position &+= 1
        guard known & bit == 0 else { return false }
        known |= bit
        return true
    }

    /// The previous object's name at this object's position, when the body repeats it at `index`.
    @inline(__always)
    mutating func repeatedName(from index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (
        member: Member, position: Int, length: Int
    )? {
        guard position < previousCount else { return nil }
        let name = names[position]
        let length = Int(name.length)
        guard let member = name.member, bytes.count &- index >= length, let base = bytes.baseAddress,
            CodePoints.equalBytes(
                UnsafeBufferPointer(start: base + index, count: length),
                UnsafeBufferPointer(start: base + Int(name.start), count: length))
        else { return nil }
        if count == position { count &+= 1 }
        return (member, Int(name.position), length)
    }

    /// Records the name just inserted, when the names before it are recorded.
    @inline(__always)
    mutating func record(_ member: Member, position memberPosition: Int, from start: Int, length: Int) {
        let at = position &- 1
        guard at == count, at < Self.capacity, length <= Int(UInt16.max) else { return }
        names[at] = Name(
            start: Int32(truncatingIfNeeded: start), length: UInt16(truncatingIfNeeded: length),
            position: UInt8(truncatingIfNeeded: memberPosition), member: member)
        count &+= 1
    }
}
