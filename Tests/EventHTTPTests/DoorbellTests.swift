import CLibevent
import Testing

@testable import EventHTTP

#if canImport(Glibc)
import Glibc
#endif

/// Other threads activate a loop's user events through its `Doorbell`:
/// libevent runs without its locks, so each event must fire on the loop's
/// own thread, and every ring must be answered.
@Suite struct DoorbellTests {
    /// A loop with `count` user events, each recording the thread it ran on
    /// and its runs; the loop ends when every event has run.
    private final class Loop: @unchecked Sendable {
        // @unchecked Sendable: `runs` and `threads` are touched on the loop's
        // thread only; `remotes` is written before other threads start.
        let base: OpaquePointer
        let events: LoopEvents
        var runs: [Int]
        var threads: [pthread_t?]
        var remotes: [EventPointer] = []

        init(count: Int) throws {
            base = try #require(WorkerLoop.makeEventBase())
            events = LoopEvents(base: base)
            runs = Array(repeating: 0, count: count)
            threads = Array(repeating: nil, count: count)
            for index in 0..<count {
                let run: () -> Void = { [unowned self] in
                    self.runs[index] += 1
                    self.threads[index] = pthread_self()
                    if !self.runs.contains(0) { event_base_loopexit(self.base, nil) }
                }
                guard let event = events.make(.user, run) else { throw NoEvent() }
                remotes.append(event.remote)
            }
        }

        func free() {
            events.free()
            event_base_free(base)
        }
    }

    @Test func ringsFromManyThreads_fireEachEventOnTheLoopsThread() throws {
        let loop = try Loop(count: 16)
        defer { loop.free() }
        let remotes = loop.remotes
        let ringers = (0..<4).map { ringer in
            Thread {
                for round in 0..<200 {
                    remotes[(ringer * 4 + round) % remotes.count].activate()
                }
            }
        }
        for ringer in ringers { ringer.start() }
        #expect(event_base_loop(loop.base, EVLOOP_NO_EXIT_ON_EMPTY) == 0)
        for ringer in ringers { ringer.join() }
        let own = pthread_self()
        #expect(!loop.runs.contains(0))
        for thread in loop.threads { #expect(thread.map { pthread_equal($0, own) != 0 } == true) }
    }

    @Test func aRingBeforeTheLoopRuns_isAnsweredWhenItRuns() throws {
        let loop = try Loop(count: 2)
        defer { loop.free() }
        let remotes = loop.remotes
        let ringer = Thread { for remote in remotes { remote.activate() } }
        ringer.start()
        ringer.join()
        #expect(event_base_loop(loop.base, EVLOOP_NO_EXIT_ON_EMPTY) == 0)
        #expect(loop.runs == [1, 1])
    }

    @Test func ringsOfOneEvent_coalesceIntoOneRun() throws {
        let loop = try Loop(count: 1)
        defer { loop.free() }
        for _ in 0..<50 { loop.remotes[0].activate() }
        #expect(event_base_loop(loop.base, EVLOOP_NO_EXIT_ON_EMPTY) == 0)
        #expect(loop.runs == [1])
    }

    @Test func aRingAfterTheLoopLetGo_changesNothing() throws {
        let loop = try Loop(count: 1)
        let remote = loop.remotes[0]
        loop.free()
        // The doorbell's pipe is still open (the remote holds it): the byte
        // goes nowhere and no freed event is touched.
        remote.activate()
        remote.activate()
        #expect(loop.runs == [0])
    }

    private struct NoEvent: Error {}

    /// A pthread for the test, joined by `join`.
    private final class Thread: @unchecked Sendable {
        // @unchecked Sendable: `handle` is set by `start` and read by `join`, on the test's thread.
        private let body: @Sendable () -> Void
        private var handle = pthread_t()

        init(_ body: @escaping @Sendable () -> Void) { self.body = body }

        func start() {
            let box = Unmanaged.passRetained(self).toOpaque()
            pthread_create(
                &handle, nil,
                { argument in
                    let thread = Unmanaged<Thread>.fromOpaque(argument!).takeRetainedValue()
                    thread.body()
                    return nil
                }, box)
        }

        func join() { pthread_join(handle, nil) }
    }
}
