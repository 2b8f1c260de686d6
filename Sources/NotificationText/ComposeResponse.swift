import NotificationEngine

/// The one notification to display, and the state the caller must persist,
/// as plain values: what `POST /compose` answers.
public struct ComposeResponse: Hashable, Sendable {
    /// What was composed.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// One notification left: its own texts.
        case single
        /// Two or more messages of one thread: bundled.
        case bundle
        /// Two or more of mixed activity: a count.
        case summary
        /// Nothing to show from (fetch failed or timed out, or nothing left).
        case fallback
    }

    /// Why a fallback was shown (`nil` for other kinds).
    public enum FallbackReason: String, Hashable, Sendable, CaseIterable {
        /// The fetch failed.
        case failed
        /// The fetch timed out.
        case timeout
        /// Nothing was left to show.
        case empty
    }

    /// Why a notification was not shown, in order of precedence.
    public enum DropReason: String, Hashable, Sendable, CaseIterable {
        /// Its key came earlier in the request.
        case duplicate
        /// It was read.
        case read
        /// The recipient sent it.
        case own
        /// It is older than `maxAgeSeconds`.
        case stale
        /// It is too far ahead of `now`.
        case future
    }

    /// A notification compose dropped, in input order.
    public struct Drop: Hashable, Sendable {
        /// The notification's key.
        public var key: String
        /// Why it was dropped.
        public var reason: DropReason

        /// A drop with these values.
        public init(key: String, reason: DropReason) {
            self.key = key
            self.reason = reason
        }
    }

    /// The displayed texts (`notification` on the wire): a text or `nil`
    /// for each member of the answer's table (`AnswerMember`), read by
    /// `self[member]` and, for the members every answer has, by name; the
    /// engine's value (`AnswerContent`), `Codable` by the table's names.
    public typealias Content = AnswerContent

    /// The base direction of the catalog the texts were written from.
    public enum TextDirection: String, Hashable, Sendable, CaseIterable {
        /// Left to right.
        case ltr
        /// Right to left.
        case rtl
    }

    /// What was composed.
    public var kind: Kind
    /// Why a fallback was shown; `nil` for other kinds.
    public var reason: FallbackReason?
    /// The displayed texts.
    public var notification: Content
    /// Keys of the notifications represented, newest first (empty for a fallback).
    public var shown: [String]
    /// The notifications dropped, in input order.
    public var dropped: [Drop]
    /// The next state to persist: replaces the caller's `displayed`.
    public var displayed: [DisplayedEntry]
    /// The tag of the catalog the texts were written from (`pt-PT`).
    public var locale: String
    /// The direction of that catalog (`ltr` or `rtl`), not guessed from the texts.
    public var direction: TextDirection
    /// The push payloads, when the request had `push`.
    public var push: PushAnswer?

    /// A response with these values.
    public init(
        kind: Kind, reason: FallbackReason?, notification: Content, shown: [String], dropped: [Drop],
        displayed: [DisplayedEntry], locale: String, direction: TextDirection = .ltr, push: PushAnswer? = nil
    ) {
        self.kind = kind
        self.reason = reason
        self.notification = notification
        self.shown = shown
        self.dropped = dropped
        self.displayed = displayed
        self.locale = locale
        self.direction = direction
        self.push = push
    }

    init(_ response: NotificationEngine.ComposeResponse, push: NotificationEngine.PushAnswer?) {
        self.init(
            kind: Kind(rawValue: response.kind.rawValue)!,
            reason: response.reason.map { FallbackReason(rawValue: $0.rawValue)! },
            notification: response.answerNotification,
            shown: response.shown,
            dropped: response.dropped.map { Drop(key: $0.key, reason: DropReason(rawValue: $0.reason.rawValue)!) },
            displayed: response.displayed,
            locale: response.locale, direction: response.direction == .rtl ? .rtl : .ltr,
            push: push.map(PushAnswer.init))
    }
}

/// Composes the one notification to display from a compose request, by
/// the rules of `docs/spec/compose.md`, as `POST /compose` does.
public enum Composer {
    /// The thread identifier of a summary.
    public static let summaryThreadIdentifier = NotificationEngine.Composer.summaryThreadIdentifier

    /// The response to `request`. Pure: the same request gives the same response.
    public static func compose(_ request: ComposeRequest) -> ComposeResponse {
        let request = request.engineValue
        let response = NotificationEngine.Composer.compose(request)
        return ComposeResponse(response, push: NotificationEngine.Composer.push(for: request, response: response))
    }
}

/// A `JSONDecoder` reads the answer's `notification` object into it, and a
/// `JSONEncoder` writes it, by the table's names.
extension AnswerContent: Codable {
    /// A member's wire name as a coding key.
    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads every member of the table by its wire name (`null` or absent is `nil`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        var texts: [String?] = []
        for member in AnswerMember.allCases {
            texts.append(try container.decodeIfPresent(String.self, forKey: Key(stringValue: member.name)))
        }
        self.init { texts[Int($0.rawValue)] }
    }

    /// Writes every member of the table by its wire name, `null` for `nil`, as the answer does.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for member in AnswerMember.allCases {
            try container.encode(self[member], forKey: Key(stringValue: member.name))
        }
    }
}
