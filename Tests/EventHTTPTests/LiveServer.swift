import Dispatch
import EventHTTP
import HTTPCore
import HTTPTestSupport
import Synchronization

/// An `HTTPServer` running on a background thread on 127.0.0.1, port 0.
final class LiveServer: Sendable {
    let server: HTTPServer
    let port: Int
    private let finished = DispatchSemaphore(value: 0)
    private let outcome = Outcome()

    /// What the server thread reports back.
    private final class Outcome: Sendable {
        let result = Locked<Result<HTTPServer.StopReport, HTTPServerError>?>(nil)
        let port = Atomic<Int>(0)
    }

    init(
        configuration: HTTPServerConfiguration = LiveServer.testConfiguration(), handler: any HTTPHandler,
        stateDidChange: @escaping @Sendable (ServerState) -> Void = { _ in }
    ) throws {
        var configuration = configuration
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let server = HTTPServer(configuration: configuration, handler: handler, stateDidChange: stateDidChange)
        self.server = server
        let started = DispatchSemaphore(value: 0)
        let outcome = self.outcome
        let finished = self.finished
        DetachedThread.detach {
            let result: Result<HTTPServer.StopReport, HTTPServerError>
            do throws(HTTPServerError) {
                result = .success(
                    try server.run(handlingSignals: false) { address in
                        outcome.port.store(address.port, ordering: .releasing)
                        started.signal()
                    })
            } catch {
                result = .failure(error)
            }
            outcome.result.withLock { $0 = result }
            started.signal()
            finished.signal()
        }
        guard started.wait(timeout: .now() + 10) == .success else {
            throw RawHTTPConnection.Failure(description: "server did not start within 10 s")
        }
        if case .failure(let error)? = outcome.result.withLock({ $0 }) { throw error }
        port = outcome.port.load(ordering: .acquiring)
    }

    static func testConfiguration() -> HTTPServerConfiguration {
        var configuration = HTTPServerConfiguration()
        configuration.threadCount = 2
        configuration.maxBodyBytes = 4_096
        configuration.readTimeoutSeconds = 5
        configuration.writeTimeoutSeconds = 5
        configuration.drainSeconds = 5
        return configuration
    }

    /// Drains and waits (bounded) for `run` to return.
    @discardableResult
    func stop(timeoutSeconds: Double = 10) throws -> HTTPServer.StopReport {
        server.shutdown()
        return try waitForStop(timeoutSeconds: timeoutSeconds)
    }

    func waitForStop(timeoutSeconds: Double) throws -> HTTPServer.StopReport {
        guard finished.wait(timeout: .now() + timeoutSeconds) == .success else {
            throw RawHTTPConnection.Failure(description: "server did not stop within \(timeoutSeconds) s")
        }
        finished.signal()
        switch outcome.result.withLock({ $0 }) {
        case .success(let report)?: return report
        case .failure(let error)?: throw error
        case nil: throw RawHTTPConnection.Failure(description: "no outcome")
        }
    }
}

/// A minimal detached thread (the server's `run` blocks its caller).
enum DetachedThread {
    static func detach(_ body: @escaping @Sendable () -> Void) {
        final class Box: Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        var handle = pthread_t()
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let result = pthread_create(
            &handle, nil,
            { argument in
                Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue().body()
                return nil
            }, box)
        precondition(result == 0, "pthread_create failed")
        pthread_detach(handle)
    }
}

#if canImport(Glibc)
import Glibc
#endif
