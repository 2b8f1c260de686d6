#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where log lines go. Each line is handed over whole, and the standard sinks
/// emit whole lines with one write(2): lines from concurrent threads never
/// interleave.
public struct LogSink: Sendable {
    public var write: @Sendable ([UInt8]) -> Void
    /// Writes out what the calling thread has buffered (a no-op for the
    /// unbuffered sinks).
    public var flush: @Sendable () -> Void
    /// The buffers of a buffered sink, which lines can be written straight into.
    let lineBuffers: ThreadLineBuffers?

    public init(write: @escaping @Sendable ([UInt8]) -> Void, flush: @escaping @Sendable () -> Void = {}) {
        self.init(write: write, flush: flush, lineBuffers: nil)
    }

    private init(
        write: @escaping @Sendable ([UInt8]) -> Void, flush: @escaping @Sendable () -> Void,
        lineBuffers: ThreadLineBuffers?
    ) {
        self.write = write
        self.flush = flush
        self.lineBuffers = lineBuffers
    }

    /// File descriptor 1, one write(2) per line.
    public static let standardOutput = LogSink { writeLine($0, to: 1) }
    /// File descriptor 1 through one buffer per thread: a thread's lines go
    /// out in order, with one write(2) when its buffer passes
    /// `ThreadLineBuffers.flushThresholdBytes`, when the thread calls `flush`
    /// (the event loops do after each iteration that answered requests, from
    /// a timer, and as they end), or when the thread exits. The serve
    /// command's access log.
    public static let bufferedStandardOutput = buffered(descriptor: 1)

    /// `descriptor` through one buffer per thread, as `bufferedStandardOutput`.
    public static func buffered(descriptor: Int32) -> LogSink {
        let buffers = ThreadLineBuffers(descriptor: descriptor)
        return LogSink(write: { buffers.append($0) }, flush: { buffers.flushCurrentThread() }, lineBuffers: buffers)
    }
    /// File descriptor 2; the error log.
    public static let standardError = LogSink { writeLine($0, to: 2) }
    /// Drops every line.
    public static let discard = LogSink { _ in }

    /// One line: stored by `store` straight into the calling thread's buffer
    /// (see `ThreadLineBuffers.appendLine`) when the sink is buffered, else
    /// made by `line` and handed to `write`. Both must give the same bytes.
    func writeLine(storing store: (UnsafeMutableBufferPointer<UInt8>) -> Int, orMaking line: () -> [UInt8]) {
        if let lineBuffers {
            lineBuffers.appendLine(store)
        } else {
            write(line())
        }
    }

    /// One write(2) for the line; a short write (only possible past the pipe's
    /// atomic size) or EINTR continues with the rest instead of losing it.
    /// The adapter's and the CLI's output go through it too.
    public static func writeLine(_ line: [UInt8], to descriptor: Int32) {
        line.withUnsafeBytes { write($0, to: descriptor) }
    }

    static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) {
        guard let start = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(descriptor, start + offset, bytes.count - offset)
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
