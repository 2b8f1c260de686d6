
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a decoder's first pass leaves for the next body it reads on the same
/// thread: the last notification's and displayed entry's shapes
/// (`ObjectShape`, literals copied) and the recent day (`RecentDay`).
///
/// Clients send every request with the same members in the same order, so
/// the shape one request noted almost always fits the next request's first
/// notification and first displayed entry, which are then read by it rather
/// than by the general path.
///
/// It also keeps the buffers of the thread's last request
/// (`requestStorage`): the next first pass copies its body into them, so a
/// typical request allocates none (ADR 0024).
///
/// One per thread, reached through a thread-specific key (`current`), made
/// on the thread's first body and freed as the thread exits: a thread uses
/// only its own, one body at a time, so no lock guards it. Only the first
/// pass keeps shapes; the validated pass (ADR 0008) starts from none, in
/// storage of its own (`validatedNotification`, `validatedDisplayed`), and
/// leaves none.
final class KeptShapes {
    var notification: ObjectShape
    var displayed: ObjectShape
    var recentDay = RecentDay()
    /// The storage of the validated pass's shapes.
    let validatedNotification: ObjectShape
    let validatedDisplayed: ObjectShape
    /// The buffers of the last request decoded and of its response, given
    /// back once the response was written (`ComposeDecoder.keptForThisThread`);
    /// a request and its response hold them in between.
    var requestStorage = ComposeRequest.Storage()

    /// Shapes not yet known; `isEnabled` false notes none (tests compare).
    init(isEnabled: Bool = true) {
        notification = .allocate(isEnabled: isEnabled)
        displayed = .allocate(isEnabled: isEnabled)
        validatedNotification = .allocate(isEnabled: isEnabled)
        validatedDisplayed = .allocate(isEnabled: isEnabled)
    }

    deinit {
        notification.deallocate()
        displayed.deallocate()
        validatedNotification.deallocate()
        validatedDisplayed.deallocate()
    }

    /// A key for `current`, made once for the process; nil when the
    /// process has no key left (then every body starts from fresh shapes).
    static func makeKey() -> pthread_key_t? {
        var key = pthread_key_t()
        // The destructor frees an exiting thread's shapes.
        let status = pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<KeptShapes>.fromOpaque(pointer).release()
        }
        return status == 0 ? key : nil
    }

    /// The calling thread's shapes under `key`, made on its first call.
    @inline(__always)
    static func current(_ key: pthread_key_t?) -> KeptShapes {
        if let key, let pointer = pthread_getspecific(key) {
            return Unmanaged<KeptShapes>.fromOpaque(pointer).takeUnretainedValue()
        }
        return makeCurrent(key)
    }

    @inline(never)
    private static func makeCurrent(_ key: pthread_key_t?) -> KeptShapes {
        let shapes = KeptShapes()
        if let key, pthread_setspecific(key, Unmanaged.passRetained(shapes).toOpaque()) != 0 {
            Unmanaged.passUnretained(shapes).release()
        }
        return shapes
    }
}
