#if canImport(Glibc)
import Glibc
#endif

/// Uploads in the order they give way when room is short: slowest first
/// by their rate, and of rates within 5% of each other the one begun
/// first (docs/adr/0042-room-reclaimed-from-the-slowest.md). Made from
/// every candidate at once, then taken from in O(1) a choice: an upload's
/// rate falls with every moment no byte of it comes, so an order kept as
/// reads arrive would go stale between them just the same; the table makes
/// it afresh at most once a sweep (`ConnectionTable.slowestUpload`), and
/// checks each member it takes against its rate now.
struct SlowestFirst<Member> {
    /// What the order is made of: a member, its rate in bytes a second,
    /// and when its body began.
    struct Candidate {
        var member: Member
        var bytesPerSecond: Double
        var startNanoseconds: UInt64
    }

    /// The members, the one to give way first last.
    private var members: [Member]

    init(_ candidates: [Candidate]) {
        members = candidates.sorted { Self.givesWayAfter($0, $1) }.map(\.member)
    }

    /// Rates are compared in steps of 5% (a rate's band: `rateBand`), so
    /// that within one band the older gives way first.
    private static func givesWayAfter(_ left: Candidate, _ right: Candidate) -> Bool {
        let leftBand = rateBand(left.bytesPerSecond)
        let rightBand = rateBand(right.bytesPerSecond)
        if leftBand != rightBand { return leftBand > rightBand }
        return left.startNanoseconds > right.startNanoseconds
    }

    /// The band of rates within 5% of each other that `bytesPerSecond` is in.
    static func rateBand(_ bytesPerSecond: Double) -> Int {
        guard bytesPerSecond >= 1 else { return -1 }
        return Int(log(bytesPerSecond) / log(1.05))
    }

    var isEmpty: Bool { members.isEmpty }

    /// The first member to give way for which `isCandidate` holds now, taken
    /// out of the order with every member before it that no longer is a
    /// candidate (closed, finished, or faster now); a member that is
    /// `kept` (the requester) is skipped, not taken.
    mutating func next(keeping kept: (Member) -> Bool, where isCandidate: (Member) -> Bool) -> Member? {
        var skipped: [Member] = []
        defer { members.append(contentsOf: skipped.reversed()) }
        while let member = members.popLast() {
            guard isCandidate(member) else { continue }
            if kept(member) {
                skipped.append(member)
                continue
            }
            return member
        }
        return nil
    }
}
