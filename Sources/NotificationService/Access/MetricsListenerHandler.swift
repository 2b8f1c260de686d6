import HTTPCore

/// What the separate metrics listener (`serve --metrics-port`) answers: the
/// service's own `/metrics`, `/healthz` and `/readyz`, without a token (the
/// listener is on loopback unless the operator binds it elsewhere); anything
/// else is 404. Requests are counted in the same metrics as the main port's.
struct MetricsListenerHandler: HTTPHandler {
    let service: NotificationTextService

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        service.handle(request, on: .metrics)
    }

    func didRespond(to request: HTTPRequest, with response: HTTPResponse, durationNanoseconds: UInt64) {
        service.didRespond(to: request, with: response, durationNanoseconds: durationNanoseconds)
    }

    func reject(_ request: HTTPRequest, because rejection: TransportRejection) -> HTTPResponse {
        service.reject(request, because: rejection)
    }

    /// Refusals on this port are logged and counted with the main port's.
    func didReject(_ request: HTTPRequest, because rejection: TransportRejection, with response: HTTPResponse) {
        service.didReject(request, because: rejection, with: response)
    }

    func didFailToAccept(errorNumber: Int32) {
        service.didFailToAccept(errorNumber: errorNumber)
    }
}
