/// The displayed texts (`notification` on the wire): a text or `nil` for
/// each member of the answer's table (`AnswerMember`), read by
/// `self[member]` and, for the members every answer has, by name. One value
/// for the engine and the library (`ComposeResponse.Content` in both,
/// docs/adr/0050); the library adds its `Codable` by the table's names.
public struct AnswerContent: Hashable, Sendable {
    /// By `AnswerMember.rawValue`.
    private var values: [String?]

    /// The texts `value` gives for each member.
    package init(_ value: (AnswerMember) -> String?) {
        values = AnswerMember.allCases.map(value)
    }

    /// Texts with these values, every other member `nil`.
    public init(title: String, subtitle: String?, body: String, threadIdentifier: String?, url: String?) {
        self.init { _ in nil }
        self[.title] = title
        self[.subtitle] = subtitle
        self[.body] = body
        self[.threadIdentifier] = threadIdentifier
        self[.url] = url
    }

    /// The text of `member`, or `nil` (`null`).
    public subscript(member: AnswerMember) -> String? {
        get { values[Int(member.rawValue)] }
        set { values[Int(member.rawValue)] = newValue }
    }

    /// Plain text, at most 256 UTF-16 units; never empty.
    public var title: String {
        get { self[.title] ?? "" }
        set { self[.title] = newValue }
    }
    /// Plain text, at most 256 UTF-16 units, or `nil`.
    public var subtitle: String? {
        get { self[.subtitle] }
        set { self[.subtitle] = newValue }
    }
    /// At most the request's `maxUnits` UTF-16 units.
    public var body: String {
        get { self[.body] ?? "" }
        set { self[.body] = newValue }
    }
    /// Groups notifications on the device; `nil` only for a fallback.
    public var threadIdentifier: String? {
        get { self[.threadIdentifier] }
        set { self[.threadIdentifier] = newValue }
    }
    /// Opened when the notification is tapped.
    public var url: String? {
        get { self[.url] }
        set { self[.url] = newValue }
    }
}
