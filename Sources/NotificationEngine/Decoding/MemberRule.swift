/// A string member's own rule beyond its kind (compose.md 2.2), declared in
/// its row of the wire table (`WireField.rule`) and run by both readers:
/// the general path at the member, in document order
/// (`ComposeDecoder.decodeMembers`), and the shaped read on each string as
/// it reads it (the rule is the string's piece's, `ObjectShape.Piece.rule`),
/// which leaves a value that breaks one to the general path, to be named
/// there. One rule, one place.
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
    /// One of the words of its row's kind (`WireField.Kind.words`), spelled exactly.
    case words
    /// A sender's `avatar`: a navigable URL (push.md P23) of 1…512 bytes.
    case navigableURL
}

extension ComposeDecoder {
    /// Whether the string at `range` (present) keeps `rule` (of a row whose words, if any, are `words`).
    @inline(__always)
    mutating func holds(_ rule: MemberRule, _ range: TextRange, words: WordList?) -> Bool {
        rule == .timestamp
            ? moment(at: range) != nil
            : request.bytes.withUnsafeBufferPointer { Self.holds(rule, $0[present: range], words: words) }
    }

    /// The problem `field`'s rule finds in the string at `range` (present), or nil when it holds.
    mutating func problem(_ field: WireField, _ range: TextRange, at path: () -> String) -> Problem? {
        let rule = field.rule
        guard !holds(rule, range, words: field.wordList) else { return nil }
        switch rule {
        case .none:
            return nil
        case .words:
            let words = field.wordList?.words ?? ""
            let named = String(
                decoding: UnsafeBufferPointer(start: words.utf8Start, count: words.utf8CodeUnitCount), as: UTF8.self)
            return Problem(.invalidValue, "\(path()) must be one of \(named)", at: path())
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
        case .navigableURL:
            return Problem(
                .invalidValue,
                "\(path()) must be an https:// or http:// URL of at most \(PushOptions.navigateByteRange.upperBound)"
                    + " bytes without spaces or control characters", at: path())
        }
    }

    /// Whether `value` keeps `rule`, a rule that only reads the value (every
    /// rule but `timestamp`), of a row whose words, if any, are `words`.
    @inline(__always)
    static func holds(_ rule: MemberRule, _ value: UnsafeBufferPointer<UInt8>, words: @autoclosure () -> WordList?)
        -> Bool
    {
        switch rule {
        case .none, .timestamp: true
        case .words: words().map { isOneOf($0.words, value) } ?? false
        case .noColon: !value.contains(UInt8(ascii: ":"))
        case .groupKey: isGroupKey(value)
        case .digest: isDigest(value)
        case .navigableURL: PushOptions.navigateByteRange.contains(value.count) && PushOptions.hasNavigableForm(value)
        }
    }

    /// Whether `value` is one of `words` (each in quotes: `WordList.words`), spelled exactly.
    static func isOneOf(_ words: StaticString, _ value: UnsafeBufferPointer<UInt8>) -> Bool {
        let all = UnsafeBufferPointer(start: words.utf8Start, count: words.utf8CodeUnitCount)
        var start = 1  // past a word's opening quote
        while start < all.count {
            var end = start
            while all[end] != UInt8(ascii: "\"") { end += 1 }
            if CodePoints.equalBytes(UnsafeBufferPointer(rebasing: all[start..<end]), value) { return true }
            start = end + 4  // past `", "`
        }
        return false
    }
}

/// The rules of one kind of object by slot, held in place: what a shape
/// gives each of its string slots when it is noted
/// (`ObjectShape.finish(end:in:rules:)`), and a `words` rule's list by slot.
struct SlotRules: Sendable {
    /// Each slot's rule, 4 bits a slot.
    private let packed: UInt64

    /// Each `words` slot's list, 4 bits a slot.
    private let packedLists: UInt64

    init<Member: WireMember>(_: Member.Type) {
        (packed, packedLists) = Self.rules(Member.self)
    }

    /// The rules of two tables whose members fill one record (a
    /// notification's and its `sender`'s): the shaped read runs both.
    init<Outer: WireMember, Inner: WireMember>(_: Outer.Type, _: Inner.Type) {
        let (a, b) = (Self.rules(Outer.self), Self.rules(Inner.self))
        (packed, packedLists) = (a.0 | b.0, a.1 | b.1)
    }

    /// A table's packed rules and lists.
    private static func rules<Member: WireMember>(_: Member.Type) -> (UInt64, UInt64) {
        var (packed, lists): (UInt64, UInt64) = (0, 0)
        for member in Member.allCases {
            guard case .text(let slot) = member.field.slot, member.field.rule != .none else { continue }
            packed |= UInt64(member.field.rule.rawValue) << (4 * UInt64(slot.rawValue))
            if let list = member.field.wordList { lists |= UInt64(list.rawValue) << (4 * UInt64(slot.rawValue)) }
        }
        return (packed, lists)
    }

    /// The list of the `words` rule of `slot`.
    func words(_ slot: Int) -> WordList? {
        WordList(rawValue: UInt8(truncatingIfNeeded: packedLists >> (4 * UInt64(slot)) & 15))
    }

    /// The rule of `slot` (0..<16).
    @inline(__always)
    func rule(_ slot: Int) -> MemberRule {
        MemberRule(rawValue: UInt8(truncatingIfNeeded: packed >> (4 * UInt64(slot)) & 15)) ?? .none
    }
}
