import EnginePrimitives
import Testing

/// `LaneBits` against a lane-by-lane reading of the same sixteen bytes, on
/// both paths (SSE2 on x86-64 and the standard library's two words).
struct LaneBitsTests {
    /// The first lane whose high bit is set, one lane at a time; 16 for none.
    private func expected(_ lanes: SIMD16<UInt8>) -> Int {
        (0..<16).first { lanes[$0] & 0x80 != 0 } ?? 16
    }

    private func expectAgrees(_ lanes: SIMD16<UInt8>, _ label: String) {
        #expect(LaneBits.firstHighLane(lanes) == expected(lanes), "\(label)")
        #expect(LaneBits.firstHighLaneByWords(lanes) == expected(lanes), "\(label)")
        #expect(LaneBits.anyHighLane(lanes) == (expected(lanes) < 16), "\(label)")
    }

    @Test func everyByteValueInEveryLane() {
        for lane in 0..<16 {
            for value in 0...255 {
                var lanes = SIMD16<UInt8>(repeating: 0x41)
                lanes[lane] = UInt8(value)
                expectAgrees(lanes, "lane \(lane), byte \(value)")
            }
        }
    }

    /// Two lanes set: the first of them is found.
    @Test func firstOfTwoLanes() {
        for first in 0..<16 {
            for second in first..<16 {
                var lanes = SIMD16<UInt8>(repeating: 0x20)
                lanes[first] = 0x80
                lanes[second] = 0xFF
                expectAgrees(lanes, "lanes \(first), \(second)")
            }
        }
    }

    @Test func randomLanes() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<5_000 {
            var lanes = SIMD16<UInt8>()
            for k in 0..<16 { lanes[k] = UInt8.random(in: 0...255, using: &generator) }
            expectAgrees(lanes, "round \(round): \(lanes)")
        }
    }

    @Test func allAndNone() {
        expectAgrees(SIMD16(repeating: 0xFF), "all")
        expectAgrees(SIMD16(repeating: 0x7F), "none")
        #expect(LaneBits.firstHighLane(SIMD16(repeating: 0)) == 16)
        #expect(LaneBits.firstHighLaneByWords(SIMD16(repeating: 0x80)) == 0)
    }

    /// The lane comparisons set a lane's high bit exactly where the byte
    /// compares so, for every byte value (in lane `value % 16`, each lane
    /// taking sixteen values; the others 0x41), on this architecture's path
    /// and on the portable one.
    @Test func laneComparisons_flagExactlyTheirBytes() {
        let comparisons: [(name: String, lanes: (SIMD16<UInt8>) -> SIMD16<UInt8>, flags: (UInt8) -> Bool)] = [
            ("equal", { LaneBits.equalLanes($0, 0x22) }, { $0 == 0x22 }),
            ("equal, portable", { LaneBits.equalLanesByArithmetic($0, 0x22) }, { $0 == 0x22 }),
            ("below 0x20", { LaneBits.lanesBelow($0, 0x20) }, { $0 < 0x20 }),
            ("below 0x20, portable", { LaneBits.lanesBelowByArithmetic($0, 0x20) }, { $0 < 0x20 }),
            ("below 0x80", { LaneBits.lanesBelow($0, 0x80) }, { $0 < 0x80 }),
            ("below 0x80, portable", { LaneBits.lanesBelowByArithmetic($0, 0x80) }, { $0 < 0x80 }),
        ]
        for value in 0...255 {
            var lanes = SIMD16<UInt8>(repeating: 0x41)
            lanes[value % 16] = UInt8(value)
            for comparison in comparisons {
                let found = comparison.lanes(lanes)
                for index in 0..<16 where (found[index] & 0x80 != 0) != comparison.flags(lanes[index]) {
                    Issue.record("\(comparison.name): lane \(index) of byte \(value) in lane \(value % 16)")
                }
            }
        }
    }
}
