#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Facts about this process that metrics report.
enum ProcessStats {
    /// Resident set size in bytes, from /proc/self/statm (Linux); nil where
    /// that file does not exist or cannot be read.
    static func residentMemoryBytes() -> Int? {
        let descriptor = open("/proc/self/statm", O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        // "size resident shared text lib data dt", in pages.
        let fields = buffer[0..<count].split(separator: UInt8(ascii: " "))
        guard fields.count >= 2, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
