import EventHTTP
import NotificationService

/// The memory budget and the default of `--max-connections`, from the
/// memory limit (docs/adr/0028-memory-budget-and-back-pressure.md): the
/// budget is the limit less a fixed reserve for the process and one for
/// each thread's decoding and reply under way. Connections are charged for
/// the bytes they hold, so the default limit is as many idle connections as
/// the budget holds (`HTTPServerConfiguration.connectionBaseBytes` each),
/// within the descriptor limit; requests are charged as their bytes arrive.
enum ConnectionLimit {
    static let reserveBytes = 32 << 20
    static let reservePerThreadBytes = 8 << 20
    static let minimum = 16
    /// Descriptors kept beside the connection limit, for every place outside
    /// it that can hold one: each event loop's probation places
    /// (`HTTPServerConfiguration.probationPlacesPerThread`), its refusals
    /// that hold no slot (`refusalPlacesPerThread`) and its own descriptors
    /// (listening socket, event base, doorbell: 8 to spare); the metrics
    /// listener's connections and the same places for its loop (64 + 136);
    /// and 64 for the rest (standard streams, the token file, /proc reads,
    /// the control loop and its signals). An `accept` that still finds none
    /// closes idle connections and pauses (docs/operations.md).
    static func descriptorReserve(threadCount: Int) -> Int {
        let perLoop =
            HTTPServerConfiguration.probationPlacesPerThread + HTTPServerConfiguration.refusalPlacesPerThread + 8
        return 64 + (64 + perLoop) + perLoop * max(1, threadCount)
    }
    /// Assumed when no limit can be read.
    static let fallbackMemoryBytes = 1 << 30

    /// The bytes the connections' buffers may take; never less than one
    /// largest body and its reply beside the minimum number of connections,
    /// so a tiny limit still serves.
    static func budgetBytes(memoryBytes: Int?, threadCount: Int, maxBodyBytes: Int, maxHeaderBytes: Int) -> Int {
        let available =
            (memoryBytes ?? fallbackMemoryBytes) - reserveBytes - reservePerThreadBytes * max(1, threadCount)
        let base = limits(maxBodyBytes: maxBodyBytes, maxHeaderBytes: maxHeaderBytes).connectionBaseBytes
        return max(available, 3 * maxBodyBytes + 2 * maxHeaderBytes + minimum * base)
    }

    static func derived(
        memoryBytes: Int?, descriptorLimit: Int?, threadCount: Int, maxBodyBytes: Int, maxHeaderBytes: Int
    ) -> Int {
        let perConnection = limits(maxBodyBytes: maxBodyBytes, maxHeaderBytes: maxHeaderBytes).connectionBaseBytes
        let budget = budgetBytes(
            memoryBytes: memoryBytes, threadCount: threadCount, maxBodyBytes: maxBodyBytes,
            maxHeaderBytes: maxHeaderBytes)
        var limit = max(minimum, budget / perConnection)
        if let descriptorLimit {
            limit = min(limit, max(minimum, descriptorLimit - descriptorReserve(threadCount: threadCount)))
        }
        return min(limit, 1_000_000)
    }

    private static func limits(maxBodyBytes: Int, maxHeaderBytes: Int) -> HTTPServerConfiguration {
        var configuration = HTTPServerConfiguration()
        configuration.maxBodyBytes = maxBodyBytes
        configuration.maxHeaderBytes = maxHeaderBytes
        return configuration
    }

    /// The cgroup's memory limit (v2, then v1), else the machine's memory; nil if neither can be read.
    static func memoryLimitBytes() -> Int? {
        if let text = readFile("/sys/fs/cgroup/memory.max"), let limit = Int(text) { return limit }
        if let text = readFile("/sys/fs/cgroup/memory/memory.limit_in_bytes"), let limit = Int(text),
            limit < 1 << 60
        {
            return limit
        }
        guard let text = readFile("/proc/meminfo", maxBytes: 8_192) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("MemTotal:") {
            let fields = line.split(separator: " ")
            if fields.count >= 2, let kibibytes = Int(fields[1]) { return kibibytes * 1_024 }
        }
        return nil
    }

    /// The hard limit on open descriptors (serve raises the soft one to it).
    static func descriptorLimit() -> Int? {
        ProcessIO.descriptorHardLimit()
    }

    /// A small file's text without its trailing newline.
    private static func readFile(_ path: String, maxBytes: Int = 64) -> String? {
        guard let contents = try? ProcessIO.readSmallFile(atPath: path, maxBytes: maxBytes).get() else { return nil }
        var text = String(decoding: contents, as: UTF8.self)
        while text.last == "\n" { text.removeLast() }
        return text
    }
}
