#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One line buffer per thread in front of a descriptor (nginx's
/// `access_log … buffer=`): appending costs a copy, and a thread's lines
/// reach the descriptor in order, whole, with one write(2) per flush.
/// A thread's buffer is written out when it passes `flushThresholdBytes`,
/// on `flushCurrentThread()`, and when the thread exits.
final class ThreadLineBuffers: Sendable {
    /// Past this many bytes a buffer is written out at once.
    static let flushThresholdBytes = 32_768

    /// The calling thread's buffer: touched by that thread only, and by the
    /// key's destructor as the thread exits.
    private final class Buffer {
        let descriptor: Int32
        var bytes: [UInt8] = []

        init(descriptor: Int32) {
            self.descriptor = descriptor
            bytes.reserveCapacity(ThreadLineBuffers.flushThresholdBytes + 1_024)
        }

        func flush() {
            guard !bytes.isEmpty else { return }
            bytes.withUnsafeBytes { LogSink.write($0, to: descriptor) }
            bytes.removeAll(keepingCapacity: true)
        }
    }

    private let descriptor: Int32
    private let key: pthread_key_t

    init(descriptor: Int32) {
        self.descriptor = descriptor
        var key = pthread_key_t()
        // The destructor writes out what an exiting thread left and frees its buffer.
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            let buffer = Unmanaged<Buffer>.fromOpaque(pointer).takeRetainedValue()
            buffer.flush()
        }
        self.key = key
    }

    /// Adds a whole line to the calling thread's buffer.
    func append(_ line: [UInt8]) {
        let buffer = currentBuffer()
        buffer.bytes.append(contentsOf: line)
        if buffer.bytes.count >= Self.flushThresholdBytes { buffer.flush() }
    }

    /// Writes out the calling thread's buffer (nothing when it is empty).
    func flushCurrentThread() {
        guard let pointer = pthread_getspecific(key) else { return }
        Unmanaged<Buffer>.fromOpaque(pointer).takeUnretainedValue().flush()
    }

    private func currentBuffer() -> Buffer {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<Buffer>.fromOpaque(pointer).takeUnretainedValue()
        }
        let buffer = Buffer(descriptor: descriptor)
        pthread_setspecific(key, Unmanaged.passRetained(buffer).toOpaque())
        return buffer
    }
}
