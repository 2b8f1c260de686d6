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

    @Test func everyByteValueInEveryLane() {
        for lane in 0..<16 {
            for value in 0...255 {
                var lanes = SIMD16<UInt8>(repeating: 0x41)
                lanes[lane] = UInt8(value)
                #expect(LaneBits.highBits(lanes) == expected(lanes), "lane \(lane), byte \(value)")
                #expect(LaneBits.gatheredHighBits(lanes) == expected(lanes), "lane \(lane), byte \(value)")
            }
        }
    }

    @Test func randomLanes() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            var lanes = SIMD16<UInt8>()
            for k in 0..<16 { lanes[k] = UInt8.random(in: 0...255, using: &generator) }
            #expect(LaneBits.highBits(lanes) == expected(lanes))
            #expect(LaneBits.gatheredHighBits(lanes) == expected(lanes))
        }
    }

    @Test func allAndNone() {
        #expect(LaneBits.highBits(SIMD16(repeating: 0xFF)) == 0xFFFF)
        #expect(LaneBits.highBits(SIMD16(repeating: 0x7F)) == 0)
        #expect(LaneBits.gatheredHighBits(SIMD16(repeating: 0x80)) == 0xFFFF)
        #expect(LaneBits.gatheredHighBits(SIMD16(repeating: 0)) == 0)
    }
}
