/// A string member's own rule beyond its kind (compose.md 2.2), declared in
/// its row of the wire table (`WireField.rule`) and run by both readers:
/// the general path at the member, in document order
/// (`ComposeDecoder.decodeMembers`), and the shaped read on every slot it
/// filled (`ComposeDecoder.passesRules`), which leaves a value that breaks
/// one to the general path, to be named there. One rule, one place.
enum MemberRule: UInt8, Sendable, Equatable {
    case none
    /// A notification's `source`: no `:` (the key is `source:id`).
    case noColon
    /// A displayed entry's `group`: a valid group key (C14).
    case groupKey
    /// A displayed entry's `digest`: 16 characters of `0`–`9`, `a`–`f` (C15).
    case digest
    /// A timestamp read as a string, an object's second one (an entry's `alerted`).
    case timestamp
    /// A notification's `importance`: one of `Importance`'s words, spelled exactly.
    case importance
    /// A sender's `avatar`: a navigable URL (push.md P23) of 1…512 bytes.
    case navigableURL
}

extension ComposeDecoder {
    /// Whether the string at `range` (present) keeps `rule`.
    @inline(__always)
    mutating func holds(_ rule: MemberRule, _ range: TextRange) -> Bool {
        rule == .timestamp
            ? moment(at: range) != nil
            : request.bytes.withUnsafeBufferPointer { Self.holds(rule, $0[present: range]) }
    }

    /// The problem `rule` finds in the string at `range` (present), or nil when it holds.
    mutating func problem(_ rule: MemberRule, _ range: TextRange, at path: () -> String) -> Problem? {
        guard !holds(rule, range) else { return nil }
        switch rule {
        case .none:
            return nil
        case .noColon:
            return Problem(.invalidValue, "\(path()) must not contain ':'", at: path())
        case .groupKey:
            return Problem(
                .invalidValue,
                "\(path()) must be a group key: 1 to 64 characters of U+0021…U+007E other than '\"' and '\\'",
                at: path())
        case .digest:
            return Problem(.invalidValue, "\(path()) must be a text digest: 16 characters of 0-9 and a-f", at: path())
        case .timestamp:
            return invalidTimestamp(range, at: path())
        case .importance:
            let words = Importance.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            return Problem(.invalidValue, "\(path()) must be one of \(words)", at: path())
        case .navigableURL:
            return Problem(
                .invalidValue,
                "\(path()) must be an https:// or http:// URL of at most \(PushOptions.navigateByteRange.upperBound)"
                    + " bytes without spaces or control characters", at: path())
        }
    }

    /// Whether every present slot of `ranges` that `rules` names keeps its
    /// rule: the shaped read's run of the rules the general path runs.
    @inline(__always)
    mutating func passesRules(_ rules: SlotRules, _ ranges: borrowing ComposeRequest.NotificationRanges) -> Bool {
        var slots = rules.readingMask | rules.timestampMask
        // The slots' bytes taken once for the object; each ruled slot loaded
        // from them (an absent one, as a sender's avatar nearly always is,
        // costs a load).
        return withUnsafeBytes(of: ranges.slots.storage) { storage in
            while slots != 0 {
                let slot = slots.trailingZeroBitCount
                slots &= slots &- 1
                let range = storage.load(fromByteOffset: slot &* MemoryLayout<TextRange>.stride, as: TextRange.self)
                guard !range.isAbsent else { continue }
                let rule = rules.rule(slot)
                if rule == .timestamp {
                    if moment(at: range) == nil { return false }
                } else if range.end <= reader.bytes.count {
                    // A value as the body wrote it (nearly always): read in place.
                    let value = UnsafeBufferPointer(rebasing: reader.bytes[Int(range.start)..<range.end])
                    // Every notification's `source` has this rule: its test stays here.
                    if rule == .noColon ? value.contains(UInt8(ascii: ":")) : !Self.holds(rule, value) {
                        return false
                    }
                } else if !request.bytes.withUnsafeBufferPointer({ Self.holds(rule, $0[present: range]) }) {
                    return false  // an unescaped value, appended past the body
                }
            }
            return true
        }
    }

    /// Whether `value` keeps `rule`, a rule that only reads the value (every rule but `timestamp`).
    @inline(__always)
    static func holds(_ rule: MemberRule, _ value: UnsafeBufferPointer<UInt8>) -> Bool {
        switch rule {
        case .none, .timestamp: true
        case .noColon: !value.contains(UInt8(ascii: ":"))
        case .groupKey: isGroupKey(value)
        case .digest: isDigest(value)
        case .importance: Importance(utf8: value) != nil
        case .navigableURL: PushOptions.navigateByteRange.contains(value.count) && PushOptions.hasNavigableForm(value)
        }
    }
}

/// The rules of one kind of object by slot, held in place: the shaped read
/// visits only the slots that have one.
struct SlotRules: Sendable {
    /// One bit per slot with a rule that only reads the value, and per slot whose rule is `timestamp`.
    let readingMask: UInt16
    let timestampMask: UInt16
    /// Each slot's rule, 4 bits a slot.
    private let packed: UInt64

    init<Member: WireMember>(_: Member.Type) {
        var (reading, timestamps, packed): (UInt16, UInt16, UInt64) = (0, 0, 0)
        for member in Member.allCases {
            guard case .text(let slot) = member.field.slot, member.field.rule != .none else { continue }
            if member.field.rule == .timestamp {
                timestamps |= 1 << slot.rawValue
            } else {
                reading |= 1 << slot.rawValue
            }
            packed |= UInt64(member.field.rule.rawValue) << (4 * UInt64(slot.rawValue))
        }
        (readingMask, timestampMask, self.packed) = (reading, timestamps, packed)
    }

    /// The rules of two tables whose members fill one record (a
    /// notification's and its `sender`'s): the shaped read runs both.
    init<Outer: WireMember, Inner: WireMember>(_ outer: Outer.Type, _ inner: Inner.Type) {
        let (a, b) = (SlotRules(outer), SlotRules(inner))
        (readingMask, timestampMask) = (a.readingMask | b.readingMask, a.timestampMask | b.timestampMask)
        packed = a.packed | b.packed
    }

    /// The rule of `slot` (0..<16).
    @inline(__always)
    func rule(_ slot: Int) -> MemberRule {
        MemberRule(rawValue: UInt8(truncatingIfNeeded: packed >> (4 * UInt64(slot)) & 15)) ?? .none
    }
}
