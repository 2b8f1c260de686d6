import Foundation
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
        #expect(AnswerMember.allCases.allSatisfy { "\($0.key)" == "\"\($0.name)\":" })
        // The names and their order are the contract's: every `notification`
        // object of test-fixtures/compose.json, in its text (a parsed
        // object would lose the order), has the table's members in its order.
        let names = AnswerMember.allCases.map(\.name)
        let objects = notificationObjectsKeys(
            inFixtureText: (try? String(contentsOf: ComposeFixture.url, encoding: .utf8)) ?? "")
        #expect(objects.count >= 40)
        for keys in objects where keys != names { Issue.record("compose.json has a notification with \(keys)") }
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

    /// The member names of each `"notification": {` object of the fixture's
    /// text, in the order written. Its members are strings or `null`, so the
    /// object ends at the first `}` outside a string.
    func notificationObjectsKeys(inFixtureText text: String) -> [[String]] {
        let bytes = Array(text.utf8)
        let opener = Array(#""notification": {"#.utf8)
        var objects: [[String]] = []
        var index = 0
        while index + opener.count <= bytes.count {
            guard bytes[index..<index + opener.count].elementsEqual(opener) else {
                index += 1
                continue
            }
            index += opener.count
            var keys: [String] = []
            var expectingKey = true
            while index < bytes.count && bytes[index] != UInt8(ascii: "}") {
                if bytes[index] == UInt8(ascii: "\"") {
                    var end = index + 1
                    while bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
                    if expectingKey { keys.append(String(decoding: bytes[index + 1..<end], as: UTF8.self)) }
                    expectingKey = false
                    index = end
                } else if bytes[index] == UInt8(ascii: ",") {
                    expectingKey = true
                }
                index += 1
            }
            objects.append(keys)
        }
        return objects
    }
}
