import Synchronization

/// The server's connection limit (`HTTPServerConfiguration.maxConnections`),
/// shared by its event loops: each counts the connections it accepts and
/// releases, and every loop is told when the count reaches the limit (it
/// stops accepting: new connections wait in the kernel's backlog) and when
/// it drops below again (it accepts again). A connection accepted past the
/// limit, when two loops accept at the same moment, is answered 503.
final class ConnectionBudget: Sendable {
    let limit: Int
    private let openCount = Atomic<Int>(0)
    /// Each loop's event to re-read `isFull`, while the loop runs.
    private let loops = Locked<[UInt: EventPointer]>([:])

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Connections counted now.
    var count: Int { openCount.load(ordering: .relaxed) }

    /// Whether a loop should stop accepting.
    var isFull: Bool { openCount.load(ordering: .acquiring) >= limit }

    /// Counts a new connection; false when it is past the limit (and must be refused).
    func admit() -> Bool {
        let count = openCount.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
        if count == limit { notifyLoops() }
        return count <= limit
    }

    /// A counted connection has closed.
    func release() {
        let count = openCount.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue
        if count == limit - 1 { notifyLoops() }
    }

    /// `event` fires on its loop whenever `isFull` may have changed; the loop
    /// must `unregister` before it frees the event.
    func register(_ event: EventPointer, key: UInt) {
        loops.withLock { $0[key] = event }
    }

    func unregister(key: UInt) {
        _ = loops.withLock { $0.removeValue(forKey: key) }
    }

    private func notifyLoops() {
        loops.withLock { loops in
            for event in loops.values { event.activate() }
        }
    }
}
