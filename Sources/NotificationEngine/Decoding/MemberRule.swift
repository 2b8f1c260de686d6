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
}

extension ComposeDecoder {
    /// Whether the string at `range` (present) keeps `rule`.
    @inline(__always)
    mutating func holds(_ rule: MemberRule, _ range: TextRange) -> Bool {
        rule == .timestamp ? moment(at: range) != nil : holdsReading(rule, range)
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
        }
    }

    /// Whether every present slot of `ranges` that `rules` names keeps its
    /// rule: the shaped read's run of the rules the general path runs.
    @inline(__always)
    mutating func passesRules(_ rules: SlotRules, _ ranges: ComposeRequest.NotificationRanges) -> Bool {
        var slots = rules.mask
        while slots != 0 {
            let slot = slots.trailingZeroBitCount
            slots &= slots &- 1
            let range = ranges[ObjectShape.Slot(rawValue: UInt8(truncatingIfNeeded: slot)).unsafelyUnwrapped]
            guard !range.isAbsent else { continue }
            let rule = rules.rules[slot]
            // The instant's reader remembers a recent day (mutating); the other rules only read.
            if rule == .timestamp ? moment(at: range) == nil : !holdsReading(rule, range) { return false }
        }
        return true
    }

    /// `holds` for a rule that only reads the request's bytes (every rule but `timestamp`).
    @inline(__always)
    func holdsReading(_ rule: MemberRule, _ range: TextRange) -> Bool {
        switch rule {
        case .none, .timestamp: true
        case .noColon: !sourceHasColon(range)
        case .groupKey: isGroupKey(range)
        case .digest: isDigest(range)
        }
    }
}

/// The rules of one kind of object by slot, held in place: the shaped read
/// visits only the slots that have one.
struct SlotRules: Sendable {
    /// One bit per slot with a rule.
    let mask: UInt16
    let rules: SixteenSlots<MemberRule>

    init<Member: WireMember>(_: Member.Type) {
        var mask: UInt16 = 0
        var rules = SixteenSlots<MemberRule>(repeating: .none)
        for member in Member.allCases {
            guard case .text(let slot) = member.field.slot, member.field.rule != .none else { continue }
            mask |= 1 << slot.rawValue
            rules[Int(slot.rawValue)] = member.field.rule
        }
        self.mask = mask
        self.rules = rules
    }
}
