import Testing

@testable import NotificationEngine
@testable import NotificationService

/// `LaneBits` against a lane-by-lane reading of the same sixteen bytes.
struct LaneBitsTests {
    /// Bit k set when byte k's high bit is, one lane at a time.
    private func expected(_ lanes: SIMD16<UInt8>) -> UInt32 {
        var bits: UInt32 = 0
        for k in 0..<16 where lanes[k] & 0x80 != 0 { bits |= 1 << UInt32(k) }
        return bits
    }

    /// The first lane whose high bit is set, one lane at a time; 16 for none.
    private func firstExpected(_ lanes: SIMD16<UInt8>) -> Int {
        (0..<16).first { lanes[$0] & 0x80 != 0 } ?? 16
    }

    /// Two lanes set, the first of them found.
    @Test func firstOfTwoLanes() {
        for first in 0..<16 {
            for second in first..<16 {
                var lanes = SIMD16<UInt8>(repeating: 0x20)
                lanes[first] = 0x80
                lanes[second] = 0xFF
                #expect(LaneBits.firstHighLane(lanes) == first, "lanes \(first), \(second)")
            }
        }
    }

    @Test func everyByteValueInEveryLane() {
        for lane in 0..<16 {
            for value in 0...255 {
                var lanes = SIMD16<UInt8>(repeating: 0x41)
                lanes[lane] = UInt8(value)
                #expect(LaneBits.highBits(lanes) == expected(lanes), "lane \(lane), byte \(value)")
                #expect(LaneBits.firstHighLane(lanes) == firstExpected(lanes), "lane \(lane), byte \(value)")
                #expect(LaneBits.anyHighLane(lanes) == (expected(lanes) != 0), "lane \(lane), byte \(value)")
            }
        }
    }

    @Test func randomLanes() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            var lanes = SIMD16<UInt8>()
            for k in 0..<16 { lanes[k] = UInt8.random(in: 0...255, using: &generator) }
            #expect(LaneBits.highBits(lanes) == expected(lanes))
            #expect(LaneBits.firstHighLane(lanes) == firstExpected(lanes))
            #expect(LaneBits.anyHighLane(lanes) == (expected(lanes) != 0))
        }
    }

    @Test func allAndNone() {
        #expect(LaneBits.highBits(SIMD16(repeating: 0xFF)) == 0xFFFF)
        #expect(LaneBits.highBits(SIMD16(repeating: 0x7F)) == 0)
        #expect(LaneBits.firstHighLane(SIMD16(repeating: 0x80)) == 0)
        #expect(LaneBits.firstHighLane(SIMD16(repeating: 0)) == 16)
        #expect(!LaneBits.anyHighLane(SIMD16(repeating: 0x7F)))
    }
}
