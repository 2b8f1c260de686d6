import Testing

@testable import NotificationEngine

/// The records hold each table's values in fixed slots, read by a raw value
/// masked to the room there is: a field past that room would share another
/// field's slot and read its value. These fail as soon as a table outgrows
/// its slots, so growing one means growing its storage.
@Suite struct SlotCapacityTests {
    @Test func textFields_eachHaveTheirOwnOfSixteenSlots() {
        let fields = ComposeRequest.NotificationRanges.Field.allCases
        #expect(fields.allSatisfy { $0.rawValue < 16 })
        var ranges = ComposeRequest.NotificationRanges()
        for (offset, field) in fields.enumerated() { ranges[field] = TextRange(start: offset * 10, count: offset + 1) }
        for (offset, field) in fields.enumerated() {
            #expect(ranges[field] == TextRange(start: offset * 10, count: offset + 1), "\(field)")
        }
    }

    @Test func scalarFields_eachHaveTheirOwnOfFourSlots() {
        let fields = ComposeRequest.ScalarSlots.Field.allCases
        #expect(fields.count <= 4 && fields.allSatisfy { $0.rawValue < 4 })
        var scalars = ComposeRequest.ScalarSlots()
        for (offset, field) in fields.enumerated() { scalars[field] = Int64(offset + 7) }
        for (offset, field) in fields.enumerated() { #expect(scalars[field] == Int64(offset + 7), "\(field)") }
    }

    @Test func answerMembers_eachHaveTheirOwnOfEightSlots_andTheirWireName() {
        #expect(AnswerMember.allCases.allSatisfy { $0.rawValue < 8 && $0.slot == Int($0.rawValue) })
        // The names themselves, and their order, are the contract's: every
        // fixture case and openapi.yaml's examples compare them.
        let names = AnswerMember.allCases.map(\.name)
        #expect(Set(names).count == names.count && !names.contains(""))
        #expect(AnswerMember.allCases.allSatisfy { "\($0.key)" == "\"\($0.name)\":" })
        var content = ComposeResponse.Content { _ in nil }
        for member in AnswerMember.allCases { content[member] = member.name }
        for member in AnswerMember.allCases { #expect(content[member] == member.name) }
    }

    /// `furthestReach` reads every slot: a range in any one of them, however
    /// it was added to `Field`, decides the reach.
    @Test func furthestReach_isTheFurthestOfAnySlot() {
        for field in ComposeRequest.NotificationRanges.Field.allCases {
            var ranges = ComposeRequest.NotificationRanges()
            ranges[.id] = TextRange(start: 0, count: 3)
            ranges[field] = TextRange(start: 100, count: 20)
            #expect(ranges.furthestReach == 120, "\(field)")
        }
        #expect(ComposeRequest.NotificationRanges().furthestReach == 0)
    }
}
