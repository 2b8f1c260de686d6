import Testing

@_spi(Engine) @testable import NotificationText

/// `appendNotification` checks its 13 ranges with one comparison of their
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
            let reach = ComposeRequest.reach(
                ranges[0], ranges[1], ranges[2], ranges[3], ranges[4], ranges[5], ranges[6])
            #expect((reach <= request.bytes.count) == expected, "\(ranges)")
            if expected { accepted += 1 }
        }
        // Both outcomes must be common, or the rounds test little.
        #expect(accepted > 2_000 && accepted < 18_000, "\(accepted) accepted")
    }
}
