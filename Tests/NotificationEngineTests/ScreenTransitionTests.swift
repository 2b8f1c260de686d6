import EngineTestSupport
import Testing

@testable import NotificationEngine

/// compose.md S1 to S3 and C10 (docs/spec/screen.md): the transition from
/// the screen a request's `displayed` records to the next, in the cases the
/// spec names, and against the rules written the simple way over generated
/// requests.
@Suite struct ScreenTransitionTests {
    let now = Timestamp(rfc3339: "2026-11-29T12:00:00Z")!

    func at(_ seconds: Int) -> Timestamp {
        let clock = 12 * 3600 + seconds
        let raw =
            "2026-11-29T"
            + [clock / 3600, clock / 60 % 60, clock % 60].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
            + "Z"
        return Timestamp(rfc3339: raw)!
    }

    func message(_ id: String, _ seconds: Int, thread: String? = "t1", read: Bool = false) -> PendingNotification {
        PendingNotification(id: id, type: "message", timestamp: at(seconds), read: read, thread: thread)
    }

    func compose(
        _ notifications: [PendingNotification], _ displayed: [DisplayedEntry], fetch: FetchOutcome = .ok
    ) -> ComposeResponse {
        Composer.compose(
            ComposeRequest(
                notifications: notifications, displayed: displayed, now: now, fetch: fetch, push: PushOptions()))
    }

    // MARK: The cases of compose.md 6.8 and screen.md

    @Test func messageTwo_coversMessageOne_inABundleThatReplacesTheSingle() {
        let response = compose(
            [message("1", -60), message("2", -30)], [DisplayedEntry(key: "1", timestamp: at(-60), group: "t1")])
        #expect(response.kind == .bundle && response.shown == ["2", "1"])
        #expect(response.transition == .init(send: true, alert: true, withdraw: []))
        #expect(response.displayed.map(\.group) == ["t1", "t1"])
    }

    @Test func readElsewhere_withAnUnreadSibling_replacesQuietly() {
        let state = [
            DisplayedEntry(key: "2", timestamp: at(-30), group: "t1"),
            DisplayedEntry(key: "1", timestamp: at(-60), group: "t1"),
        ]
        let response = compose([message("1", -60, read: true), message("2", -30)], state)
        #expect(response.kind == .single && response.shown == ["2"])
        #expect(response.transition == .init(send: true, alert: false, withdraw: []))
    }

    @Test func unchanged_sendsNothing() {
        let state = [
            DisplayedEntry(key: "2", timestamp: at(-30), group: "t1"),
            DisplayedEntry(key: "1", timestamp: at(-60), group: "t1"),
        ]
        let response = compose([message("1", -60), message("2", -30)], state)
        #expect(response.transition == .init(send: false, alert: false, withdraw: []))
        #expect(response.displayed.map(\.withoutPayloadRecord) == state)
    }

    @Test func groupChange_withdrawsTheOldGroup_andNeverTheNewOne() {
        let state = [DisplayedEntry(key: "1", timestamp: at(-60), group: "t1")]
        let response = compose([message("1", -60), message("3", -10, thread: "t2")], state)
        #expect(response.kind == .summary && response.groupKey == "summary")
        #expect(response.transition == .init(send: true, alert: true, withdraw: ["t1"]))
        // A group change without a new key: sent, quietly.
        let quiet = compose(
            [message("1", -60, thread: "t2")], [DisplayedEntry(key: "1", timestamp: at(-60), group: "t1")])
        #expect(quiet.transition == .init(send: true, alert: false, withdraw: ["t1"]))
    }

    @Test func readElsewhere_whileANewMessageArrivesInTheSameGroup_withdrawsNothing() {
        let state = (1...3).map { DisplayedEntry(key: "\($0)", timestamp: at(-60 + $0), group: "t1") }
        let notifications = (1...3).map { message("\($0)", -60 + $0, read: true) } + [message("4", -5)]
        let response = compose(notifications, state)
        #expect(response.shown == ["4"] && response.groupKey == "t1")
        #expect(response.transition == .init(send: true, alert: true, withdraw: []))
    }

    @Test func everythingRead_withdrawsEveryGroup_inTheStatesOrder() {
        let state = [
            DisplayedEntry(key: "1", timestamp: at(-60), group: "t1"),
            DisplayedEntry(key: nil, timestamp: at(-5), group: "fallback"),
            DisplayedEntry(key: "old", timestamp: at(-900)),
            DisplayedEntry(key: "2", timestamp: at(-30), group: "summary"),
        ]
        let response = compose([message("1", -60, read: true)], state)
        #expect(response.kind == .fallback && response.reason == .empty)
        #expect(response.transition == .init(send: false, alert: false, withdraw: ["fallback", "summary", "t1"]))
        #expect(response.displayed.isEmpty)
    }

    @Test func fallback_isRecordedOnce_andWithdrawnAfterTheRecovery() {
        let state = [DisplayedEntry(key: "1", timestamp: at(-60), group: "t1")]
        let failed = compose([], state, fetch: .failed)
        #expect(failed.transition == .init(send: true, alert: true, withdraw: []))
        #expect(
            failed.displayed.map(\.withoutPayloadRecord)
                == [DisplayedEntry(key: nil, timestamp: now, group: "fallback")] + state)
        let again = compose([], failed.displayed, fetch: .timeout)
        #expect(again.transition == .init(send: false, alert: false, withdraw: []))
        #expect(again.displayed == failed.displayed)
        let recovered = compose([message("1", -60), message("2", -30)], again.displayed)
        #expect(recovered.transition == .init(send: true, alert: true, withdraw: ["fallback"]))
        #expect(recovered.displayed.allSatisfy { $0.key != nil && $0.group == "t1" })
    }

    @Test func legacyEntries_areNeverWithdrawn_andMakeAQuietSend() {
        let state = [DisplayedEntry(key: "1", timestamp: at(-60)), DisplayedEntry(key: "9", timestamp: at(-50))]
        let response = compose([message("1", -60)], state)
        #expect(response.transition == .init(send: true, alert: false, withdraw: []))
        let empty = compose([], state)
        #expect(empty.transition == .init(send: false, alert: false, withdraw: []))
    }

    // MARK: Against the rules written the simple way

    @Test func transition_agreesWithTheRulesOverGeneratedRequests() {
        var random = SplitMix64(seed: 0x5343_5245_454e_5331)
        let groups = ["t1", "t2", "summary", "fallback", "1", "2", "3"]
        for round in 0..<2000 {
            let notifications = (0..<Int.random(in: 0...5, using: &random)).map { _ in
                message(
                    "\(Int.random(in: 1...5, using: &random))", -Int.random(in: 0...700, using: &random),
                    thread: Bool.random(using: &random) ? nil : ["t1", "t2"].randomElement(using: &random)!,
                    read: Int.random(in: 0..<3, using: &random) == 0)
            }
            let displayed = (0..<Int.random(in: 0...6, using: &random)).map { _ -> DisplayedEntry in
                let group = Int.random(in: 0..<5, using: &random) == 0 ? nil : groups.randomElement(using: &random)!
                let keyless = group != nil && Int.random(in: 0..<4, using: &random) == 0
                return DisplayedEntry(
                    key: keyless ? nil : "\(Int.random(in: 1...5, using: &random))",
                    timestamp: at(-Int.random(in: 0...60, using: &random) * 10), group: group)
            }
            let fetch: FetchOutcome = Int.random(in: 0..<6, using: &random) == 0 ? .failed : .ok
            let response = compose(notifications, displayed, fetch: fetch)
            #expect(response.transition == expected(response, displayed, fetch: fetch), "round \(round)")
            #expect(
                response.displayed.map(\.withoutPayloadRecord) == expectedNext(response, displayed, fetch: fetch),
                "round \(round)")
        }
    }

    /// D of C10: per key the latest entry, per group alone the latest, the first at equal instants; in C10's order.
    func stateD(_ displayed: [DisplayedEntry]) -> [DisplayedEntry] {
        var d: [DisplayedEntry] = []
        for entry in displayed {
            if let index = d.firstIndex(where: {
                entry.key != nil ? $0.key == entry.key : ($0.key == nil && $0.group == entry.group)
            }) {
                if d[index].timestamp.instant < entry.timestamp.instant { d[index] = entry }
            } else {
                d.append(entry)
            }
        }
        return d.sorted(by: precedes)
    }

    func precedes(_ a: DisplayedEntry, _ b: DisplayedEntry) -> Bool {
        if a.timestamp.instant != b.timestamp.instant { return a.timestamp.instant > b.timestamp.instant }
        switch (a.key, b.key) {
        case (let x?, let y?): return CodePoints.less(x, y)
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return CodePoints.less(a.group!, b.group!)
        }
    }

    func expected(_ response: ComposeResponse, _ displayed: [DisplayedEntry], fetch: FetchOutcome)
        -> ComposeResponse.Transition
    {
        let d = stateD(displayed)
        if fetch != .ok {
            let hasFallback = d.contains { $0.key == nil && $0.group == "fallback" }
            return .init(send: !hasFallback, alert: !hasFallback, withdraw: [])
        }
        var withdraw: [String] = []
        let g: String? = response.shown.isEmpty ? nil : response.groupKey
        for entry in d {
            if let group = entry.group, group != g, !withdraw.contains(group) { withdraw.append(group) }
        }
        guard let g else { return .init(send: false, alert: false, withdraw: withdraw) }
        let k = Set(response.shown)
        let same =
            d.filter { $0.group == g }.allSatisfy { $0.key != nil && k.contains($0.key!) }
            && k.allSatisfy { key in d.contains { $0.key == key && $0.group == g } }
        let hasNew = k.contains { key in !d.contains { $0.key == key } }
        return .init(send: !same, alert: !same && hasNew, withdraw: withdraw)
    }

    func expectedNext(_ response: ComposeResponse, _ displayed: [DisplayedEntry], fetch: FetchOutcome)
        -> [DisplayedEntry]
    {
        var d = stateD(displayed)
        if fetch != .ok {
            if !d.contains(where: { $0.key == nil && $0.group == "fallback" }) {
                d.append(DisplayedEntry(key: nil, timestamp: now, group: "fallback"))
            }
            return Array(d.sorted(by: precedes).prefix(ComposeRequest.maxDisplayedOutput))
        }
        return response.shown.map { key in
            let timestamp = response.displayed.first { $0.key == key }!.timestamp
            return DisplayedEntry(key: key, timestamp: timestamp, group: response.groupKey)
        }
    }
}

extension DisplayedEntry {
    /// The entry's key, timestamp and group: what C10 decides without
    /// `push` (the digest, `alerted` and `direct` are push.json's cases).
    var withoutPayloadRecord: DisplayedEntry { DisplayedEntry(key: key, timestamp: timestamp, group: group) }
}
