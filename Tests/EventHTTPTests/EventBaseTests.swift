import CLibevent
import Testing

@testable import EventHTTP

/// The event base every worker runs on.
@Suite struct EventBaseTests {
    /// The epoll backend with its change list (2 `epoll_ctl` calls per
    /// keep-alive request instead of 4), on Linux where epoll exists.
    @Test func workerBase_usesEpollWithChangeList() throws {
        #if os(Linux)
        let base = try #require(WorkerLoop.makeEventBase())
        defer { event_base_free(base) }
        #expect(String(cString: event_base_get_method(base)) == "epoll (with changelist)")
        #endif
    }
}
