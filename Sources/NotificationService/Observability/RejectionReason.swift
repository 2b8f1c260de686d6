import HTTPCore

/// Why a connection was refused before a request on it reached a route: the
/// `reason` label of `notification_text_connections_rejected_total` and of
/// the `rejected` log line. Every reason is exposed from the start, at 0.
enum RejectionReason: String, CaseIterable, Sendable {
    case badRequest = "bad_request"
    case headersTooLarge = "headers_too_large"
    case bodyTooLarge = "body_too_large"
    case badFraming = "bad_framing"
    case notImplemented = "not_implemented"
    case maxConnections = "max_connections"
    case memoryBudget = "memory_budget"
    case acceptError = "accept_error"

    /// nil for `uriTooLong`, which is answered on a usable connection and
    /// counted with the requests.
    init?(_ rejection: TransportRejection) {
        switch rejection {
        case .badRequest, .expectationFailed, .invalidHost: self = .badRequest
        case .headersTooLarge, .tooManyHeaderFields: self = .headersTooLarge
        case .bodyTooLarge: self = .bodyTooLarge
        case .badFraming: self = .badFraming
        case .notImplemented: self = .notImplemented
        case .tooManyConnections: self = .maxConnections
        case .memoryBudgetSpent: self = .memoryBudget
        case .uriTooLong: return nil
        }
    }

    /// Position in `ServiceMetrics.rejections`.
    var metricsIndex: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}
