#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One line buffer per thread in front of a descriptor (nginx's
/// `access_log … buffer=`): appending costs a copy, or nothing when the line
/// is written straight into the buffer, and a thread's lines reach the
/// descriptor in order, whole, with one write(2) per flush.
/// A thread's buffer is written out when it passes `flushThresholdBytes`,
/// on `flushCurrentThread()`, and when the thread exits.
final class ThreadLineBuffers: Sendable {
    /// Past this many bytes a buffer is written out at once.
    static let flushThresholdBytes = 32_768

    /// The calling thread's buffer: touched by that thread only, and by the
    /// key's destructor as the thread exits.
    private final class Buffer {
        static let capacity = ThreadLineBuffers.flushThresholdBytes + 1_024

        let descriptor: Int32
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: Buffer.capacity)
        var count = 0

        init(descriptor: Int32) {
            self.descriptor = descriptor
        }

        deinit {
            storage.deallocate()
        }

        var free: UnsafeMutableBufferPointer<UInt8> {
            UnsafeMutableBufferPointer(start: storage + count, count: Buffer.capacity - count)
        }

        func flush() {
            guard count > 0 else { return }
            LogSink.write(UnsafeRawBufferPointer(start: storage, count: count), to: descriptor)
            count = 0
        }

        func didAppend(_ byteCount: Int) {
            count += byteCount
            if count >= ThreadLineBuffers.flushThresholdBytes { flush() }
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
        line.withUnsafeBufferPointer { line in
            appendLine { free in
                if line.count <= free.count, let source = line.baseAddress {
                    free.baseAddress!.update(from: source, count: line.count)
                }
                return line.count
            }
        }
    }

    /// Adds the line `write` stores at the start of the free space it is
    /// given, returning the line's length; a length over the space given
    /// means nothing was stored, and `write` runs again after a flush, or
    /// (a line longer than a whole buffer) with a space of its own that goes
    /// out at once. `write` must produce the same line each time it runs.
    func appendLine(_ write: (UnsafeMutableBufferPointer<UInt8>) -> Int) {
        let buffer = currentBuffer()
        var needed = write(buffer.free)
        if needed <= buffer.free.count { return buffer.didAppend(needed) }
        buffer.flush()
        needed = write(buffer.free)
        if needed <= buffer.free.count { return buffer.didAppend(needed) }
        let line = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: needed)
        defer { line.deallocate() }
        let count = write(line)
        if count <= line.count {
            LogSink.write(UnsafeRawBufferPointer(start: line.baseAddress, count: count), to: descriptor)
        }
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
