#if canImport(Glibc)
import Glibc
#endif

/// Whether `condition` holds within `seconds`, checked every millisecond:
/// for a test that must wait for something it has no event for (the kernel
/// acknowledging bytes, a listener closing), never a fixed pause.
public func eventually(withinSeconds seconds: Double, _ condition: () -> Bool) -> Bool {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let deadline = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 + seconds
    while !condition() {
        clock_gettime(CLOCK_MONOTONIC, &now)
        guard Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 < deadline else { return false }
        var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
        nanosleep(&pause, nil)
    }
    return true
}

/// Whether connecting to `port` on 127.0.0.1 is refused within `seconds`: a
/// draining server closes every listener once each of its loops has begun
/// its drain.
public func connectionsAreRefused(port: Int, withinSeconds seconds: Double) -> Bool {
    eventually(withinSeconds: seconds) { (try? RawHTTPConnection(port: port)) == nil }
}
