#if canImport(Glibc)
import Glibc
#endif

/// Nanoseconds on CLOCK_MONOTONIC: for durations and deadlines, never dates.
enum MonotonicClock {
    static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    static func nanoseconds(fromSeconds seconds: Double) -> UInt64 {
        seconds <= 0 ? 0 : UInt64(min(seconds, 1e9) * 1e9)
    }

    /// A `timeval` for libevent timers and timeouts.
    static func timeval(nanoseconds: UInt64) -> timeval {
        Glibc.timeval(tv_sec: Int(nanoseconds / 1_000_000_000), tv_usec: Int(nanoseconds % 1_000_000_000 / 1_000))
    }
}
