import CLibevent
import Synchronization

/// The control thread's loop inside `HTTPServer.run`: signals and stop
/// requests in, drain orders out to the workers, and the end of the run once
/// every worker's loop has ended. Confined to that thread.
final class ControlLoop {
    unowned let server: HTTPServer
    let base: OpaquePointer
    let drainSeconds: Double
    let shutdownDelaySeconds: Double
    var workers: [EventLoopWorker] = []
    var stopReason: String?
    var drainStartNanoseconds: UInt64?
    /// Starts the drain once a signal's shutdown delay is over.
    var delayTimer: LoopEvent?
    /// Counted by the workers themselves, from their own threads.
    let exitedWorkers = ExitedWorkerCount()

    init(server: HTTPServer, base: OpaquePointer, drainSeconds: Double, shutdownDelaySeconds: Double) {
        self.server = server
        self.base = base
        self.drainSeconds = drainSeconds
        self.shutdownDelaySeconds = shutdownDelaySeconds
    }

    /// A signal (`reason` "SIGTERM", "SIGINT") waits out the shutdown delay,
    /// serving as before but for readiness, then drains; `shutdown()`
    /// ("shutdown") drains at once.
    func stop(reason: String) {
        guard stopReason == nil else {
            // A second signal: the operator does not want to wait.
            if reason != "shutdown" {
                for worker in workers { worker.requestForcedClose() }
            }
            return
        }
        stopReason = reason
        server.setState(.draining)
        let delaySeconds = reason == "shutdown" ? 0 : shutdownDelaySeconds
        if delaySeconds > 0, let delayTimer {
            delayTimer.schedule(afterNanoseconds: MonotonicClock.nanoseconds(fromSeconds: delaySeconds))
        } else {
            beginDrain()
        }
    }

    func beginDrain() {
        guard drainStartNanoseconds == nil else { return }
        let now = MonotonicClock.nanoseconds()
        drainStartNanoseconds = now
        let deadline = now + MonotonicClock.nanoseconds(fromSeconds: drainSeconds)
        for worker in workers { worker.requestDrain(deadlineNanoseconds: deadline) }
    }

    func workerDidExit() {
        if exitedWorkers.value.load(ordering: .acquiring) >= workers.count {
            event_base_loopexit(base, nil)
        }
    }
}

/// Workers whose loop has ended.
final class ExitedWorkerCount: Sendable {
    let value = Atomic<Int>(0)
}
