import NotificationEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The calling thread's `KeptShapes` (the engine's shapes and request
/// storage, which the engine takes from its caller): one per thread,
/// reached through a thread-specific key, made on the thread's first body
/// and freed as the thread exits. A thread uses only its own, one body at a
/// time, so no lock guards it.
enum ThreadKeptShapes {
    /// The key, made once for the process; nil when the process has no key
    /// left (then every body starts from fresh shapes).
    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        // The destructor frees an exiting thread's shapes.
        let status = pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<KeptShapes>.fromOpaque(pointer).release()
        }
        return status == 0 ? key : nil
    }()

    /// The calling thread's shapes, made on its first call.
    @inline(__always)
    static func current() -> KeptShapes {
        if let key, let pointer = pthread_getspecific(key) {
            return Unmanaged<KeptShapes>.fromOpaque(pointer).takeUnretainedValue()
        }
        return makeCurrent()
    }

    @inline(never)
    private static func makeCurrent() -> KeptShapes {
        let shapes = KeptShapes()
        if let key, pthread_setspecific(key, Unmanaged.passRetained(shapes).toOpaque()) != 0 {
            Unmanaged.passUnretained(shapes).release()
        }
        return shapes
    }
}
