import Foundation
import Testing

@testable import NotificationEngine
@testable import NotificationService

@Suite struct UTCTimeTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (Int64(951_782_400_000_000_000), "2000-02-29T00:00:00.000Z"),
        (Int64(1_795_953_600_123_456_789), "2026-11-29T12:00:00.123Z"),
        (Int64(-1), "1969-12-31T23:59:59.999Z"),
        (Int64(4_107_542_399_000_000_000), "2100-02-28T23:59:59.000Z"),
    ])
    func rfc3339_formatsKnownInstants(_ nanoseconds: Int64, _ expected: String) {
        #expect(UTCTime.rfc3339(nanosecondsSinceEpoch: nanoseconds, fractionDigits: 3) == expected)
    }

    @Test(arguments: 0...9)
    func rfc3339_hasAsManyFractionDigitsAsAskedFor(_ fractionDigits: Int) {
        let fraction = String("123456789".prefix(fractionDigits))
        let expected = "2026-11-29T12:00:00" + (fractionDigits == 0 ? "" : "." + fraction) + "Z"
        #expect(
            UTCTime.rfc3339(nanosecondsSinceEpoch: 1_795_953_600_123_456_789, fractionDigits: fractionDigits)
                == expected)
        #expect(
            UTCTime.rfc3339(nanosecondsSinceEpoch: 1_795_953_600_000_000_007, fractionDigits: fractionDigits)
                == "2026-11-29T12:00:00" + (fractionDigits == 0 ? "" : "." + String("000000007".prefix(fractionDigits)))
                + "Z")
    }

    @Test func rfc3339_agreesWithFoundationOverFourCenturies() {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let seconds = Int64.random(in: -5_000_000_000...7_000_000_000, using: &generator)
            let expected = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            #expect(
                UTCTime.rfc3339(nanosecondsSinceEpoch: seconds * 1_000_000_000, fractionDigits: 0) == expected,
                "\(seconds)")
        }
    }
}
