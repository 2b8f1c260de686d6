import EngineTestSupport
import Testing

@testable import NotificationEngine

@Suite struct ComposerTests {
    let now = Timestamp(rfc3339: "2026-11-29T12:00:00Z")!

    func at(_ seconds: Int) -> Timestamp {
        let clock = 12 * 3600 + seconds
        let raw =
            "2026-11-29T"
            + [clock / 3600, clock / 60 % 60, clock % 60].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
            + "Z"
        return Timestamp(rfc3339: raw)!
    }

    func message(_ id: String, _ seconds: Int, thread: String? = nil, name: String? = nil) -> PendingNotification {
        PendingNotification(
            id: id, type: "message", timestamp: at(seconds), thread: thread, sender: name.map { .init(name: $0) })
    }

    // MARK: model

    @Test func key_isSourceColonIdOrId() {
        var n = message("7", 0)
        #expect(n.key == "7")
        n.source = "wiki"
        #expect(n.key == "wiki:7")
        n.source = ""
        #expect(n.key == "7")
    }

    @Test func isMessage_onlyForTheThreeExactTypes() {
        for type in ["message", "mention", "reply"] {
            #expect(PendingNotification(id: "1", type: type, timestamp: now).isMessage, "\(type)")
        }
        for type in ["Message", "messages", "thank", "", "mention ", "repl"] {
            #expect(!PendingNotification(id: "1", type: type, timestamp: now).isMessage, "\(type)")
        }
    }

    // MARK: ordering

    @Test func compose_ordersNewestFirstThenByCodePointKey() {
        let request = ComposeRequest(
            notifications: [message("\u{2126}", -5), message("b", -1), message("\u{3AA}", -5), message("a", -5)],
            now: now
        )
        #expect(Composer.compose(request).shown == ["b", "a", "\u{3AA}", "\u{2126}"])
    }

    @Test func compose_whenInputIsPermuted_showsAndPersistsTheSame() {
        let notifications = (0..<50).map { message("k\($0 % 17)-\($0)", -($0 % 7), thread: $0 % 2 == 0 ? "t" : "u") }
        let baseline = Composer.compose(ComposeRequest(notifications: notifications, now: now))
        var generator = SplitMix64(seed: 42)
        for _ in 0..<5 {
            let shuffled = Composer.compose(
                ComposeRequest(notifications: notifications.shuffled(using: &generator), now: now))
            #expect(shuffled.shown == baseline.shown)
            #expect(shuffled.displayed == baseline.displayed)
            #expect(shuffled.notification == baseline.notification)
        }
    }

    // MARK: drops

    @Test func compose_stalenessBoundsAreInclusiveOfMaxAgeAndTolerance() {
        let request = ComposeRequest(
            notifications: [
                message("old", -61), message("edge-old", -60), message("edge-new", 300), message("new", 301),
            ],
            now: now, maxAgeSeconds: 60
        )
        let response = Composer.compose(request)
        #expect(response.shown == ["edge-new", "edge-old"])
        #expect(response.dropped == [.init(key: "old", reason: .stale), .init(key: "new", reason: .future)])
    }

    // MARK: next displayed state

    @Test func nextDisplayed_fetchOK_isTheShownKeysUnderTheAnswersGroup() {
        let previous = [
            DisplayedEntry(key: "a", timestamp: at(-100), group: "t9"),
            DisplayedEntry(key: "c", timestamp: at(-601)),
            DisplayedEntry(key: nil, timestamp: at(-5), group: "fallback"),
        ]
        let response = Composer.compose(
            ComposeRequest(notifications: [message("c", -10)], displayed: previous, now: now))
        #expect(response.shown == ["c"])
        #expect(response.displayed == [DisplayedEntry(key: "c", timestamp: at(-10), group: response.groupKey)])
        #expect(response.groupKey == response.notification.threadIdentifier)
    }

    @Test func nextDisplayed_failedFetch_carriesOverMergedByLatestAndOrders() {
        let previous = [
            DisplayedEntry(key: "a", timestamp: at(-100), group: "t1"),
            DisplayedEntry(key: "gone", timestamp: at(-601)),
            DisplayedEntry(key: "a", timestamp: at(-10), group: "t2"),
            DisplayedEntry(key: "edge", timestamp: at(-600), group: "t1"),
            DisplayedEntry(key: "b", timestamp: Timestamp(rfc3339: "2026-11-29T13:59:50+02:00")!, group: "t1"),
            DisplayedEntry(key: "b", timestamp: at(-10), group: "t1"),
        ]
        let next = Composer.compose(ComposeRequest(displayed: previous, now: now, fetch: .failed)).displayed
        #expect(next.map(\.key) == [nil, "a", "b", "edge", "gone"])
        #expect(next[0] == DisplayedEntry(key: nil, timestamp: now, group: "fallback"))
        // Per key the latest entry, with its group; equal instants: the first written stays.
        #expect(next[1] == DisplayedEntry(key: "a", timestamp: at(-10), group: "t2"))
        #expect(next[2].timestamp.raw == "2026-11-29T13:59:50+02:00")
        #expect(next[4].group == nil)
    }

    @Test func nextDisplayed_keepsTheNewest1000() {
        let previous = (0..<3000).map { DisplayedEntry(key: "k\($0)", timestamp: at(-($0 % 500))) }
        let next = Composer.compose(ComposeRequest(displayed: previous.reversed(), now: now, fetch: .failed)).displayed
        #expect(next.count == ComposeRequest.maxDisplayedOutput)
        #expect(next.allSatisfy { $0.timestamp.instant >= at(-166).instant })
        let keys = next.map(\.key)
        #expect(
            zip(next, next.dropFirst()).allSatisfy { a, b in
                a.timestamp.instant > b.timestamp.instant
                    || (a.timestamp.instant == b.timestamp.instant
                        && (b.key == nil || (a.key != nil && CodePoints.less(a.key!, b.key!))))
            })
        #expect(Set(keys).count == keys.count)
    }

    /// The first `limit` positions of the permutation of `0..<count` that
    /// `NewestFirst.sort` gives, with the tie order compose uses: keys and
    /// digits beyond nanoseconds laid out in one buffer, as in a `ComposeRequest`.
    private func newestFirstOrder(count: Int, limit: Int = .max, instant: (Int) -> Instant, key: (Int) -> String)
        -> [Int]
    {
        var bytes: [UInt8] = []
        func append(_ text: String) -> TextRange {
            let start = bytes.count
            bytes.append(contentsOf: text.utf8)
            return TextRange(start: start, count: bytes.count - start)
        }
        let keys = (0..<count).map { append(key($0)) }
        let moments = (0..<count).map { index -> Moment in
            let digits = instant(index).subnanosecondDigits
            return Moment(
                epochSeconds: instant(index).epochSeconds, nanoseconds: instant(index).nanoseconds,
                extraDigits: digits.isEmpty ? .empty : append(digits))
        }
        var records = (0..<count).map { NewestFirst.Record(moments[$0], index: $0) }
        bytes.withUnsafeBufferPointer { bytes in
            NewestFirst.sort(&records, limit: limit) {
                NewestFirst.tieOrder(moments[$0], keys[$0], moments[$1], keys[$1], in: bytes)
            }
        }
        return records.map { Int($0.index) }
    }

    @Test func newestFirst_withLimit_isThePrefixOfTheFullOrder() {
        var generator = SplitMix64(seed: 7)
        for limit in [1, 5, 37, 200] {
            let instants = (0..<300).map { _ in
                Instant(
                    epochSeconds: Int64.random(in: 0..<20, using: &generator),
                    nanoseconds: Int32.random(in: 0..<3, using: &generator),
                    subnanosecondDigits: ["", "", "1", "05"].randomElement(using: &generator)!
                )
            }
            let keys = (0..<300).map { _ in
                ["a", "b", "\u{E9}", "e\u{301}", "\u{1F600}", "\u{FF01}", "ab"].randomElement(using: &generator)!
            }
            let full = newestFirstOrder(count: 300, instant: { instants[$0] }, key: { keys[$0] })
            let limited = newestFirstOrder(count: 300, limit: limit, instant: { instants[$0] }, key: { keys[$0] })
            #expect(limited.count == limit)
            // Equal (instant, key) pairs may come in either order; compare what they denote.
            #expect(
                limited.map { "\(instants[$0])|\(keys[$0].unicodeScalars.map(\.value))" }
                    == full.prefix(limit).map { "\(instants[$0])|\(keys[$0].unicodeScalars.map(\.value))" },
                "limit \(limit)")
            for (a, b) in zip(full, full.dropFirst()) {
                #expect(instants[a] > instants[b] || (instants[a] == instants[b] && !CodePoints.less(keys[b], keys[a])))
            }
        }
    }

    @Test func newestFirst_agreesWithAReferenceSortInEveryShape() {
        var generator = SplitMix64(seed: 11)
        // Past 32, runs of 16 merged: a run and a pair cut short at the end (293), and 1,000.
        for count in [0, 1, 2, 3, 19, 32, 33, 200, 293, 1_000] {
            let base = (0..<count).map { Int64($0) }
            var shapes: [[Int64]] = [base, base.reversed(), base.map { $0 / 3 }, base.map { -$0 / 2 }]
            var nearly = base
            if count > 3 { nearly.swapAt(1, count / 2) }
            shapes.append(nearly)
            shapes.append(nearly.reversed())
            shapes.append(base.map { _ in Int64.random(in: 0..<8, using: &generator) })
            for seconds in shapes {
                let instants = seconds.map { Instant(epochSeconds: $0) }
                let keys = (0..<count).map { "k\(($0 * 7) % 5)-\($0)" }
                let order = newestFirstOrder(count: count, instant: { instants[$0] }, key: { keys[$0] })
                let expected = (0..<count).sorted { a, b in
                    instants[a] != instants[b] ? instants[b] < instants[a] : CodePoints.less(keys[a], keys[b])
                }
                #expect(order == expected, "\(seconds)")
            }
        }
    }

    @Test func compose_keysOfCanonicallyEquivalentSourcesStayDistinct() {
        func from(_ source: String, _ id: String, _ seconds: Int) -> PendingNotification {
            var n = message(id, seconds)
            n.source = source
            return n
        }
        let request = ComposeRequest(
            notifications: [
                from("caf\u{E9}", "1", -1), from("cafe\u{301}", "1", -2), from("caf\u{E9}", "2", -3),
                from("caf\u{E9}", "1", -4),
            ],
            now: now
        )
        let response = Composer.compose(request)
        // Compared as bytes: Swift's == would take the two sources as equal.
        #expect(
            response.shown.map { Array($0.utf8) }
                == ["caf\u{E9}:1", "cafe\u{301}:1", "caf\u{E9}:2"].map { Array($0.utf8) })
        #expect(response.dropped.map { Array($0.key.utf8) } == [Array("caf\u{E9}:1".utf8)])
        #expect(response.dropped.map(\.reason) == [.duplicate])
    }

    @Test func compose_atTheLimits_keepsDisplayedKeysAndCapsTheState() {
        let displayed = (0..<ComposeRequest.maxDisplayedEntries).map {
            DisplayedEntry(key: "d\($0)", timestamp: at(-($0 % 600)), group: "g\($0 % 16)")
        }
        let notifications = (0..<ComposeRequest.maxNotifications).map { message("d\($0 * 20)", -1) }
        let response = Composer.compose(
            ComposeRequest(notifications: notifications, displayed: displayed, now: now, push: PushOptions()))
        // d0, d20, … d19980: the first 500 are displayed keys, the rest are new; all are kept.
        #expect(response.kind == .summary)
        #expect(response.shown.count == 1000)
        #expect(response.notification.body == "1000 new notifications")
        #expect(response.dropped.isEmpty)
        #expect(response.displayed.count == 1000)
        // Every one of the 16 groups is withdrawn (none is `summary`); the summary alerts (new keys).
        #expect(response.transition?.withdraw.count == 16)
        #expect(response.transition?.send == true && response.transition?.alert == true)
    }
}
