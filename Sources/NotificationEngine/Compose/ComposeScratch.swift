/// Scratch memory for one compose call: on the stack when it is small, as a
/// typical request's tables and record lists are, so they cost no `malloc`
/// and `free` and no reference counting; on the heap otherwise.
enum ComposeScratch {
    /// Up to this many bytes come from the stack. At most this size,
    /// `withUnsafeTemporaryAllocation` takes the stack without asking the
    /// runtime how much of it is left (which reads the thread's stack bounds).
    static var maxStackBytes: Int { 1_024 }

    /// Calls `body` with `byteCount` uninitialised bytes, 16-byte aligned,
    /// valid only during the call.
    @inline(__always)
    static func withBytes<R>(_ byteCount: Int, _ body: (UnsafeMutableRawBufferPointer) -> R) -> R {
        if byteCount <= maxStackBytes {
            return withUnsafeTemporaryAllocation(byteCount: byteCount, alignment: 16, body)
        }
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: byteCount, alignment: 16)
        defer { bytes.deallocate() }
        return body(bytes)
    }

    /// Calls `body` with room for `count` values of `T`, uninitialised, valid
    /// only during the call.
    @inline(__always)
    static func withBuffer<T: BitwiseCopyable, R>(
        of type: T.Type, count: Int, _ body: (UnsafeMutableBufferPointer<T>) -> R
    ) -> R {
        withBytes(count * MemoryLayout<T>.stride) { bytes in
            body(bytes.bindMemory(to: T.self))
        }
    }
}
