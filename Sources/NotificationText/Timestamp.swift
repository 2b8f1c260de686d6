import NotificationEngine

/// An RFC 3339 date-time as compose reads it: its text, kept as written
/// (the reply echoes it), and the instant it names.
public struct Timestamp: Hashable, Sendable, CustomStringConvertible {
    let value: NotificationEngine.Timestamp

    /// The timestamp `rfc3339` writes, or nil when it is not an RFC 3339
    /// date-time with an offset (`POST /compose` answers `invalid-timestamp`).
    public init?(rfc3339: String) {
        guard let value = NotificationEngine.Timestamp(rfc3339: rfc3339) else { return nil }
        self.value = value
    }

    init(_ value: NotificationEngine.Timestamp) {
        self.value = value
    }

    /// The text as written.
    public var rfc3339: String { value.raw }

    /// `rfc3339`.
    public var description: String { value.raw }
}
