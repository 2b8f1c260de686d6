import HTTPCore
import NotificationEngine

extension Problem {
    /// The service's answer to a request the adapter refused before routing.
    init(_ rejection: TransportRejection) {
        switch rejection {
        case .uriTooLong(let maxBytes):
            self.init(.uriTooLong, "the request target is longer than \(maxBytes) bytes")
        case .bodyTooLarge(let maxBytes):
            self.init(.payloadTooLarge, "the request body is larger than \(maxBytes) bytes")
        case .badRequest(let detail):
            self.init(.badRequest, detail)
        case .invalidHost(let detail):
            self.init(.invalidHost, detail)
        case .badFraming(let detail):
            self.init(.badFraming, detail)
        case .headersTooLarge(let maxBytes):
            self.init(.headerFieldsTooLarge, "the request line and header fields take more than \(maxBytes) bytes")
        case .tooManyHeaderFields(let maxCount):
            self.init(.headerFieldsTooLarge, "the request has more than \(maxCount) header fields")
        case .expectationFailed:
            self.init(.expectationFailed, "the only expectation accepted is Expect: 100-continue")
        case .notImplemented(let detail):
            self.init(.notImplemented, detail)
        case .tooManyConnections(let limit):
            self.init(
                .tooManyConnections, "the server holds its limit of \(limit) connections; retry on a new connection",
                headers: [("Retry-After", "1")])
        case .memoryBudgetSpent(let budgetBytes):
            self.init(
                .tooManyConnections,
                "the server's memory budget of \(budgetBytes) bytes for connections is spent; retry on a new connection",
                headers: [("Retry-After", "1")])
        }
    }
}
