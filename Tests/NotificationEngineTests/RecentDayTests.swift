import EngineTestSupport
import Testing

@testable import NotificationEngine

/// `RecentDay` reads a timestamp of the day it last saw without the full
/// parser; whatever it reads, it must read as `Timestamp` does.
@Suite struct RecentDayTests {

    /// Timestamps near the edges: days that are and are not in their month,
    /// hours, minutes and seconds just past their range, leap seconds, both
    /// cases of `T` and `Z`, offsets and fractions.
    private static func timestamp(_ random: inout SplitMix64) -> String {
        func pick(_ options: [String]) -> String { options[Int.random(in: 0..<options.count, using: &random)] }
        // Mostly one day, as in a request; now and then another.
        let date =
            Int.random(in: 0..<4, using: &random) > 0
            ? "2026-11-29" : pick(["2026-11-30", "2024-02-29", "2026-02-29", "2026-12-31", "2026-13-01", "1969-12-31"])
        let hour = pick(["00", "09", "23", "24", "2x"])
        let minute = pick(["00", "59", "60"])
        let second = pick(["00", "07", "59", "60", "61"])
        let zone = pick(["Z", "Z", "Z", "z", "+00:00", ".5Z", "Zx"])
        return date + pick(["T", "T", "t", " "]) + hour + ":" + minute + ":" + second + zone
    }

    @Test func timestampsOfTheRecentDay_readAsTheParserReadsThem() {
        var random = SplitMix64(seed: 29)
        var recent = RecentDay()
        var readHere = 0
        for _ in 0..<20_000 {
            let text = Self.timestamp(&random)
            let expected = Timestamp(rfc3339: text)?.instant
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { bytes in
                if let seconds = recent.epochSeconds(bytes) {
                    readHere += 1
                    #expect(expected?.epochSeconds == seconds, "\(text)")
                    #expect(expected?.nanoseconds == 0 && expected?.subnanosecondDigits == "", "\(text)")
                } else if let expected {
                    recent.remember(bytes, epochSeconds: expected.epochSeconds)
                }
            }
        }
        #expect(readHere > 500, "only \(readHere) read without the parser")
    }

    /// Every value of every byte of the time of day (`HH:MM:SSZ`, read as
    /// one word): one such change can make no leap second, so it reads a
    /// timestamp exactly when the parser accepts it, at the parser's instant.
    @Test func everyByteOfTheTimeOfDay_readExactlyWhenTheParserAcceptsIt() {
        let base = Array("2026-11-29T12:34:56Z".utf8)
        var recent = RecentDay()
        base.withUnsafeBufferPointer { recent.remember($0, epochSeconds: 1_795_955_696) }
        var readHere = 0
        for position in 11..<20 {
            for value in 0...255 {
                var bytes = base
                bytes[position] = UInt8(value)
                let expected = Timestamp(rfc3339: String(decoding: bytes, as: UTF8.self))?.instant.epochSeconds
                let seconds = bytes.withUnsafeBufferPointer { recent.epochSeconds($0) }
                #expect(seconds == expected, "byte \(position) as \(value)")
                if seconds != nil { readHere += 1 }
            }
        }
        // Each digit's own changes that stay in range, and `z`.
        #expect(readHere > 40, "only \(readHere) read")
    }

    @Test func aLeapSecond_isLeftToTheParser() {
        var recent = RecentDay()
        let midnight = Array("2016-12-31T00:00:00Z".utf8)
        midnight.withUnsafeBufferPointer { recent.remember($0, epochSeconds: 1_483_142_400) }
        let leap = Array("2016-12-31T23:59:60Z".utf8)
        #expect(leap.withUnsafeBufferPointer { recent.epochSeconds($0) } == nil)
        let last = Array("2016-12-31T23:59:59Z".utf8)
        #expect(last.withUnsafeBufferPointer { recent.epochSeconds($0) } == 1_483_228_799)
    }
}
