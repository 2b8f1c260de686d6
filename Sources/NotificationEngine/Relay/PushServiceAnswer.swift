/// What a push service answered one send, classified by docs/relay.md's
/// tables ("What each push service answers"), and when to try again.
package struct PushServiceAnswer: Sendable {
    /// The HTTP status; 0 for a timeout or a connection closed without one.
    package var status: Int
    /// APNs' `reason`; FCM's `error.status` or its details' `errorCode`.
    package var reason: String?
    /// The `Retry-After` header, in seconds.
    package var retryAfterSeconds: Int?
    /// FCM `INVALID_ARGUMENT` whose details name `message.token`.
    package var tokenInvalid: Bool

    package enum Outcome: Sendable, Equatable {
        /// The payload leaves the outbox.
        case accepted
        /// The token or subscription is gone: the device is deleted.
        case gone
        /// Try again after a wait of at least `minimumSeconds`.
        case transient(minimumSeconds: Int64)
        /// The relay's own mistake or configuration: log it, the payload leaves the outbox.
        case bug

        package var name: String {
            switch self {
            case .accepted: "accepted"
            case .gone: "gone"
            case .transient: "transient"
            case .bug: "bug"
            }
        }
    }

    /// The outcome on `transport`.
    package func outcome(on transport: RelayRecord.Transport) -> Outcome {
        if status == 0 { return .transient(minimumSeconds: 0) }
        switch transport {
        case .apns: return apnsOutcome
        case .fcm: return fcmOutcome
        case .webpush: return webPushOutcome
        }
    }

    private var apnsOutcome: Outcome {
        switch status {
        case 200: return .accepted
        case 400: return reason == "BadDeviceToken" ? .gone : .bug
        // A new provider token (JWT), then again.
        case 403:
            return reason == "ExpiredProviderToken" || reason == "InvalidProviderToken"
                ? .transient(minimumSeconds: 0) : .bug
        case 410: return .gone
        case 429: return .transient(minimumSeconds: reason == "TooManyProviderTokenUpdates" ? 0 : 60)
        case 500...599: return .transient(minimumSeconds: 0)
        default: return .bug
        }
    }

    private var fcmOutcome: Outcome {
        switch status {
        case 200: return .accepted
        case 404: return .gone
        case 400: return tokenInvalid ? .gone : .bug
        case 403: return reason == "SENDER_ID_MISMATCH" ? .gone : .bug
        case 429: return .transient(minimumSeconds: retryAfterSeconds == nil ? 60 : 0)
        case 500...599: return .transient(minimumSeconds: 0)
        default: return .bug
        }
    }

    private var webPushOutcome: Outcome {
        switch status {
        case 200...299: return .accepted
        case 404, 410: return .gone
        case 429, 500...599: return .transient(minimumSeconds: 0)
        default: return .bug
        }
    }

    /// The wait before attempt `attempt + 1` after a transient failure:
    /// `Retry-After` when present, else the backoff; never below the outcome's minimum.
    package func waitMilliseconds(minimumSeconds: Int64, attempt: Int, jitter: Double) -> Int64 {
        let wait =
            retryAfterSeconds.map { Int64($0) * 1000 } ?? Backoff.milliseconds(attempt: attempt, jitter: jitter)
        return max(wait, minimumSeconds * 1000)
    }
}

/// docs/relay.md, "Retries": the first retry after up to 1 s, the bound
/// doubling to 60 s, each wait a random share of it (full jitter) that
/// the caller draws: `jitter` in 0…1.
package enum Backoff {
    package static let firstBoundMilliseconds: Int64 = 1_000
    package static let maxBoundMilliseconds: Int64 = 60_000

    /// The wait before retry number `attempt` (1: the first).
    package static func milliseconds(attempt: Int, jitter: Double) -> Int64 {
        let doublings = min(max(attempt - 1, 0), 6)
        let bound = min(firstBoundMilliseconds << Int64(doublings), maxBoundMilliseconds)
        return Int64(Double(bound) * min(max(jitter, 0), 1))
    }
}
