import Dispatch
import EventHTTP
import HTTPCore

/// The `--metrics-port` listener: a second `HTTPServer` (one event loop) on a
/// background thread, answering only `/metrics` and the probes. It does not
/// handle signals; the main server does, and stops this one when it stops.
final class MetricsListener: Sendable {
    let address: BoundAddress
    private let server: HTTPServer
    private let finished: DispatchSemaphore

    /// Binds and starts the listener; returns once it accepts connections.
    init(configuration: HTTPServerConfiguration, handler: any HTTPHandler) throws(HTTPServerError) {
        let server = HTTPServer(configuration: configuration, handler: handler)
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<BoundAddress, HTTPServerError>?>(nil)
        DispatchQueue(label: "notification-text.metrics-listener").async {
            do throws(HTTPServerError) {
                _ = try server.run(handlingSignals: false) { address in
                    outcome.withLock { $0 = .success(address) }
                    started.signal()
                }
            } catch {
                outcome.withLock { $0 = .failure(error) }
                started.signal()
            }
            finished.signal()
        }
        started.wait()
        switch outcome.withLock({ $0 }) {
        case .success(let address)?:
            self.address = address
        case .failure(let error)?:
            throw error
        case nil:
            throw .libeventFailed("metrics listener stopped before it started")
        }
        self.server = server
        self.finished = finished
    }

    /// Starts draining, without waiting: idle connections close at once
    /// (scrapers reconnect), a scrape under way is answered.
    func beginDrain() {
        server.shutdown()
    }

    /// Drains the listener and waits for its loop to end (bounded by its drain time).
    func stop() {
        server.shutdown()
        _ = finished.wait(timeout: .now() + server.configuration.drainSeconds + 5)
    }
}
