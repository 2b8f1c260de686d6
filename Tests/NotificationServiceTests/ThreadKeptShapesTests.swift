import EngineTestSupport
import Testing

@testable import NotificationEngine
@testable import NotificationService

#if canImport(Glibc)
import Glibc
#endif

/// The shapes a first pass leaves are the calling thread's (`ThreadKeptShapes`,
/// the service's, handed to the engine's decoder; `KeptShapesTests` has what
/// a kept shape does).
@Suite struct ThreadKeptShapesTests {
    /// Each thread keeps its own (`ThreadKeptShapes`, handed to the engine):
    /// a new thread starts from no shape, whatever
    /// other threads read, and threads of different shapes decode at once.
    @Test func eachThreadKeepsItsOwnShapes() {
        let payload = repositoryFile("bench/payloads/compose-20.json")
        _ = ShapedDecoding.decode(payload, readsShapes: true, kept: ThreadKeptShapes.current())
        let counts = Self.onNewThreads(1) { _ in
            [payload, payload].map {
                ShapedDecoding.decode($0, readsShapes: true, kept: ThreadKeptShapes.current()).shapedReads
            }
        }
        #expect(counts == [[20, 22]])
        // Issues are recorded on the test's own thread: the threads count.
        let results = Self.onNewThreads(4) { thread in
            var random = SplitMix64(seed: UInt64(thread))
            var differing = 0
            var gain = 0
            for _ in 0..<300 {
                let json = UniformCompose.json(using: &random, shape: UInt64(100 + thread))
                let carried = ShapedDecoding.decode(json, readsShapes: true, kept: ThreadKeptShapes.current())
                let general = ShapedDecoding.decode(json, readsShapes: false)
                if !Self.same(carried.outcome, general.outcome) { differing += 1 }
                gain += carried.shapedReads - ShapedDecoding.decode(json, readsShapes: true).shapedReads
            }
            return [differing, gain]
        }
        for (thread, result) in results.enumerated() {
            #expect(result[0] == 0, "thread \(thread): \(result[0]) requests decoded otherwise than without shapes")
            // Many a request's first notification is as the last of the
            // request before (a `null` value is another shape).
            #expect(result[1] > 50, "thread \(thread): \(result[1]) objects more read by a kept shape")
        }
    }

    private static func same(_ a: Result<ComposeRequest, Problem>, _ b: Result<ComposeRequest, Problem>) -> Bool {
        switch (a, b) {
        case (.success(let a), .success(let b)): a == b && a.bytes == b.bytes
        case (.failure(let a), .failure(let b)): a.code == b.code && a.detail == b.detail
        default: false
        }
    }

    /// Runs `body` on `count` new threads at once, each with its index; their results.
    private static func onNewThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> [Int]) -> [[Int]] {
        final class Run: @unchecked Sendable {
            let index: Int
            let body: @Sendable (Int) -> [Int]
            var result: [Int] = []  // written by its thread, read after the join
            init(_ index: Int, _ body: @escaping @Sendable (Int) -> [Int]) {
                self.index = index
                self.body = body
            }
        }
        let runs = (0..<count).map { Run($0, body) }
        let threads = runs.map { run -> pthread_t in
            var thread = pthread_t()
            let status = pthread_create(
                &thread, nil,
                { argument in
                    let run = Unmanaged<Run>.fromOpaque(argument!).takeRetainedValue()
                    run.result = run.body(run.index)
                    return nil
                }, Unmanaged.passRetained(run).toOpaque())
            precondition(status == 0, "pthread_create failed")
            return thread
        }
        for thread in threads { pthread_join(thread, nil) }
        return runs.map(\.result)
    }
}
