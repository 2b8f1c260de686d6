import HTTPCore

/// What a refused connection is told: the head as the handler sees it, and,
/// short of room, which limit is held (the connection limit or the memory
/// budget), so a 503's words name the one that refused it.
extension ConnectionTable {
    /// The head as the handler sees it before the body (see `HTTPHandler.screen`).
    func headRequest(_ head: RequestHead) -> HTTPRequest {
        var headers: [(name: String, value: String)] = []
        for value in head.authorizationValues {
            headers.append((name: "authorization", value: String(decoding: value, as: UTF8.self)))
        }
        if let requestID = head.requestID {
            headers.append((name: "x-request-id", value: String(decoding: requestID, as: UTF8.self)))
        }
        return HTTPRequest(
            method: head.methodName, path: String(decoding: head.path, as: UTF8.self), headers: headers)
    }

    /// The refusal when `held` kept a connection or its bytes out: every
    /// slot (`maxConnections`), or the memory budget.
    func rejection(holding held: ConnectionLife.HeldLimit) -> TransportRejection {
        switch held {
        case .connections: .tooManyConnections(limit: budget.limit)
        case .memoryBudget: .memoryBudgetSpent(budgetBytes: budget.memoryBytes ?? 0)
        }
    }

    /// `503 too-many-connections` with `Retry-After`, naming the limit
    /// `held`, then a short lingering close.
    func refuseForWantOfRoom(_ record: ConnectionRecord, because held: TransportRejection) {
        let request = HTTPRequest(method: "GET", path: "")
        record.refuse(
            ConnectionRecord.Refusal(
                response: handler.reject(request, because: held), request: request, rejection: held))
    }
}
