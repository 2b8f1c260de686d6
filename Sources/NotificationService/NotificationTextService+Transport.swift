import HTTPCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the adapter asks and tells the service outside `handle`: screening
/// a head before its body is read, and the refusals it answers itself.
extension NotificationTextService {
    /// Only with access control: the token is checked before any body byte is read.
    public var screensRequestHeads: Bool { authTokenStore != nil }

    /// The 401 for a request with a body and without a valid token, so the
    /// body is never read; nil for anything `handle` should see.
    public func screen(_ request: HTTPRequest) -> HTTPResponse? {
        let route = Route(path: request.path)
        do {
            try authenticate(request, route: route)
            return nil
        } catch {
            var response = Self.problemResponse(error, route: route)
            response.requestID = requestIDs.id(for: request)
            return response
        }
    }

    /// `GET` or `HEAD` `/healthz` and `/readyz`: a liveness probe refused
    /// for capacity would restart a pod that is only busy.
    public func answersBeyondCapacity(_ request: HTTPRequest) -> Bool {
        guard request.method == "GET" || request.method == "HEAD" else { return false }
        let route = Route(path: request.path)
        return route == .healthz || route == .readyz
    }

    /// One `rejected` line (whether or not the access log is on) and one count.
    public func didReject(_ request: HTTPRequest, because rejection: TransportRejection, with response: HTTPResponse) {
        guard let reason = RejectionReason(rejection) else { return }
        metrics.rejections[reason.metricsIndex].add(1)
        accessLog.write(
            Array(#"{"event":"rejected","reason":"\#(reason.rawValue)","status":\#(response.status)}"#.utf8) + [0x0A])
    }

    /// The calling loop thread's buffered access-log lines go out.
    public func flushBufferedOutput() {
        accessLog.flush()
    }

    public func didFailToAccept(errorNumber: Int32) {
        metrics.rejections[RejectionReason.acceptError.metricsIndex].add(1)
        accessLog.write(
            Array(#"{"event":"rejected","reason":"accept_error","error":"\#(Self.errorName(errorNumber))"}"#.utf8)
                + [0x0A])
    }

    /// The symbolic name of the errno values accept() fails with for lack of resources.
    static func errorName(_ errorNumber: Int32) -> String {
        switch errorNumber {
        case EMFILE: "EMFILE"
        case ENFILE: "ENFILE"
        case ENOBUFS: "ENOBUFS"
        case ENOMEM: "ENOMEM"
        case EPERM: "EPERM"
        default: "errno \(errorNumber)"
        }
    }

    /// Replaces the tokens in force (a reloaded `--auth-token-file`); false
    /// when access control is off, which a reload cannot turn on.
    @discardableResult
    public func replaceAuthTokens(_ tokens: AuthTokens) -> Bool {
        guard let authTokenStore else { return false }
        authTokenStore.replace(with: tokens)
        return true
    }
}
