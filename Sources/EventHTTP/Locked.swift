#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a pthread mutex.
///
/// Used instead of the standard library's `Synchronization.Mutex` because on
/// Linux that one locks with futexes inside a library ThreadSanitizer does not
/// instrument, so every contended use is reported as a race (seen with Swift
/// 6.3: `make sanitize` failed at random). ThreadSanitizer understands pthread
/// mutexes, so the sanitizer run stays meaningful. Not for hot paths: those use
/// atomics.
///
/// Sendable where its value is: the lock hands the value from thread to
/// thread, so the value must be safe to hand over.
public final class Locked<Value> {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @discardableResult
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

// @unchecked Sendable: every access to `value` holds `mutex`.
extension Locked: @unchecked Sendable where Value: Sendable {}
