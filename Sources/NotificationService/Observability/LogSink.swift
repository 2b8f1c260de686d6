#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where log lines go. Each line is handed over whole, so the standard sinks
/// can emit it with one write(2): lines from concurrent threads never interleave.
public struct LogSink: Sendable {
    public var write: @Sendable ([UInt8]) -> Void

    public init(write: @escaping @Sendable ([UInt8]) -> Void) {
        self.write = write
    }

    /// File descriptor 1; the access log.
    public static let standardOutput = LogSink { writeLine($0, to: 1) }
    /// File descriptor 2; the error log.
    public static let standardError = LogSink { writeLine($0, to: 2) }
    /// Drops every line.
    public static let discard = LogSink { _ in }

    /// One write(2) for the line; a short write (only possible past the pipe's
    /// atomic size) or EINTR continues with the rest instead of losing it.
    /// The adapter's and the CLI's output go through it too.
    public static func writeLine(_ line: [UInt8], to descriptor: Int32) {
        line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if n > 0 {
                    offset += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    return  // a closed or full log must not take the service down
                }
            }
        }
    }
}
