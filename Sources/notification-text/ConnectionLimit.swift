#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The default of `--max-connections`: as many connections as the memory
/// holds when every one is uploading a body of the largest size at once
/// (docs/adr/0017-connection-limits-and-drain.md). A connection's input holds at most
/// its head and one body (the adapter stops reading while a reply is
/// pending), so that is its worst case; the rest is a fixed reserve for the
/// process and each thread's decoding and reply.
enum ConnectionLimit {
    static let reserveBytes = 32 << 20
    static let reservePerThreadBytes = 8 << 20
    static let slackPerConnectionBytes = 64 << 10
    static let minimum = 16
    /// Descriptors kept for everything else (log, listeners, /proc reads).
    static let descriptorReserve = 64

    static func derived(
        memoryBytes: Int?, descriptorLimit: Int?, threadCount: Int, maxBodyBytes: Int, maxHeaderBytes: Int
    ) -> Int {
        let perConnection = maxBodyBytes + maxHeaderBytes + slackPerConnectionBytes
        let available = (memoryBytes ?? 1 << 30) - reserveBytes - reservePerThreadBytes * max(1, threadCount)
        var limit = max(minimum, available / perConnection)
        if let descriptorLimit { limit = min(limit, max(minimum, descriptorLimit - descriptorReserve)) }
        return min(limit, 1_000_000)
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
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_max != rlim_t.max else { return nil }
        return Int(clamping: limit.rlim_max)
    }

    /// A small file's text without its trailing newline.
    private static func readFile(_ path: String, maxBytes: Int = 64) -> String? {
        guard let contents = ServeConfiguration.readSmallFile(path, maxBytes: maxBytes) else { return nil }
        var text = String(decoding: contents, as: UTF8.self)
        while text.last == "\n" { text.removeLast() }
        return text
    }
}
