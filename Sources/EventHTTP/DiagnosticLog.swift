#if canImport(Glibc)
import Glibc
#endif

/// The adapter's own log lines (libevent's warnings on stderr, a loop that
/// failed on stdout beside the access log), one JSON object per line.
enum DiagnosticLog {
    static let standardOutput: Int32 = 1
    static let standardError: Int32 = 2

    /// `line` and a newline in one write(2), so lines from several threads
    /// never interleave (a line this short is never written in part).
    static func write(_ line: String, to descriptor: Int32) {
        var bytes = Array((line + "\n").utf8)
        while bytes.withUnsafeMutableBytes({ Glibc.write(descriptor, $0.baseAddress, $0.count) }) < 0 && errno == EINTR
        {}
    }
}
