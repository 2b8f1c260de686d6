#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The tokens in force, replaced whole when the token file is reloaded
/// (SIGHUP) while event-loop threads check requests against them.
///
/// A pthread read-write lock rather than `Synchronization.Mutex`: on Linux
/// ThreadSanitizer does not see the latter's futexes and reports every
/// contended use as a race (see EventHTTP's `Locked`). Readers take it
/// shared, so checking threads never wait for each other.
final class AuthTokenStore: @unchecked Sendable {
    // @unchecked Sendable: `tokens` is read and written only under `lock`.
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>
    private var tokens: AuthTokens

    init(_ tokens: AuthTokens) {
        self.tokens = tokens
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    var current: AuthTokens {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return tokens
    }

    func replace(with newTokens: AuthTokens) {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        tokens = newTokens
    }
}
