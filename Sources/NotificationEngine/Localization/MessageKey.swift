/// The ten messages of a catalog (compose-l10n.md section 4), in the order
/// the catalogs list them.
package enum MessageKey: Int, CaseIterable, Sendable {
    case messageFallback, notificationFallback, bundleCount, bundlePreview, summaryTitle, summaryCount
    case fallbackBody, sendersTwo, sendersThree, sendersMore

    /// The key as a catalog writes it: `bundle.count`.
    package var name: String {
        switch self {
        case .messageFallback: return "message.fallback"
        case .notificationFallback: return "notification.fallback"
        case .bundleCount: return "bundle.count"
        case .bundlePreview: return "bundle.preview"
        case .summaryTitle: return "summary.title"
        case .summaryCount: return "summary.count"
        case .fallbackBody: return "fallback.body"
        case .sendersTwo: return "senders.two"
        case .sendersThree: return "senders.three"
        case .sendersMore: return "senders.more"
        }
    }

    /// The key named `name`, or `nil`.
    package init?(name: String) {
        guard let key = MessageKey.allCases.first(where: { $0.name == name }) else { return nil }
        self = key
    }

    /// The arguments the message must use, each at least once, and the only
    /// ones it may use.
    package var arguments: [MessageArgument] {
        switch self {
        case .messageFallback, .notificationFallback: return []
        case .bundleCount, .summaryCount: return [.count]
        case .bundlePreview: return [.name, .text]
        case .summaryTitle, .fallbackBody: return [.app]
        case .sendersTwo: return [.a, .b]
        case .sendersThree: return [.a, .b, .c]
        case .sendersMore: return [.a, .b, .others]
        }
    }
}

/// An argument a message inserts.
package enum MessageArgument: Int, CaseIterable, Sendable {
    /// Counts: written as ASCII digits, and the only arguments a plural selects on.
    case count, others
    /// Texts: `app`, `name`, `a`, `b` and `c` are isolated when they hold a
    /// character of the direction opposite to the catalog's; `text` never is.
    case name, text, app, a, b, c

    /// The argument as a message writes it: `count`.
    package var name: String {
        switch self {
        case .count: return "count"
        case .others: return "others"
        case .name: return "name"
        case .text: return "text"
        case .app: return "app"
        case .a: return "a"
        case .b: return "b"
        case .c: return "c"
        }
    }

    /// Whether the argument is a count.
    package var isCount: Bool { self == .count || self == .others }

    /// Whether a value inserted for it is wrapped in FSI … PDI when it
    /// contains the opposite strong direction (section 5).
    var isIsolated: Bool { !isCount && self != .text }
}
