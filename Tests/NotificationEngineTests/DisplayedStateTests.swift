import EngineTestSupport
import Testing

@testable import NotificationEngine

/// `DisplayedState` (a table in scratch memory, on the stack or the heap by
/// size) against the rules written the simple way, with a dictionary.
@Suite struct DisplayedStateTests {
    let now = Timestamp(rfc3339: "2026-11-29T12:00:00Z")!

    func at(_ seconds: Int) -> Timestamp {
        Timestamp(rfc3339: "2026-11-29T11:\(10 + seconds / 60):\(String(100 + seconds % 60).dropFirst())Z")!
    }

    @Test func claimAndEntries_agreeWithADictionaryOverGeneratedRequests() {
        var random = SplitMix64(seed: 0x4449_5350_4c41_5945)
        // Up to 400 entries and 100 notifications: tables from 16 slots (on
        // the stack) to 1024 (on the heap, zeroed in several pieces).
        for round in 0..<300 {
            let pool = Int.random(in: 1...120, using: &random)
            let key = { (random: inout SplitMix64) in "k\(Int.random(in: 0..<pool, using: &random))" }
            let entries = (0..<Int.random(in: 0...(round % 3 == 0 ? 400 : 40), using: &random)).map { _ in
                // Keys with a group, without one (legacy), and groups without a key (fallbacks).
                let group =
                    Int.random(in: 0..<4, using: &random) == 0 ? nil : "g\(Int.random(in: 0..<16, using: &random))"
                let keyless = group != nil && Int.random(in: 0..<8, using: &random) == 0
                return DisplayedEntry(
                    key: keyless ? nil : key(&random), timestamp: at(Int.random(in: 0..<2400, using: &random)),
                    group: group)
            }
            let notifications = (0..<Int.random(in: 0...100, using: &random)).map { _ in
                PendingNotification(
                    id: key(&random), source: nil, type: "message",
                    timestamp: at(Int.random(in: 0..<2400, using: &random)))
            }
            let request = ComposeRequest(notifications: notifications, displayed: entries, now: now)
            let freshFrom = request.nowMoment.adding(seconds: -Int64(Int.random(in: 0...2400, using: &random)))
            check(request, freshFrom: freshFrom, round: round)
        }
    }

    @Test func claimAndEntries_keysThatHashAlikeInASmallTable_areToldApart() {
        // 40-byte keys that differ only at byte 10, which `quickHash` does not
        // read: in a table hashed with `QuickKeyHashing` they all collide.
        let keys = (0..<8).map {
            "aaaaaaaaaa\(Character(UnicodeScalar(UInt8(65 + $0))))" + String(repeating: "b", count: 29)
        }
        let hasher = KeyHash()
        let hashes = Set(keys.map { key in Array(key.utf8).withUnsafeBufferPointer { hasher.quickHash($0) } })
        #expect(hashes.count == 1)
        var random = SplitMix64(seed: 0x434f_4c4c_4944_4521)
        for round in 0..<40 {
            let entries = (0..<Int.random(in: 0...10, using: &random)).map { _ in
                DisplayedEntry(
                    key: keys.randomElement(using: &random)!, timestamp: at(Int.random(in: 0..<2400, using: &random)))
            }
            let notifications =
                (0..<Int.random(in: 0...(QuickKeyHashing.maxKeys - entries.count), using: &random)).map { _ in
                    PendingNotification(
                        id: keys.randomElement(using: &random)!, type: "message",
                        timestamp: at(Int.random(in: 0..<2400, using: &random)))
                }
            let request = ComposeRequest(notifications: notifications, displayed: entries, now: now)
            let freshFrom = request.nowMoment.adding(seconds: -Int64(Int.random(in: 0...2400, using: &random)))
            check(request, freshFrom: freshFrom, round: round)
        }
    }

    @Test func quickHash_keysOfEveryShortLengthThatDifferInOneByte_hashApart() {
        // Up to 16 bytes every byte is read, so a one-byte change changes
        // the hash unless the multiply happens to collide (odds near 2⁻⁵⁶ here).
        let hasher = KeyHash()
        for length in 0...16 {
            let plain = Array(repeating: UInt8(ascii: "k"), count: length)
            var hashes: Set<UInt64> = [plain.withUnsafeBufferPointer { hasher.quickHash($0) }]
            for position in 0..<length {
                var bytes = plain
                bytes[position] = UInt8(ascii: "j")
                hashes.insert(bytes.withUnsafeBufferPointer { hasher.quickHash($0) })
            }
            #expect(hashes.count == length + 1, "length \(length)")
        }
    }

    /// `DisplayedState` against the dictionary, with SipHash and, for a table
    /// small enough, with the quick hash.
    private func check(_ request: ComposeRequest, freshFrom: Moment, round: Int) {
        check(request, round: round, hashing: SipKeyHashing.self)
        if request.displayedRecords.count + request.notificationRecords.count <= QuickKeyHashing.maxKeys {
            check(request, round: round, hashing: QuickKeyHashing.self)
        }
    }

    private func describe(_ entry: DisplayedEntry) -> String {
        "\(entry.key ?? "-") \(entry.timestamp.raw) \(entry.group ?? "-")"
    }

    private func check<Hashing: KeyHashing>(_ request: ComposeRequest, round: Int, hashing: Hashing.Type) {
        let entries = request.displayed
        let notifications = request.notifications
        // The simple way: D is each key's latest entry and each keyless group's
        // latest entry, the first at equal instants (compose.md C10).
        var latest: [String: DisplayedEntry] = [:]
        var latestGroupOnly: [String: DisplayedEntry] = [:]
        for entry in entries {
            if let key = entry.key {
                if let kept = latest[key], kept.timestamp.instant >= entry.timestamp.instant { continue }
                latest[key] = entry
            } else {
                let group = entry.group!
                if let kept = latestGroupOnly[group], kept.timestamp.instant >= entry.timestamp.instant { continue }
                latestGroupOnly[group] = entry
            }
        }
        // Every other first claim is dropped (`drop(slot:)`): a key is kept when its first claim was not.
        var seen: Set<String> = []
        var kept: Set<String> = []
        var expectedClaims: [String] = []
        for notification in notifications {
            if seen.contains(notification.key) {
                expectedClaims.append("duplicate")
            } else {
                if seen.count % 2 == 0 { kept.insert(notification.key) }
                seen.insert(notification.key)
                expectedClaims.append("first")
            }
        }
        let expectedD = (Array(latest.values) + Array(latestGroupOnly.values)).map {
            describe($0) + ($0.key.map { kept.contains($0) } == true ? " kept" : "")
        }.sorted()

        let (claims, d) = request.bytes.withUnsafeBufferPointer { bytes in
            request.notificationRecords.withUnsafeBufferPointer { records in
                request.displayedRecords.withUnsafeBufferPointer { displayed in
                    DisplayedState<Hashing>.with(bytes: bytes, entries: displayed, notifications: records) { state in
                        func describe(_ index: Int) -> String {
                            let entry = displayed[index]
                            func text(_ range: TextRange) -> String {
                                bytes[range].map { String(decoding: $0, as: UTF8.self) } ?? "-"
                            }
                            return "\(text(entry.key)) \(text(entry.timestamp)) \(text(entry.group))"
                        }
                        var claims: [String] = []
                        var firsts = 0
                        for index in records.indices {
                            switch state.claim(index) {
                            case .duplicate: claims.append("duplicate")
                            case .first(let slot):
                                claims.append("first")
                                if firsts % 2 == 1 { state.drop(slot: slot) }
                                firsts += 1
                            }
                        }
                        var d: [String] = []
                        state.forEachEntry { d.append(describe($0) + ($1 ? " kept" : "")) }
                        #expect(d.count == state.entryCount)
                        return (claims, d.sorted())
                    }
                }
            }
        }
        #expect(claims == expectedClaims, "round \(round), \(Hashing.self)")
        #expect(d == expectedD, "round \(round), \(Hashing.self)")
    }
}
