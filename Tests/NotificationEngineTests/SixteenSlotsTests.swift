import EngineTestSupport
import Testing

@testable import NotificationEngine

/// `SixteenSlots` reads a half's tuple element by a switch and writes it
/// through a pointer into the tuple; an array given the same writes is the
/// reference it must agree with, and its bytes are the slots in order.
@Suite struct SixteenSlotsTests {
    @Test func slots_afterRandomWrites_holdWhatAnArrayGivenTheSameWritesHolds() {
        var generator = SplitMix64(seed: 16)
        var slots = SixteenSlots<TextRange>(repeating: .absent)
        var reference = [TextRange](repeating: .absent, count: 16)
        for step in 0..<2_000 {
            let index = Int(generator.next() & 15)
            let value = TextRange(start: Int(generator.next() % 100_000), count: Int(generator.next() % 300))
            slots[index] = value
            reference[index] = value
            for check in 0..<16 {
                #expect(slots[check] == reference[check], "step \(step): slot \(check)")
            }
        }
    }

    @Test func slots_ofAWideElement_keepEveryByteOfEachSlot() {
        var slots = SixteenSlots<(UInt64, UInt32, UInt8)>(repeating: (0, 0, 0))
        for index in 0..<16 { slots[index] = (UInt64(index) << 40 | 0xABCD, UInt32(index * 7), UInt8(index)) }
        for index in 0..<16 {
            let value = slots[index]
            #expect(value.0 == UInt64(index) << 40 | 0xABCD && value.1 == UInt32(index * 7) && value.2 == UInt8(index))
        }
    }

    @Test func slots_asBytes_holdEachSlotAtItsIndexTimesTheStride() {
        var slots = SixteenSlots<TextRange>(repeating: .absent)
        for index in 0..<16 { slots[index] = TextRange(start: index * 100 + 7, count: index + 1) }
        let stride = MemoryLayout<TextRange>.stride
        #expect(MemoryLayout<SixteenSlots<TextRange>>.size == 16 * stride)
        withUnsafeBytes(of: slots) { raw in
            for index in 0..<16 {
                let loaded = raw.load(fromByteOffset: index * stride, as: TextRange.self)
                #expect(loaded == TextRange(start: index * 100 + 7, count: index + 1), "slot \(index)")
            }
        }
    }

    @Test func ranges_setThroughTheirFields_areReadBackByField() {
        var ranges = ComposeRequest.NotificationRanges()
        let fields: [ComposeRequest.NotificationRanges.Field] = [
            .id, .source, .type, .key, .timestamp, .text, .url, .defaultText,
        ]
        for (offset, field) in fields.enumerated() { ranges[field] = TextRange(start: offset * 10, count: offset) }
        for (offset, field) in fields.enumerated() {
            #expect(ranges[field] == TextRange(start: offset * 10, count: offset), "\(field)")
        }
        #expect(ranges[.senderName].isAbsent, "a slot never set stays absent")
    }
}
