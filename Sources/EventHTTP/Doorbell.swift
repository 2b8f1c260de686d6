import CLibevent

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How another thread activates an event of a loop: the events to activate
/// are listed under a lock, and one byte written to a pipe the loop watches
/// wakes it; the loop then activates them itself, on its own thread.
///
/// So libevent runs without its locks (no `evthread_use_pthreads`): an
/// event base is only ever touched by the thread that runs it, and the
/// request path takes no lock at all (ADR 0026). Ringing is rare (a drain,
/// a forced close, a worker's exit, a stop), so its lock and its `write(2)`
/// cost nothing that matters.
///
/// The pipe stays open while anything can ring (this object lives as long
/// as the `EventPointer`s that hold it), so a late ring never writes into a
/// descriptor that was reused; once the loop has let go (`detach`), a ring
/// only lists an event no one will activate.
final class Doorbell: @unchecked Sendable {
    // @unchecked Sendable: `pending` is guarded by its lock; `watch` is made,
    // used and freed on the loop's thread only; the descriptors never change.
    private let readDescriptor: Int32
    private let writeDescriptor: Int32
    /// The events to activate, each listed once, in the order rung.
    private let pending = Locked<[UInt]>([])
    /// The loop's read event on `readDescriptor`.
    private var watch: OpaquePointer?

    private init(readDescriptor: Int32, writeDescriptor: Int32) {
        self.readDescriptor = readDescriptor
        self.writeDescriptor = writeDescriptor
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    /// A doorbell watched by `base`, made on the base's thread; nil when no
    /// pipe or event can be made.
    static func make(on base: OpaquePointer) -> Doorbell? {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return nil }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        let doorbell = Doorbell(readDescriptor: descriptors[0], writeDescriptor: descriptors[1])
        let callback: event_callback_fn = { _, _, argument in
            guard let argument else { return }
            Unmanaged<Doorbell>.fromOpaque(argument).takeUnretainedValue().answer()
        }
        // The event holds the doorbell unretained: `detach` frees it first.
        let argument = Unmanaged.passUnretained(doorbell).toOpaque()
        guard let watch = event_new(base, descriptors[0], Int16(EV_READ | EV_PERSIST), callback, argument) else {
            return nil
        }
        guard event_add(watch, nil) == 0 else {
            event_free(watch)
            return nil
        }
        doorbell.watch = watch
        return doorbell
    }

    /// Asks the loop to activate `event`; from any thread.
    func ring(_ event: OpaquePointer) {
        let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(event)))
        let wakes = pending.withLock { events -> Bool in
            guard !events.contains(key) else { return false }
            events.append(key)
            // Only the first: until the loop takes the list, a byte is on its way.
            return events.count == 1
        }
        guard wakes else { return }
        var byte: UInt8 = 1
        // A full pipe (EAGAIN) already wakes the loop.
        _ = write(writeDescriptor, &byte, 1)
    }

    /// On the loop's thread: empties the pipe, then activates what was rung.
    private func answer() {
        var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &bytes, { read(readDescriptor, $0.baseAddress, $0.count) }) > 0 {}
        let events = pending.withLock { events in
            let taken = events
            events = []
            return taken
        }
        for key in events {
            guard let event = OpaquePointer(bitPattern: key) else { continue }
            event_active(event, 0, 0)
        }
    }

    /// On the loop's thread, before its events and base are freed: stops
    /// watching. Later rings are listed and never answered.
    func detach() {
        guard let watch else { return }
        event_free(watch)
        self.watch = nil
    }
}
