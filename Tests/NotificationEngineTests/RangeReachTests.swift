import EngineTestSupport
import Testing

@testable import NotificationEngine

/// `appendNotification` checks its 12 ranges with one comparison of their
/// furthest reach (`ComposeRequest.reach`); it must accept exactly the ranges
/// `fits` accepts one by one.
@Suite struct RangeReachTests {
    @Test func reach_acceptsExactlyTheRangesFitsAccepts() {
        var generator = SplitMix64(seed: 404)  // seeded: a failure reproduces
        let starts: [Int32] = [-1, -7, Int32.min, 0, 1, 5, 31, 32, 33, 60, Int32.max - 3, Int32.max]
        let counts: [Int32] = [0, 1, 2, 5, 27, 31, 32, 33, -1, -32, Int32.min, Int32.max]
        func randomRange() -> TextRange {
            let start = starts[Int(generator.next() % UInt64(starts.count))]
            let count = counts[Int(generator.next() % UInt64(counts.count))]
            return TextRange(start: Int(start), count: Int(count))
        }
        let request = ComposeRequest(bytes: Array(repeating: 0x61, count: 32), serverApp: "Buzz")
        var accepted = 0
        for _ in 0..<20_000 {
            let ranges = (0..<7).map { _ in
                generator.next() % 3 == 0 ? randomRange() : TextRange(start: 3, count: 4)
            }
            let expected = ranges.allSatisfy { request.fits($0) }
            let reach = ranges.map(ComposeRequest.reach).max()!
            #expect((reach <= request.bytes.count) == expected, "\(ranges)")
            if expected { accepted += 1 }
        }
        // Both outcomes must be common, or the rounds test little.
        #expect(accepted > 2_000 && accepted < 18_000, "\(accepted) accepted")
    }
}

/// The key `appendNotification` makes: `source:id`, or the id alone when
/// the source is absent (a negative start, whatever its count) or empty.
@Suite struct NotificationKeyTests {
    private static let text = "2026-11-29T12:00:00Zm1chatmessage"

    private func key(source: TextRange) -> String {
        var request = ComposeRequest(bytes: Array(Self.text.utf8), serverApp: "Buzz")
        let timestamp = TextRange(start: 0, count: 20)
        var ranges = ComposeRequest.NotificationRanges()
        ranges[.id] = TextRange(start: 20, count: 2)
        ranges[.source] = source
        ranges[.type] = TextRange(start: 26, count: 7)
        ranges[.timestamp] = timestamp
        request.appendNotification(&ranges, ComposeRequest.ScalarSlots(), moment: request.moment(at: timestamp)!)
        let key = request.notificationRecords[0].key
        return request.bytes.withUnsafeBufferPointer { String(decoding: $0[present: key], as: UTF8.self) }
    }

    @Test func key_isSourceColonID_orTheIDAloneWithoutASource() {
        #expect(key(source: TextRange(start: 22, count: 4)) == "chat:m1")
        #expect(key(source: .empty) == "m1")
        #expect(key(source: .absent) == "m1")
        // Read at its start, this source would be outside the bytes.
        #expect(key(source: TextRange(start: -8, count: 4)) == "m1")
    }
}

/// Keys are written into room appended for them a few hundred bytes at a
/// time: many keys fill several rooms, a key larger than a room gets one of
/// its own, and texts appended between keys stay as they were.
@Suite struct KeyRoomTests {
    @Test func keysAcrossRooms_longKeys_andTextsBetween_areEachAsMade() {
        let timestamp = "2026-11-29T12:00:00Z"
        var request = ComposeRequest(bytes: Array(timestamp.utf8), serverApp: "Buzz")
        let moment = request.moment(at: TextRange(start: 0, count: 20))!
        var expected: [(key: String, text: String)] = []
        for index in 0..<300 {
            // Every 50th source is longer than a room (512 bytes).
            let source = index % 50 == 7 ? String(repeating: "s\(index)", count: 200) : "src\(index % 7)"
            let id = "id-\(index)"
            let text = "text \(index) " + String(repeating: "x", count: index % 13)
            let sourceRange = request.append(source)
            let idRange = request.append(id)
            let textRange = request.append(text)
            var ranges = ComposeRequest.NotificationRanges()
            ranges[.id] = idRange
            ranges[.source] = sourceRange
            ranges[.type] = idRange
            ranges[.timestamp] = TextRange(start: 0, count: 20)
            ranges[.text] = textRange
            request.appendNotification(&ranges, ComposeRequest.ScalarSlots(), moment: moment)
            expected.append((source + ":" + id, text))
        }
        request.bytes.withUnsafeBufferPointer { bytes in
            for (index, record) in request.notificationRecords.enumerated() {
                #expect(String(decoding: bytes[present: record.key], as: UTF8.self) == expected[index].key, "\(index)")
                #expect(
                    String(decoding: bytes[present: record.text], as: UTF8.self) == expected[index].text, "\(index)")
            }
        }
    }
}
