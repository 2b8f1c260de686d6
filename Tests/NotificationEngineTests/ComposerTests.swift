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

    // MARK: plain text

    @Test func normalised_turnsEveryWhiteSpaceRunIntoOneSpace() {
        let whiteSpace: [Unicode.Scalar] = [
            "\u{9}", "\u{A}", "\u{B}", "\u{C}", "\u{D}", "\u{20}", "\u{85}", "\u{A0}", "\u{1680}",
            "\u{2000}", "\u{2005}", "\u{200A}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}",
        ]
        for scalar in whiteSpace {
            let text = "\(scalar)\(scalar)a\(scalar)\(scalar)b\(scalar)"
            #expect(PlainText.normalised(text) == "a b", "U+\(String(scalar.value, radix: 16))")
        }
        #expect(PlainText.normalised("a \r\n\t\u{A0}\u{3000} b") == "a b")
    }

    @Test func normalised_asciiFastPathAgreesWithTheWhiteSpaceProperty() {
        for value in UInt8(0)..<0x80 {
            let scalar = Unicode.Scalar(value)
            let expected = scalar.properties.isWhitespace ? nil : String(scalar)
            #expect(PlainText.normalised(String(scalar)) == expected, "U+\(String(value, radix: 16))")
        }
    }

    /// The byte-level scan decodes only four lead bytes: every other scalar must not be white space.
    @Test func whiteSpaceLength_agreesWithTheWhiteSpacePropertyForEveryScalar() {
        var mismatches: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let utf8 = Array(String(scalar).utf8)
            let length = utf8.withUnsafeBufferPointer { PlainText.whiteSpaceLength($0, at: 0) }
            if length != (scalar.properties.isWhitespace ? utf8.count : 0) { mismatches.append(value) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10).map { String($0, radix: 16) })")
    }

    @Test func normalised_fastAndCopyingPathsAgreeAroundNonASCII() {
        // Already normal (returned as is), and needing a copy, with neighbours
        // of the decoded lead bytes that are not white space.
        #expect(PlainText.normalised("\u{A9} \u{1681}\u{2010}\u{3001}") == "\u{A9} \u{1681}\u{2010}\u{3001}")
        #expect(PlainText.normalised("\u{A9}\u{A0}\u{1681}\u{2028} \u{3001}\u{3000}") == "\u{A9} \u{1681} \u{3001}")
        #expect(PlainText.normalised("Eve\u{A0}Park") == "Eve Park")
        #expect(PlainText.normalised("caf\u{E9}  \u{1F600}") == "caf\u{E9} \u{1F600}")
    }

    @Test func normalised_whenOnlyWhiteSpaceOrNil_isNil() {
        #expect(PlainText.normalised(nil) == nil)
        #expect(PlainText.normalised("") == nil)
        #expect(PlainText.normalised(" \u{A0}\n\u{2003}") == nil)
    }

    @Test func normalised_keepsInvisiblesThatAreNotWhiteSpace() {
        for scalar: Unicode.Scalar in ["\u{200B}", "\u{FEFF}", "\u{180E}", "\u{200D}"] {
            #expect(PlainText.normalised(" \(scalar) ")?.unicodeScalars.elementsEqual([scalar]) == true)
        }
    }

    @Test func capped_whenLongerThan256Units_keeps255AndEllipsis() {
        #expect(PlainText.capped(String(repeating: "a", count: 256)) == String(repeating: "a", count: 256))
        #expect(PlainText.capped(String(repeating: "a", count: 257)) == String(repeating: "a", count: 255) + "…")
    }

    // MARK: code points

    @Test func codePointOrder_differsFromSwiftStringOrder() {
        // Swift orders OHM SIGN as its NFC form U+03A9; code-point order does not.
        #expect("\u{2126}" < "\u{03AA}")
        #expect(CodePoints.less("\u{03AA}", "\u{2126}"))
        #expect(!CodePoints.less("\u{2126}", "\u{03AA}"))
        // And not UTF-16 order either: U+FF01 < U+1F600.
        #expect(CodePoints.less("\u{FF01}", "\u{1F600}"))
        #expect(CodePoints.less("e\u{301}", "\u{E9}"))
        #expect(!CodePoints.equal("e\u{301}", "\u{E9}"))
        #expect(CodePoints.equal("\u{E9}", "\u{E9}"))
    }

    @Test func codePointsEqual_findsADifferenceAtEveryPositionOfEveryShortLength() {
        for length in 0..<40 {
            let plain = String(repeating: "a", count: length)
            #expect(CodePoints.equal(plain, String(repeating: "a", count: length)), "length \(length)")
            #expect(!CodePoints.equal(plain, plain + "a"))
            for position in 0..<length {
                var bytes = Array(plain.utf8)
                bytes[position] = UInt8(ascii: "b")
                #expect(!CodePoints.equal(plain, String(decoding: bytes, as: UTF8.self)), "at \(position) of \(length)")
            }
        }
    }

    /// Inserts `values` into a `DistinctStrings` (views of one joined buffer);
    /// what each insert returned, what `contains` said before it, and the values kept.
    private func distinct(_ values: [String]) -> (inserted: [Bool], contained: [Bool], kept: [String]) {
        let joined = Array(values.joined().utf8)
        return joined.withUnsafeBufferPointer { all in
            DistinctStrings.with(capacity: values.count) { strings in
                var offset = 0
                var inserted: [Bool] = []
                var contained: [Bool] = []
                for value in values {
                    let count = value.utf8.count
                    let view = UnsafeBufferPointer(rebasing: all[offset..<(offset + count)])
                    contained.append(strings.contains(view))
                    inserted.append(strings.insert(view))
                    offset += count
                }
                return (inserted, contained, strings.values.map { String(decoding: $0, as: UTF8.self) })
            }
        }
    }

    @Test func distinctStrings_canonicallyEquivalentStringsAreDistinct() {
        let (inserted, contained, kept) = distinct(["caf\u{E9}", "cafe\u{301}", "caf\u{E9}"])
        #expect(inserted == [true, true, false])
        #expect(contained == [false, false, true])
        #expect(kept.map { Array($0.utf8) } == ["caf\u{E9}", "cafe\u{301}"].map { Array($0.utf8) })
    }

    @Test func distinctStrings_beyondTheDirectlyComparedFew_hashesAndKeepsInsertionOrder() {
        let names = (0..<100).map { "n\($0)" }
        let (inserted, contained, kept) = distinct(names + names)
        #expect(inserted == Array(repeating: true, count: 100) + Array(repeating: false, count: 100))
        #expect(contained == inserted.map { !$0 })
        #expect(kept == names)
    }

    @Test func distinctStrings_atEveryShortLength_tellsApartTextsThatDifferInOneByte() {
        // Few enough per set to be compared directly, by length and word.
        for length in 0...20 {
            let plain = String(repeating: "a", count: length)
            for position in 0..<max(length, 1) {
                var bytes = Array(plain.utf8)
                if length > 0 { bytes[position] = UInt8(ascii: "b") }
                let other = String(decoding: bytes, as: UTF8.self)
                let shorter = String(plain.dropLast())
                let values = [plain, other, shorter, plain + "a", other, plain, shorter]
                let (inserted, contained, kept) = distinct(values)
                let expected =
                    length == 0
                    ? [true, false, false, true, false, false, false]
                    : [true, true, true, true, false, false, false]
                #expect(inserted == expected, "at \(position) of \(length)")
                #expect(contained == inserted.map { !$0 }, "at \(position) of \(length)")
                #expect(kept.count == expected.filter { $0 }.count, "at \(position) of \(length)")
            }
        }
    }

    @Test func keyHash_matchesSipHashReferenceVectors() {
        // SipHash-2-4 vectors of the reference implementation (key 00…0f,
        // message 00 01 02 … of each length): the same code runs 1-3 rounds.
        let hash = KeyHash(k0: 0x0706_0504_0302_0100, k1: 0x0f0e_0d0c_0b0a_0908)
        let message: [UInt8] = Array(0..<15)
        let expected: [Int: UInt64] = [
            0: 0x726f_db47_dd0e_0e31, 1: 0x74f8_39c5_93dc_67fd, 7: 0xab02_00f5_8b01_d137,
            8: 0x93f5_f579_9a93_2462, 15: 0xa129_ca61_49be_45e5,
        ]
        for (length, value) in expected {
            let actual = message.prefix(length).withUnsafeBufferPointer {
                hash.sipHash($0, compressionRounds: 2, finalizationRounds: 4)
            }
            #expect(actual == value, "length \(length)")
        }
    }

    @Test func keyHash_atEveryLengthUpTo40_matchesAByteAtATimeSipHash() {
        // The last block is read with overlapping loads; the reference reads it byte by byte.
        let message: [UInt8] = (0..<40).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 200) }
        for (k0, k1) in [(UInt64(0x0706_0504_0302_0100), UInt64(0x0f0e_0d0c_0b0a_0908)), (.max, 0x1234_5678)] {
            let hash = KeyHash(k0: k0, k1: k1)
            for length in 0...message.count {
                let bytes = Array(message.prefix(length))
                let actual = bytes.withUnsafeBufferPointer { hash.hash($0) }
                #expect(actual == referenceSipHash13(bytes, k0: k0, k1: k1), "length \(length)")
            }
        }
    }

    /// SipHash-1-3 as the paper writes it: whole words, then the last bytes one at a time.
    private func referenceSipHash13(_ bytes: [UInt8], k0: UInt64, k1: UInt64) -> UInt64 {
        func rotl(_ x: UInt64, _ b: UInt64) -> UInt64 { (x << b) | (x >> (64 - b)) }
        var v0 = k0 ^ 0x736f_6d65_7073_6575, v1 = k1 ^ 0x646f_7261_6e64_6f6d
        var v2 = k0 ^ 0x6c79_6765_6e65_7261, v3 = k1 ^ 0x7465_6462_7974_6573
        func round() {
            v0 &+= v1
            v1 = rotl(v1, 13)
            v1 ^= v0
            v0 = rotl(v0, 32)
            v2 &+= v3
            v3 = rotl(v3, 16)
            v3 ^= v2
            v0 &+= v3
            v3 = rotl(v3, 21)
            v3 ^= v0
            v2 &+= v1
            v1 = rotl(v1, 17)
            v1 ^= v2
            v2 = rotl(v2, 32)
        }
        let whole = bytes.count / 8 * 8
        var words = (0..<whole / 8).map { i in (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[8 * i + $1]) << (8 * $1) }
        }
        words.append(
            (whole..<bytes.count).reduce(UInt64(bytes.count & 0xff) << 56) {
                $0 | UInt64(bytes[$1]) << (8 * ($1 - whole))
            })
        for m in words {
            v3 ^= m
            round()
            v0 ^= m
        }
        v2 ^= 0xff
        for _ in 0..<3 { round() }
        return v0 ^ v1 ^ v2 ^ v3
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
        for count in [0, 1, 2, 3, 19, 32, 33, 200] {
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
