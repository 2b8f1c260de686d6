/// Why the server could not start. Once it runs, nothing stops it but a
/// shutdown request or a signal.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The host did not resolve to an IPv4 or IPv6 address.
    case unresolvableHost(String)
    /// A socket call failed while opening a listener (`errno` kept).
    case listenFailed(address: String, call: String, errno: Int32)
    /// libevent could not create one of its objects.
    case libeventFailed(String)

    public var description: String {
        switch self {
        case .unresolvableHost(let host):
            return "cannot resolve host '\(host)' to an IPv4 or IPv6 address"
        case .listenFailed(let address, let call, let code):
            return "cannot listen on \(address): \(call) failed: \(HTTPServerError.errorText(code))"
        case .libeventFailed(let what):
            return "libevent failed: \(what)"
        }
    }

    static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}

#if canImport(Glibc)
import Glibc
#endif
