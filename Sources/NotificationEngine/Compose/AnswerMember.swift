/// The members of the answer's `notification` object (compose.md 6.1, 6.3),
/// declared once, in wire order: the request's members are declared in
/// `WireTable`, the answer's here.
///
/// Everything that handles a member follows its row: the composers' texts
/// (`ComposedTexts`) and the values (`ComposeResponse.Content`) hold it in
/// its slot, the reply writes it (`ComposeResponse+JSON`) under `key`, the
/// size estimate counts it, a preview tier keeps it unless the tier rewrites
/// it, and the tests' fixture reader compares it by its name.
///
/// A member whose value is a notification's text as sent (as `url` is) is
/// `copied` from that text's request slot, and needs nothing but its row: a
/// single copies it from its notification and a bundle from its newest
/// (`ComposedTexts.Writer.appendCopies`); a summary and a fallback have
/// none (`null`), and a preview tier keeps it (compose.md C5.4, C6.6, C7, C8,
/// C11). A member compose writes itself is `composed`, and each composer
/// writes it by its rule (C5 to C8). A member that depends on the whole
/// transition (the texts and the push decision, `send` and `alert`, which
/// are settled after the composers) is `derived`: the composers copy its
/// slot's text as for `copied`, and `derived(_:copied:transition:)`, one
/// function, writes the member from that text and the transition, where
/// the answer is written (`ComposeResponse+JSON`, `answerNotification`).
public enum AnswerMember: UInt8, CaseIterable, Sendable {
    case title, subtitle, body, threadIdentifier, url

    /// Where the value comes from.
    package enum Source: Sendable, Equatable {
        /// Written by the composers' rules; never `null` unless `nullable`.
        case composed(nullable: Bool)
        /// The notification's text in this request slot, as sent (`null` when absent).
        case copied(ComposeRequest.NotificationRanges.Field)
        /// Worked out from the notification's text in this request slot, as
        /// `copied` copies it, and the push transition (`derived(_:copied:transition:)`).
        case derived(from: ComposeRequest.NotificationRanges.Field)
    }

    /// This member's row.
    package var source: Source {
        switch self {
        case .title, .body: .composed(nullable: false)
        case .subtitle, .threadIdentifier: .composed(nullable: true)
        case .url: .copied(.url)
        }
    }

    /// The request slot the composers copy into this member's slot
    /// (`copied` and `derived` members); nil for a `composed` one.
    var copiedField: ComposeRequest.NotificationRanges.Field? {
        switch source {
        case .composed: nil
        case .copied(let field), .derived(let field): field
        }
    }

    /// Whether the member is `derived`.
    var isDerived: Bool {
        if case .derived = source { return true }
        return false
    }

    /// A `derived` member's text (nil is `null`): from `copied`, the text
    /// the composers copied (the lead notification's text in the row's
    /// slot; nil when absent, and for a summary and a fallback), and the
    /// push transition (nil without `push`). A literal's bytes or `copied`.
    static func derived(
        _ member: AnswerMember, copied: UnsafeBufferPointer<UInt8>?, transition: ComposeResponse.Transition?
    ) -> UnsafeBufferPointer<UInt8>? {
        switch member {
        case .title, .subtitle, .body, .threadIdentifier, .url: copied
        }
    }

    /// `derived` over a `String`.
    static func derived(_ member: AnswerMember, copied: String?, transition: ComposeResponse.Transition?) -> String? {
        guard var copied else {
            return derived(member, copied: UnsafeBufferPointer<UInt8>?.none, transition: transition)
                .map { String(decoding: $0, as: UTF8.self) }
        }
        return copied.withUTF8 { derived(member, copied: $0, transition: transition) }
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// `"name":`, as the reply writes it.
    package var key: StaticString {
        switch self {
        case .title: #""title":"#
        case .subtitle: #""subtitle":"#
        case .body: #""body":"#
        case .threadIdentifier: #""threadIdentifier":"#
        case .url: #""url":"#
        }
    }

    /// The wire name.
    public var name: String {
        let key = key
        let name = UnsafeBufferPointer(start: key.utf8Start + 1, count: key.utf8CodeUnitCount - 3)
        return String(decoding: name, as: UTF8.self)
    }

    /// Calls `body` with every member, in table order. Unlike `allCases`,
    /// it allocates no array: the reply's writer calls it per answer.
    @inline(__always)
    static func forEach(_ body: (AnswerMember) -> Void) {
        var raw: UInt8 = 0
        while let member = AnswerMember(rawValue: raw) {
            body(member)
            raw += 1
        }
    }

    /// The bytes of every `key`, with a separator and `null` each: what the
    /// members' names add to the reply, beside their values (and room for a
    /// `derived` member's text, which may be longer than its copy).
    static var keysByteCount: Int {
        var count = 2
        forEach { count += $0.key.utf8CodeUnitCount + 5 + ($0.isDerived ? 32 : 0) }
        return count
    }

    /// Where the member's value is held (`EightSlots`): its raw value,
    /// which `SlotCapacityTests` checks is below 8 for every member.
    @inline(__always)
    var slot: Int { Int(rawValue & 7) }
}
