import CLibevent

/// The timers, user events and signal events of one event loop: the one
/// place that bridges libevent's C callback to a Swift closure for them.
/// Created and used on the loop's thread; `free()` (or deinit) frees every
/// event, before the base they belong to.
final class LoopEvents {
    enum Kind {
        /// Fires once per `schedule`.
        case timer
        /// Fires every interval given to `schedule`.
        case repeatingTimer
        /// Fires only when activated: `LoopEvent.activate` on the loop's
        /// thread, `LoopEvent.remote` from another (through the loop's `Doorbell`).
        case user
        /// Fires on each delivery of the signal, once `waitForSignal` added it.
        case signal(Int32)
    }

    /// What an event runs; the event's callback argument points at it.
    private final class Action {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    private let base: OpaquePointer
    private var created: [(event: OpaquePointer, action: Action)] = []
    /// How other threads activate this loop's user events; made with the first one.
    private var doorbell: Doorbell?

    init(base: OpaquePointer) {
        self.base = base
    }

    deinit { free() }

    /// A new event on the loop running `action` each time it fires; nil when
    /// libevent cannot allocate one.
    func make(_ kind: Kind, _ action: @escaping () -> Void) -> LoopEvent? {
        let box = Action(action)
        let argument = Unmanaged.passUnretained(box).toOpaque()
        let callback: event_callback_fn = { _, _, argument in
            guard let argument else { return }
            Unmanaged<Action>.fromOpaque(argument).takeUnretainedValue().run()
        }
        let event: OpaquePointer? =
            switch kind {
            case .timer: clibevent_timer_new(base, 0, callback, argument)
            case .repeatingTimer: clibevent_timer_new(base, 1, callback, argument)
            case .user: clibevent_user_event_new(base, callback, argument)
            case .signal(let number): clibevent_signal_new(base, number, callback, argument)
            }
        guard let event else { return nil }
        // The box lives as long as the event: `created` holds it.
        created.append((event, box))
        guard case .user = kind else { return LoopEvent(pointer: event, doorbell: nil) }
        if doorbell == nil { doorbell = Doorbell.make(on: base) }
        guard let doorbell else { return nil }
        return LoopEvent(pointer: event, doorbell: doorbell)
    }

    /// Frees every event made here, newest first, once no ring can reach them.
    func free() {
        doorbell?.detach()
        doorbell = nil
        for entry in created.reversed() { event_free(entry.event) }
        created.removeAll()
    }
}

/// One event made by `LoopEvents`, valid until they are freed.
struct LoopEvent {
    let pointer: OpaquePointer
    /// The loop's doorbell, for a user event.
    let doorbell: Doorbell?

    /// Fires after `nanoseconds` (a repeating timer: every `nanoseconds`);
    /// scheduling a pending timer again moves it.
    func schedule(afterNanoseconds nanoseconds: UInt64) {
        var interval = MonotonicClock.timeval(nanoseconds: nanoseconds)
        event_add(pointer, &interval)
    }

    /// Starts waiting for the signal of a signal event.
    func waitForSignal() {
        event_add(pointer, nil)
    }

    /// Fires the event on its loop (no-op if it is already pending
    /// activation). On the loop's thread only.
    func activate() {
        event_active(pointer, 0, 0)
    }

    /// The user event for another thread to `activate`.
    var remote: EventPointer {
        guard let doorbell else { preconditionFailure("only a user event is activated from another thread") }
        return EventPointer(pointer, doorbell)
    }
}

/// A loop's user event handed to another thread, only ever to activate it,
/// through the loop's doorbell.
// @unchecked Sendable: the pointer is never dereferenced here, only handed
// to the doorbell, whose loop activates it on its own thread.
struct EventPointer: @unchecked Sendable {
    let pointer: OpaquePointer
    let doorbell: Doorbell

    init(_ pointer: OpaquePointer, _ doorbell: Doorbell) {
        self.pointer = pointer
        self.doorbell = doorbell
    }

    /// Activates the event on its loop, from any thread; activations coalesce.
    func activate() {
        doorbell.ring(pointer)
    }
}
