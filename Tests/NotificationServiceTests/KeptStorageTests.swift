import EngineTestSupport
import Testing

@testable import NotificationEngine
@testable import NotificationService

/// A thread keeps the buffers of its last compose request and response
/// (`ComposeRequest.Storage`, in `KeptShapes.requestStorage`) and fills the
/// next request into them. The promise: every answer is the one a request
/// made from nothing gets, whatever came before on the thread, and a caller
/// that keeps a request or a response keeps its values.
@Suite struct KeptStorageTests {
    private static let clock = Timestamp(rfc3339: "2026-11-29T12:00:00Z")!

    /// The answer from fresh storage, through the public entry points.
    private static func freshAnswer(_ body: [UInt8]) -> Result<[UInt8], Problem> {
        Result { () throws(Problem) -> [UInt8] in
            Composer.compose(try ComposeRequest.decode(body, serverApp: "Buzz", now: { clock })).jsonBody()
        }
    }

    /// The answer through the service's path, which uses the thread's kept storage.
    private static func keptAnswer(_ body: [UInt8]) -> Result<[UInt8], Problem> {
        Result { () throws(Problem) -> [UInt8] in
            try ServiceAnswers.compose(request: body, appName: "Buzz", now: { clock })
        }
    }

    private static func notification(_ id: String, sender: String, thread: String = "t1", text: String = "hi")
        -> String
    {
        #"{"id":"\#(id)","source":"chat","type":"message","timestamp":"2026-11-29T11:5\#(id.count % 10):00Z","#
            + #""thread":"\#(thread)","sender":{"id":"u\#(id)","name":"\#(sender)"},"text":"\#(text)"}"#
    }

    /// Bodies of every kind, a problem among them, in an order where each
    /// is filled into storage another kind left.
    private static func request(_ notifications: String...) -> [UInt8] {
        Array(#"{"notifications":[\#(notifications.joined(separator: ","))]}"#.utf8)
    }

    /// Bodies of every kind, a problem among them, in an order where each
    /// is filled into storage another kind left.
    private static let bodies: [(label: String, body: [UInt8])] = [
        ("bench payload", repositoryFile("bench/payloads/compose-20.json")),
        ("bundle", request(notification("1", sender: "Ann"), notification("2", sender: "Bo"))),
        (
            "fallback",
            Array(#"{"fetch":"failed","displayed":[{"key":"chat:9","timestamp":"2026-11-29T11:58:00Z"}]}"#.utf8)
        ),
        ("invalid", request(#"{"id":"x"}"#)),
        (
            "summary",
            request(notification("3", sender: "Cy", thread: "a"), notification("4", sender: "Di", thread: "b"))
        ),
        ("escaped single", request(notification("5", sender: "\\u00c9va", text: "a\\nb"))),
        ("bench payload again", repositoryFile("bench/payloads/compose-20.json")),
    ]

    @Test func answers_inAnyOrderOnOneThread_areThoseOfFreshStorage() {
        #expect(!Self.bodies[0].body.isEmpty, "bench/payloads/compose-20.json is missing")
        for _ in 0..<2 {
            for (label, body) in Self.bodies {
                let kept = Self.keptAnswer(body)
                let fresh = Self.freshAnswer(body)
                switch (kept, fresh) {
                case (.success(let kept), .success(let fresh)):
                    #expect(kept == fresh, "\(label): the answer differs from fresh storage's")
                case (.failure(let kept), .failure(let fresh)):
                    #expect(kept.code == fresh.code && kept.detail == fresh.detail, "\(label)")
                default:
                    Issue.record("\(label): \(kept) from kept storage, \(fresh) from fresh storage")
                }
            }
        }
    }

    @Test func afterAnAnswer_theThreadKeepsEveryBuffer() throws {
        _ = try Self.keptAnswer(Self.bodies[0].body).get()
        let capacities = ThreadKeptShapes.current().requestStorage.capacities
        // bytes, notifications, displayed, the response's records and texts.
        #expect(capacities.count == 5)
        #expect(capacities.allSatisfy { $0 > 0 }, "kept: \(capacities)")
        #expect(capacities[0] > Self.bodies[0].body.count, "the body's buffer has room for keys")
    }

    @Test func aLargeRequest_doesNotLeaveItsBuffersToTheThread() throws {
        let text = String(repeating: "a", count: 80_000)
        let body = Self.request(Self.notification("1", sender: "Ann", text: text))
        _ = try Self.keptAnswer(body).get()
        let capacities = ThreadKeptShapes.current().requestStorage.capacities
        #expect(capacities[0] <= ComposeRequest.Storage.maxKeptBytes, "kept \(capacities[0]) bytes")
    }

    @Test func aCallerThatKeepsItsRequestAndResponse_keepsTheirValues() throws {
        let kept = KeptShapes()
        let first = Self.bodies[0].body
        var request = try ComposeDecoder.decode(
            first, serverApp: "Buzz", catalogs: .builtIn, now: { Self.clock }, kept: kept)
        let keptRequest = request
        let response = Composer.compose(request, reusing: &kept.requestStorage)
        let keptResponse = response
        let json = response.jsonBody()
        response.giveStorage(to: &kept.requestStorage)
        request.giveStorage(to: &kept.requestStorage)
        // The next request is filled into the same storage.
        var next = try ComposeDecoder.decode(
            Self.bodies[1].body, serverApp: "Buzz", catalogs: .builtIn, now: { Self.clock }, kept: kept)
        let nextResponse = Composer.compose(next, reusing: &kept.requestStorage)
        #expect(try nextResponse.jsonBody() == Self.freshAnswer(Self.bodies[1].body).get())
        nextResponse.giveStorage(to: &kept.requestStorage)
        next.giveStorage(to: &kept.requestStorage)

        let fresh = try ComposeRequest.decode(first, serverApp: "Buzz", now: { Self.clock })
        #expect(keptRequest == fresh)
        #expect(keptRequest.notificationRecords.count == 20)
        #expect(keptResponse.jsonBody() == json)
        #expect(keptResponse == Composer.compose(fresh))
        #expect(request.notificationRecords.isEmpty, "the request gave its buffers up")
    }
}
