#if canImport(Glibc)
import Glibc
#endif

/// Gives memory the allocator keeps but no one uses back to the kernel.
///
/// jemalloc (preloaded as deployed, ADR 0009) keeps freed pages for reuse and
/// returns them over its decay time only as it allocates again; glibc's
/// malloc, tuned to keep freed memory (`MallocTuning`), keeps the top of its
/// heap. After a burst of large requests or hostile clients, an idle server
/// would hold that peak for good. So a loop calls this once the buffers it
/// gave back pass a threshold and nothing large has come for a while
/// (`ConnectionTable.sweep`): jemalloc purges every arena
/// (`mallctl("arena.4096.purge")`, 4096 being `MALLCTL_ARENAS_ALL`); without
/// jemalloc, glibc's `malloc_trim(0)`.
enum FreedMemory {
    private typealias Mallctl =
        @convention(c) (
            UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int
        ) -> Int32
    private typealias MallocTrim = @convention(c) (Int) -> Int32

    /// Looked up once: jemalloc's `mallctl` if it serves malloc, else glibc's `malloc_trim`.
    private static let release: (@Sendable () -> Void)? = {
        #if canImport(Glibc)
        let everything = UnsafeMutableRawPointer(bitPattern: 0)
        if let symbol = dlsym(everything, "mallctl") {
            let mallctl = unsafeBitCast(symbol, to: Mallctl.self)
            return { _ = mallctl("arena.4096.purge", nil, nil, nil, 0) }
        }
        if let symbol = dlsym(everything, "malloc_trim") {
            let trim = unsafeBitCast(symbol, to: MallocTrim.self)
            return { _ = trim(0) }
        }
        #endif
        return nil
    }()

    static func giveBack() {
        release?()
    }
}
