import Dispatch
import EventHTTP
import HTTPCore
import Synchronization

/// A handler that shows what the adapter handed it: the method, path and a
/// test header come back as response headers, the body comes back as the
/// body. `/readyz` follows the server state; `/gated` signals `gateReached`
/// and waits (at most 10 s) until the test calls `openGate()`;
/// `/no-content` is a 204; `/status/N` answers status N; `/framed` sets its own `Content-Length` (as the
/// service does for HEAD) and `Date`, and sends no body; `/request-id` has
/// an inline request id (`requestIDText`).
final class EchoHandler: HTTPHandler {
    private let stateValue = Atomic<UInt8>(ServerState.starting.rawValue)
    let respondedCount = Atomic<Int>(0)
    /// The case name of each rejection reported to `didReject`, in order.
    let rejected = Locked<[String]>([])
    let gateReached = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)

    static let requestIDText = "0123456789abcdef0123456789abcdef"
    private static let requestIDWords: (UInt64, UInt64, UInt64, UInt64) = requestIDText.utf8
        .withContiguousStorageIfAvailable {
            let raw = UnsafeRawPointer($0.baseAddress!)
            return (
                raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self),
                raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
            )
        }!

    func openGate() {
        gate.signal()
    }

    func setState(_ state: ServerState) {
        stateValue.store(state.rawValue, ordering: .releasing)
    }

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        switch request.path {
        case "/readyz":
            let running = stateValue.load(ordering: .acquiring) == ServerState.running.rawValue
            return HTTPResponse(
                status: running ? 200 : 503, body: Array((running ? "ready" : "not ready").utf8), route: "/readyz")
        case "/no-content":
            return HTTPResponse(status: 204, route: "/no-content")
        case "/framed":
            return HTTPResponse(
                status: 200, headers: [("Content-Length", "5"), ("date", "Sun, 06 Nov 1994 08:49:37 GMT")],
                route: "/framed")
        case "/unsendable":
            return HTTPResponse(
                status: 200,
                headers: [
                    ("X-Before", "1"), ("X-Split", "a\r\nInjected: yes"), ("X-Feed", "a\nInjected: yes"),
                    ("X-Nul", "a\u{0}b"), ("Bad:Name", "x"), ("", "nameless"), ("Con\rnection", "close"),
                    ("connection", "close"), ("X-After", "2"),
                ],
                body: Array("unsendable".utf8), route: "/unsendable")
        case "/request-id":
            return HTTPResponse(
                status: 200, headers: [("X-Before", "1")], body: Array("id".utf8), route: "/request-id",
                requestID: HTTPRequestID(inlineBytes: Self.requestIDWords))
        case _ where request.path.hasPrefix("/status/"):
            return HTTPResponse(status: Int(request.path.dropFirst("/status/".count)) ?? 500, route: "/status")
        case "/gated":
            gateReached.signal()
            _ = gate.wait(timeout: .now() + 10)
            fallthrough
        default:
            return HTTPResponse(
                status: 200,
                headers: [
                    ("Content-Type", "application/octet-stream"),
                    ("X-Method", request.method), ("X-Path", request.path),
                    ("X-Test", request.header("x-test") ?? "-"),
                ],
                body: request.body, route: "/echo")
        }
    }

    func didRespond(to request: HTTPRequest, with response: HTTPResponse, durationNanoseconds: UInt64) {
        respondedCount.add(1, ordering: .relaxed)
    }

    func didReject(_ request: HTTPRequest, because rejection: TransportRejection, with response: HTTPResponse) {
        let name = "\(rejection)".prefix { $0 != "(" }
        rejected.withLock { $0.append(String(name)) }
    }

    /// The probes, as the service has them.
    func answersBeyondCapacity(_ request: HTTPRequest) -> Bool {
        request.method == "GET" && (request.path == "/healthz" || request.path == "/readyz")
    }

    /// The rejection as the adapter reported it, and its status.
    func reject(_ request: HTTPRequest, because rejection: TransportRejection) -> HTTPResponse {
        HTTPResponse(
            status: rejection.status, headers: [("Content-Type", "application/problem+json")],
            body: Array("{\"rejection\":\"\(rejection)\",\"path\":\"\(request.path.prefix(16))\"}".utf8),
            route: "rejected")
    }
}
