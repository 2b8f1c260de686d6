import Synchronization

/// The server's connection limit (`HTTPServerConfiguration.maxConnections`)
/// and memory budget (`memoryBudgetBytes`), shared by its event loops. Each
/// loop counts the connections it accepts and releases, and charges the
/// bytes its connections may hold: a connection's own buffers when it is
/// accepted, a request's body and reply when its head arrives or its reply
/// is made, given back when the reply is written out or the connection
/// closes. A connection past the limit, or bytes past the budget, are
/// refused (docs/adr/0028-memory-budget-and-back-pressure.md).
final class ConnectionBudget: Sendable {
    let limit: Int
    /// nil: bytes are not counted (`charge` always succeeds).
    let memoryBytes: Int?
    private let openCount = Atomic<Int>(0)
    private let chargedBytes = Atomic<Int>(0)
    private let promisedBytes = Atomic<Int>(0)
    /// Times a loop gave the allocator's unused memory back (`FreedMemory`).
    let memoryGiveBacks = Atomic<Int>(0)

    init(limit: Int, memoryBytes: Int? = nil) {
        self.limit = max(1, limit)
        self.memoryBytes = memoryBytes
    }

    /// Connections counted now.
    var count: Int { openCount.load(ordering: .relaxed) }

    /// Bytes charged now.
    var chargedByteCount: Int { chargedBytes.load(ordering: .relaxed) }

    /// Bytes the budget can still take now.
    var availableByteCount: Int {
        guard let memoryBytes else { return .max }
        return max(0, memoryBytes - chargedByteCount)
    }

    /// Counts a new connection; false when it is past the limit (it stays
    /// counted until `release`, like every other).
    func admit() -> Bool {
        openCount.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue <= limit
    }

    /// A counted connection has closed.
    func release() {
        openCount.wrappingSubtract(1, ordering: .acquiringAndReleasing)
    }

    /// Charges `bytes`, unless that would take the charged bytes past the
    /// budget (then nothing is charged).
    func charge(_ bytes: Int) -> Bool {
        guard let memoryBytes, bytes > 0 else { return true }
        let total = chargedBytes.wrappingAdd(bytes, ordering: .relaxed).newValue
        guard total <= memoryBytes else {
            chargedBytes.wrappingSubtract(bytes, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Charges `bytes` already held (what the kernel still queues for a
    /// client once its reply was written), even past the budget: the next
    /// charges then make room.
    func chargeHeld(_ bytes: Int) {
        guard memoryBytes != nil, bytes > 0 else { return }
        chargedBytes.wrappingAdd(bytes, ordering: .relaxed)
    }

    /// Notes that a large body and its reply will take up to `bytes` as
    /// they come, unless what is charged and promised already leaves no room
    /// for them (then nothing is promised). A promise charges nothing: it
    /// only keeps more large bodies from starting than can finish.
    func promise(_ bytes: Int) -> Bool {
        guard let memoryBytes, bytes > 0 else { return true }
        let promised = promisedBytes.wrappingAdd(bytes, ordering: .relaxed).newValue
        guard promised + chargedBytes.load(ordering: .relaxed) <= memoryBytes else {
            promisedBytes.wrappingSubtract(bytes, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Withdraws a promise (the request is answered, or its connection closed).
    func withdrawPromise(_ bytes: Int) {
        guard memoryBytes != nil, bytes > 0 else { return }
        promisedBytes.wrappingSubtract(bytes, ordering: .relaxed)
    }

    /// Gives back bytes `charge` took.
    func discharge(_ bytes: Int) {
        guard memoryBytes != nil, bytes > 0 else { return }
        chargedBytes.wrappingSubtract(bytes, ordering: .relaxed)
    }
}
