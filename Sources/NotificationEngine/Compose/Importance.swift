/// A notification's `importance` (compose.md 2.1, S3; push.md P9): what
/// the backend knows of how much the message matters. `normal` when absent.
public enum Importance: String, Hashable, Sendable, CaseIterable {
    /// Never alerts on its own: it arrives quietly (a digest, a low-priority update).
    case low
    /// The default.
    case normal
    /// Alerts even inside its group's alert window; time-sensitive on iOS.
    case high

    /// The word `utf8` spells exactly; nil for any other.
    init?(utf8: UnsafeBufferPointer<UInt8>) {
        func equals(_ literal: StaticString) -> Bool {
            CodePoints.equalBytes(utf8, UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
        }
        switch utf8.count {
        case 3 where equals("low"): self = .low
        case 4 where equals("high"): self = .high
        case 6 where equals("normal"): self = .normal
        default: return nil
        }
    }

    /// The importance of a notification whose `importance` slot is `utf8`
    /// (absent: nil), which the decoder checked.
    static func of(_ utf8: UnsafeBufferPointer<UInt8>?) -> Importance {
        utf8.flatMap { Importance(utf8: $0) } ?? .normal
    }
}
