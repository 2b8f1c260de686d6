import Testing

@testable import EventHTTP

/// The order slow uploads give way in when room is short: slowest first,
/// the older first among rates within 5%, each taken in one step.
@Suite struct SlowestFirstTests {
    private typealias Order = SlowestFirst<String>

    private static func candidate(_ name: String, _ rate: Double, _ start: UInt64) -> Order.Candidate {
        Order.Candidate(member: name, bytesPerSecond: rate, startNanoseconds: start)
    }

    private static func drained(_ order: inout Order) -> [String] {
        var taken: [String] = []
        while let next = order.next(keeping: { _ in false }, where: { _ in true }) { taken.append(next) }
        return taken
    }

    @Test func slowerRatesGiveWayFirst_andTheOlderAmongRatesWithinFivePercent() {
        var order = Order([
            Self.candidate("fast", 4_000, 1), Self.candidate("slow-young", 600, 900),
            Self.candidate("slow-old", 610, 100), Self.candidate("slowest", 510, 950),
            Self.candidate("middle", 1_200, 5),
        ])
        #expect(Self.drained(&order) == ["slowest", "slow-old", "slow-young", "middle", "fast"])
        #expect(order.isEmpty)
    }

    @Test func theRequesterIsSkippedAndKept_whileWhatIsNoLongerACandidateIsDropped() {
        var order = Order([Self.candidate("a", 500, 1), Self.candidate("b", 700, 1), Self.candidate("c", 900, 1)])
        let first = order.next(keeping: { $0 == "a" }, where: { $0 != "b" })
        #expect(first == "c", "a is the requester, b closed meanwhile")
        #expect(order.next(keeping: { _ in false }, where: { _ in true }) == "a", "a is still in the order")
        #expect(order.next(keeping: { _ in false }, where: { _ in true }) == nil, "b was dropped")
    }

    @Test func ratesInOneBand_areWithinFivePercent() {
        #expect(Order.rateBand(600) == Order.rateBand(605))
        #expect(Order.rateBand(600) < Order.rateBand(640))
        #expect(Order.rateBand(0) < Order.rateBand(1))
    }
}
