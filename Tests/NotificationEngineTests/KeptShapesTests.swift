import EngineTestSupport
import Testing

@testable import NotificationEngine

/// The first pass starts from the shapes the thread's previous first pass
/// left (`KeptShapes`), so a request's first notification and first
/// displayed entry can be read by a shape another body noted. The promise is
/// still `ObjectShapeTests`': the request, or the problem, the general path
/// gives with shapes off, whatever the body before was.
@Suite struct KeptShapesTests {

    private static let clock = Timestamp(rfc3339: "2026-11-29T12:00:00Z")!

    private static func check(_ json: [UInt8], _ label: @autoclosure () -> String, kept: KeptShapes?) -> Int {
        ShapedDecoding.checkSameAsGeneralPath(json, label(), kept: kept)
    }

    private static func check(_ json: String, kept: KeptShapes?) -> Int {
        check(Array(json.utf8), json, kept: kept)
    }

    /// A request of notifications `a`… of one member list, and one displayed entry.
    private static func request(
        _ notifications: [String], displayed: String = #"{"key":"k:1","timestamp":"2026-11-29T11:59:00Z"}"#
    )
        -> String
    {
        #"{"now":"2026-11-29T12:00:00Z","notifications":["# + notifications.joined(separator: ",")
            + #"],"displayed":["# + displayed + "]}"
    }

    private static func notification(_ id: String, read: String = "false") -> String {
        #"{"id":"\#(id)","type":"t","read":\#(read),"timestamp":"2026-11-29T11:00:00Z","text":"x"}"#
    }

    @Test func benchPayload_decodedAgain_readsEveryObjectByItsShape() {
        let payload = repositoryFile("bench/payloads/compose-20.json")
        let kept = KeptShapes()
        // First from no shape: all but the first notification and displayed entry.
        #expect(Self.check(payload, "compose-20.json, first", kept: kept) == 20)
        #expect(Self.check(payload, "compose-20.json, again", kept: kept) == 22)
        #expect(Self.check(payload, "compose-20.json, a third time", kept: kept) == 22)
    }

    @Test func nextRequestOfTheSameShape_otherValues_readsItsFirstObjectsByTheKeptShape() {
        let kept = KeptShapes()
        #expect(Self.check(Self.request([Self.notification("a"), Self.notification("b")]), kept: kept) == 1)
        let next = Self.request(
            [Self.notification("c\\u0041"), Self.notification("d")],
            displayed: #"{"key":"k\u0041:2","timestamp":"2026-11-30T00:00:00Z"}"#)
        #expect(Self.check(next, kept: kept) == 3)
        let request = try? ShapedDecoding.decode(Array(next.utf8), readsShapes: true, kept: kept).outcome.get()
        #expect(request?.notifications.map(\.id) == ["cA", "d"])
        #expect(request?.displayed.map(\.key) == ["kA:2"])
    }

    @Test func nextRequestOfAnotherShape_isReadByTheGeneralPath_andLeavesItsOwnShape() {
        let kept = KeptShapes()
        #expect(Self.check(Self.request([Self.notification("a"), Self.notification("b")]), kept: kept) == 1)
        let other = [
            #"{"type":"t","id":"c","timestamp":"2026-11-29T11:00:00Z"}"#,
            #"{"type":"t","id":"d","timestamp":"2026-11-29T11:00:00Z"}"#,
        ]
        let displayed = #"{"timestamp":"2026-11-29T11:59:00Z","key":"k:1"}"#
        #expect(Self.check(Self.request(other, displayed: displayed), kept: kept) == 1)
        #expect(Self.check(Self.request(other, displayed: displayed), kept: kept) == 3)
        let back = Self.request([Self.notification("e"), Self.notification("f")])
        #expect(Self.check(back, kept: kept) == 1)
        #expect(Self.check(back, kept: kept) == 3)
    }

    /// `read`'s value is a slot, not a literal: the first object of the next
    /// request, differing from the kept shape only there, is read by it too.
    @Test(arguments: ["true", "false"])
    func firstObjectDifferingOnlyInScalars_isReadByTheKeptShape(_ read: String) {
        let kept = KeptShapes()
        #expect(Self.check(Self.request([Self.notification("a"), Self.notification("b")]), kept: kept) == 1)
        let next = Self.request([Self.notification("c", read: read), Self.notification("d", read: read)])
        // Both notifications and the displayed entry by the kept shapes.
        #expect(Self.check(next, kept: kept) == 3)
        let request = try? ShapedDecoding.decode(Array(next.utf8), readsShapes: true, kept: kept).outcome.get()
        #expect(request?.notifications.map(\.read) == [read == "true", read == "true"])
    }

    /// A shape keeps at most `ObjectShape.literalCapacity` bytes of literals
    /// (here mostly whitespace before the closing brace, the last literal).
    @Test(arguments: [-1, 0, 1])
    func literalsAtTheBound_areKept_andOneByteMoreIsNoShape(_ over: Int) {
        let fixed = #"{"id":"a","type":"t","timestamp":"2026-11-29T11:00:00Z"}"#.utf8.count
        // The slots' contents: `a`, `t` and the timestamp's 20 bytes.
        let literalBytes = fixed - 22
        let space = String(repeating: " ", count: ObjectShape.literalCapacity + over - literalBytes)
        func notification(_ id: String) -> String {
            #"{"id":"\#(id)","type":"t","timestamp":"2026-11-29T11:00:00Z"\#(space)}"#
        }
        let kept = KeptShapes()
        let fits = over <= 0
        let first = Self.request([notification("a"), notification("b")])
        #expect(Self.check(first, kept: kept) == (fits ? 1 : 0), "\(over) bytes over")
        let next = Self.request([notification("c"), notification("d")])
        #expect(Self.check(next, kept: kept) == (fits ? 3 : 1), "\(over) bytes over")
    }

    @Test func truncatedNextRequests_decodeAsWithoutShapes() {
        let first = Array(Self.request([Self.notification("a"), Self.notification("b")]).utf8)
        let next = Array(Self.request([Self.notification("c"), Self.notification("d")]).utf8)
        // Each prefix after the whole first request, and all of them one after another.
        let carried = KeptShapes()
        for count in 0...next.count {
            let kept = KeptShapes()
            _ = Self.check(first, "first", kept: kept)
            let prefix = Array(next.prefix(count))
            let reads = Self.check(prefix, "prefix of \(count) after a whole request", kept: kept)
            _ = Self.check(prefix, "prefix of \(count) after the shorter ones", kept: carried)
            if count == next.count { #expect(reads == 3, "the whole request") }
        }
    }

    /// The validated pass neither reads the kept shapes nor leaves its own:
    /// the first pass's shapes are of bodies it read whole.
    @Test func validatedPass_neitherReadsNorLeavesKeptShapes() {
        let kept = KeptShapes()
        let plain = Self.request([Self.notification("a"), Self.notification("b")])
        let other = Self.request([
            #"{"id":"a","type":"t","sender":{"id":"u"},"timestamp":"2026-11-29T11:00:00Z"}"#,
            #"{"id":"b","type":"t","sender":{"id":"u"},"timestamp":"2026-11-29T11:00:00Z"}"#,
        ])
        #expect(Self.check(plain, kept: kept) == 1)
        var shaped = 0
        let request = try? ComposeDecoder.decode(
            Array(other.utf8), serverApp: "Buzz", catalogs: .builtIn, now: { Self.clock },
            validated: true, keptShapes: kept, shapedReads: &shaped)
        #expect(request?.notifications.count == 2)
        // The second notification only, by the first's shape.
        #expect(shaped == 1)
        // What the first pass of `plain` left is still there.
        #expect(Self.check(plain, kept: kept) == 3)
        // Its first notification not by a kept shape (the validated pass left
        // none), its second by the first's, its displayed entry by `plain`'s.
        #expect(Self.check(other, kept: kept) == 2)
    }

    /// A request refused for an unknown member leaves no shape that holds
    /// it, so the next request with the same member is refused as well. A
    /// request of known names after it finds the displayed entry's shape
    /// still kept; the notification's was given up when the refused
    /// request's first notification began to be noted.
    @Test func unknownMember_isNeverKeptInAShape() {
        let kept = KeptShapes()
        let plain = Self.request([Self.notification("a"), Self.notification("b")])
        let unknown = Self.request([
            #"{"id":"a","type":"t","read":false,"timestamp":"2026-11-29T11:00:00Z","text":"x","Text":"y"}"#,
            #"{"id":"b","type":"t","read":false,"timestamp":"2026-11-29T11:00:00Z","text":"x","Text":"y"}"#,
        ])
        #expect(Self.check(plain, kept: kept) == 1)
        for round in 0..<2 {
            #expect(Self.check(unknown, kept: kept) == 0, "round \(round)")
            let outcome = ShapedDecoding.decode(Array(unknown.utf8), readsShapes: true, kept: kept).outcome
            guard case .failure(let problem) = outcome else {
                Issue.record("round \(round): accepted")
                continue
            }
            #expect(problem.code == "unknown-member")
            #expect(problem.pointer == "/notifications/0/Text")
        }
        #expect(Self.check(plain, kept: kept) == 2)
        #expect(Self.check(plain, kept: kept) == 3)
    }

    @Test func requestsOfFewShapes_andTheirMutations_oneAfterAnother_decodeAsWithoutShapes() {
        var random = SplitMix64(seed: 18)
        let kept = KeptShapes()
        var carriedReads = 0
        var freshReads = 0
        for round in 0..<1500 {
            var json = UniformCompose.json(using: &random, shape: UInt64.random(in: 0..<3, using: &random))
            if round % 4 == 3 {
                for _ in 0...Int.random(in: 0..<3, using: &random) { ShapedDecoding.mutate(&json, using: &random) }
            }
            let label = "round \(round): \(String(decoding: json, as: UTF8.self))"
            carriedReads += Self.check(json, label, kept: kept)
            freshReads += ShapedDecoding.decode(json, readsShapes: true).shapedReads
        }
        // A third of the requests follow one of their shape, whose last
        // notification (no `null`) and displayed entry are then theirs.
        #expect(carriedReads > freshReads + 150, "\(carriedReads) read by shape, \(freshReads) from no shape")
    }
}
