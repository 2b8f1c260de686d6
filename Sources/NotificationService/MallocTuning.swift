#if canImport(Glibc)
import Glibc
#endif

/// glibc malloc settings for a long-running process that renders many small
/// messages: keep freed memory in the process instead of giving it back to
/// the kernel after every request. Without this, a render that frees ~100 KB of
/// scratch at the top of the heap makes glibc trim the heap and fault the pages
/// back in on the next request (measured: 5 page faults and ~2× the time per
/// hostile render). Resident memory stays bounded by the peak in use.
public enum MallocTuning {
    /// `M_TRIM_THRESHOLD` and `M_TOP_PAD` from glibc's malloc.h (not visible to Swift).
    private static let trimThresholdOption: Int32 = -1
    private static let topPadOption: Int32 = -2

    /// Applies the settings once, at start-up; a no-op where `mallopt` is missing.
    public static func keepFreedMemory(trimThresholdBytes: Int32 = 64 << 20, topPadBytes: Int32 = 1 << 20) {
        #if canImport(Glibc)
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        _ = mallopt(trimThresholdOption, trimThresholdBytes)
        _ = mallopt(topPadOption, topPadBytes)
        #endif
    }
}
