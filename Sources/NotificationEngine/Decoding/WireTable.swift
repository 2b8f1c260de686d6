/// The members of each object of a `POST /compose` request, declared once.
///
/// Each kind of object has an enum of its members (the wire names are the
/// raw values) whose `field` is its row of the table: what the value is on
/// the wire, whether it is required, its default, and the slot of the record
/// it fills. The decoder reads by the table (`ComposeDecoder.decodeMembers`):
/// the kind picks the reader and its checks, the slot where the value goes,
/// the defaults fill what is absent, the required rows are what a missing
/// member is checked against, in table order. The shaped reader
/// (`ObjectShape`) notes and matches values by the same slots and kinds.
/// A string member's rule (a source has no `:`, a group is a group key) is
/// its row's `rule`, which both readers run (`MemberRule`); a member that is
/// one of a few words says its words in its kind (`words`), which is its
/// rule and its problem; what is left to
/// a member's own code is a request member's word (a `fetch` is one of three
/// words) and the count of distinct groups.
///
/// Adding a member: a case and its row here, the slot it fills (a case of
/// `NotificationRanges.Field` or `ScalarSlots.Field`), the rule that reads
/// it, and the contract files (docs/architecture.md, "Recipe: add a field").
struct WireField: Sendable {
    /// What the value is on the wire (`null` is absent for every kind).
    enum Kind: Sendable {
        case string
        /// A string that is one of a list's words, spelled exactly. Its rule
        /// (`MemberRule.words`) and its problem, which names the words, come
        /// from the kind; the value is kept as sent, in the row's text slot.
        case words(WordList)
        /// A string that is an RFC 3339 date-time (`Timestamp`).
        case timestamp
        case boolean
        /// An integer written as one (`256`, not `256.0`), within the range.
        case integer(ClosedRange<Int>)
        /// An integer as `integer`, of 64 bits on every platform (`Int` has 32 on wasm32).
        case integer64(ClosedRange<Int64>)
        /// An object with a table of its own.
        case object
        /// An array of objects with a table of their own.
        case array
    }

    /// Where the value goes.
    enum Slot: Sendable, Equatable {
        /// A text slot of the record.
        case text(ComposeRequest.NotificationRanges.Field)
        /// A scalar slot of the record, and its value when the member is absent.
        case scalar(ComposeRequest.ScalarSlots.Field, default: Int64)
        /// The request itself: the member's rule sets it (`ComposeRequest`'s
        /// properties, whose defaults are the request's).
        case request
        /// The members of the object or array the value is.
        case members
    }

    let kind: Kind
    let isRequired: Bool
    let slot: Slot
    /// The rule a row names; a `words` row's is its kind's.
    private let namedRule: MemberRule

    /// The string's own rule, which both readers run (`MemberRule`).
    var rule: MemberRule {
        if case .words = kind { return .words }
        return namedRule
    }

    init(_ kind: Kind, required: Bool = false, _ slot: Slot, rule: MemberRule = .none) {
        self.kind = kind
        self.isRequired = required
        self.slot = slot
        self.namedRule = rule
    }

    /// A `words` row's list; nil for another kind.
    var wordList: WordList? {
        if case .words(let list) = kind { return list }
        return nil
    }
}

/// The word lists of the members that are one of a few words
/// (`WireField.Kind.words`): a list is declared here, beside its row.
enum WordList: UInt8, Sendable {
    /// A notification's `importance` (`Importance`'s words).
    case importance

    /// The words, each in quotes, separated by `, `: as a problem names them.
    var words: StaticString {
        switch self {
        case .importance: #""low", "normal", "high""#
        }
    }
}

/// An object's members with their rows of the wire table.
protocol WireMember: JSONMember {
    /// This member's row.
    var field: WireField { get }
}

extension WireMember {
    /// The record's values with every scalar slot at its default: where the
    /// decoder starts an object of this kind.
    static var defaultScalars: ComposeRequest.ScalarSlots {
        var scalars = ComposeRequest.ScalarSlots()
        for member in allCases {
            if case .scalar(let slot, let value) = member.field.slot { scalars[slot] = value }
        }
        return scalars
    }

    /// The text slots of the required members, one bit each by slot.
    static var requiredSlots: UInt16 {
        requiredTexts.reduce(0) { $0 | 1 << $1.slot.rawValue }
    }

    /// The text slots of the required members, in table order (the order
    /// the missing-member problem names them).
    static var requiredTexts: [(member: Self, slot: ComposeRequest.NotificationRanges.Field)] {
        allCases.compactMap { member in
            guard member.field.isRequired, case .text(let slot) = member.field.slot else { return nil }
            return (member, slot)
        }
    }
}

extension ComposeDecoder {
    /// The request object (compose.md section 2). `notifications` is
    /// required when `fetch` is `ok`: its rule, after the members.
    enum RequestMember: String, WireMember {
        case notifications, displayed, now, maxAgeSeconds, maxUnits, app, recipient, fetch, locale, preview, push

        var field: WireField {
            switch self {
            case .notifications, .displayed: WireField(.array, .members)
            case .now: WireField(.timestamp, .request)
            case .maxAgeSeconds: WireField(.integer(ComposeRequest.maxAgeSecondsRange), .request)
            case .maxUnits: WireField(.integer(BodyRenderer.maxUnitsRange), .request)
            case .app, .recipient, .fetch, .locale, .preview: WireField(.string, .request)
            case .push: WireField(.object, .members)
            }
        }
    }

    /// The request's `push` object (compose.md 6.6), whose members fill `PushOptions`.
    enum PushMember: String, WireMember {
        case badge, androidChannel, reserveBytes, stamp, alertWindowSeconds, activeUntil, webPush, navigate, mutable

        var field: WireField {
            switch self {
            case .alertWindowSeconds: WireField(.integer(PushOptions.alertWindowRange), .request)
            case .activeUntil: WireField(.timestamp, .request)
            case .badge: WireField(.integer(PushOptions.badgeRange), .request)
            case .androidChannel, .webPush, .navigate: WireField(.string, .request)
            case .mutable: WireField(.boolean, .request)
            case .reserveBytes: WireField(.integer(PushOptions.reserveBytesRange), .request)
            case .stamp: WireField(.integer64(PushOptions.stampRange), .request)
            }
        }
    }

    /// A notification of `notifications`.
    enum NotificationMember: String, WireMember {
        case id, source, type, timestamp, read, thread, threadTitle, threadIsGroup, sender, text, defaultText, url
        case importance

        var field: WireField {
            switch self {
            case .id: WireField(.string, required: true, .text(.id))
            case .source: WireField(.string, .text(.source), rule: .noColon)
            case .type: WireField(.string, required: true, .text(.type))
            case .timestamp: WireField(.timestamp, required: true, .text(.timestamp))
            case .read: WireField(.boolean, .scalar(.read, default: 0))
            case .thread: WireField(.string, .text(.thread))
            case .threadTitle: WireField(.string, .text(.threadTitle))
            case .threadIsGroup: WireField(.boolean, .scalar(.threadIsGroup, default: 0))
            case .sender: WireField(.object, .members)
            case .text: WireField(.string, .text(.text))
            case .defaultText: WireField(.string, .text(.defaultText))
            case .url: WireField(.string, .text(.url))
            case .importance: WireField(.words(.importance), .text(.importance))
            }
        }
    }

    /// A notification's `sender`, whose members fill the notification's slots.
    enum SenderMember: String, WireMember {
        case id, name, avatar

        var field: WireField {
            switch self {
            case .id: WireField(.string, .text(.senderID))
            case .name: WireField(.string, .text(.senderName))
            case .avatar: WireField(.string, .text(.senderAvatar), rule: .navigableURL)
            }
        }
    }

    /// An entry of `displayed` (compose.md 2.1). `key` is required when
    /// `group` is absent: its rule, after the members.
    enum DisplayedMember: String, WireMember {
        /// The `direct` slot of an entry without it.
        static let directAbsent: Int64 = 2

        /// An entry's scalars before its members are read (its row's default: `direct` absent).
        @inline(__always)
        static var startScalars: ComposeRequest.ScalarSlots {
            var scalars = ComposeRequest.ScalarSlots()
            scalars[.direct] = directAbsent
            return scalars
        }

        case key, timestamp, group, digest, alerted, direct

        var field: WireField {
            switch self {
            case .key: WireField(.string, .text(.key))
            case .timestamp: WireField(.timestamp, required: true, .text(.timestamp))
            case .group: WireField(.string, .text(.group), rule: .groupKey)
            case .digest: WireField(.string, .text(.digest), rule: .digest)
            // A second timestamp: read as a string, its instant by its rule.
            case .alerted: WireField(.string, .text(.alerted), rule: .timestamp)
            case .direct: WireField(.boolean, .scalar(.direct, default: DisplayedMember.directAbsent))
            }
        }
    }
}
