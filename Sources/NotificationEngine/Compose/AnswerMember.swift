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
/// writes it by its rule (C5 to C8).
package enum AnswerMember: UInt8, CaseIterable, Sendable {
    case title, subtitle, body, threadIdentifier, url

    /// Where the value comes from.
    package enum Source: Sendable, Equatable {
        /// Written by the composers' rules; never `null` unless `nullable`.
        case composed(nullable: Bool)
        /// The notification's text in this request slot, as sent (`null` when absent).
        case copied(ComposeRequest.NotificationRanges.Field)
    }

    /// This member's row.
    package var source: Source {
        switch self {
        case .title, .body: .composed(nullable: false)
        case .subtitle, .threadIdentifier: .composed(nullable: true)
        case .url: .copied(.url)
        }
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
    package var name: String {
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
    /// members' names add to the reply, beside their values.
    static var keysByteCount: Int {
        var count = 2
        forEach { count += $0.key.utf8CodeUnitCount + 5 }
        return count
    }

    /// Where the member's value is held (`EightSlots`): its raw value,
    /// which `SlotCapacityTests` checks is below 8 for every member.
    @inline(__always)
    var slot: Int { Int(rawValue & 7) }
}
