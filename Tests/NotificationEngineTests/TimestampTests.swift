import Testing

@testable import NotificationEngine

@Suite struct TimestampTests {
    func instant(_ raw: String) -> Instant? { Timestamp(rfc3339: raw)?.instant }

    @Test func parse_whenUTC_countsSecondsSinceEpoch() {
        #expect(instant("1970-01-01T00:00:00Z") == Instant(epochSeconds: 0))
        #expect(instant("2026-11-29T12:00:00Z") == Instant(epochSeconds: 1_795_953_600))
        #expect(instant("2000-03-01T00:00:00Z") == Instant(epochSeconds: 951_868_800))
        #expect(instant("1969-12-31T23:59:59Z") == Instant(epochSeconds: -1))
        #expect(instant("0000-01-01T00:00:00Z") == Instant(epochSeconds: -62_167_219_200))
        #expect(instant("9999-12-31T23:59:59Z") == Instant(epochSeconds: 253_402_300_799))
    }

    @Test func parse_keepsRawTextExactly() {
        let raw = "2026-11-29t13:00:00.120+01:00"
        #expect(Timestamp(rfc3339: raw)?.raw == raw)
        #expect(Timestamp(rfc3339: raw)?.description == raw)
    }

    @Test func parse_whenOffset_subtractsItToGetUTC() {
        let utc = instant("2026-11-29T12:00:00Z")
        #expect(instant("2026-11-29T14:00:00+02:00") == utc)
        #expect(instant("2026-11-29T06:30:00-05:30") == utc)
        #expect(instant("2026-11-30T11:59:00+23:59") == utc)
        #expect(instant("2026-11-29T12:00:00-00:00") == utc)
        #expect(instant("2026-11-29T12:00:00z") == utc)
        #expect(instant("2026-11-29t12:00:00Z") == utc)
    }

    @Test func parse_whenFraction_keepsEveryDigitExactly() {
        #expect(instant("2026-11-29T12:00:00.5Z")?.nanoseconds == 500_000_000)
        #expect(instant("2026-11-29T12:00:00.000000001Z")?.nanoseconds == 1)
        #expect(instant("2026-11-29T12:00:00.123456789Z")?.nanoseconds == 123_456_789)
        let long = instant("2026-11-29T12:00:00.1234567890120Z")
        #expect(long?.nanoseconds == 123_456_789)
        #expect(long?.subnanosecondDigits == "012")
        #expect(instant("2026-11-29T12:00:00.000000000000Z") == instant("2026-11-29T12:00:00Z"))
        #expect(instant("2026-11-29T12:00:00.5Z") == instant("2026-11-29T12:00:00.50000000000Z"))
    }

    @Test func compare_ordersByInstantIncludingDigitsBeyondNanoseconds() throws {
        let ordered = [
            "2026-11-29T11:59:59.999999999999Z",
            "2026-11-29T12:00:00Z",
            "2026-11-29T12:00:00.0000000001Z",
            "2026-11-29T12:00:00.00000000011Z",
            "2026-11-29T12:00:00.0000000002Z",
            "2026-11-29T12:00:00.000000001Z",
            "2026-11-29T13:00:00.5+01:00",
        ].map { instant($0) }
        for (earlier, later) in zip(ordered, ordered.dropFirst()) {
            let a = try #require(earlier), b = try #require(later)
            #expect(a < b, "\(a) < \(b)")
            #expect(!(b < a))
        }
    }

    @Test func adding_shiftsWholeSecondsOnly() {
        let base = Instant(epochSeconds: 10, nanoseconds: 5, subnanosecondDigits: "70")
        #expect(base.adding(seconds: -600) == Instant(epochSeconds: -590, nanoseconds: 5, subnanosecondDigits: "7"))
    }

    @Test func parse_whenDateOutOfRange_rejects() {
        for raw in [
            "2026-02-29T00:00:00Z", "2026-02-30T00:00:00Z", "2026-04-31T00:00:00Z", "2026-13-01T00:00:00Z",
            "2026-00-10T00:00:00Z", "2026-01-00T00:00:00Z", "2026-01-32T00:00:00Z", "1900-02-29T00:00:00Z",
        ] {
            #expect(Timestamp(rfc3339: raw) == nil, "\(raw)")
        }
        #expect(Timestamp(rfc3339: "2024-02-29T00:00:00Z") != nil)
        #expect(Timestamp(rfc3339: "2000-02-29T00:00:00Z") != nil)
    }

    @Test func parse_whenTimeOrOffsetOutOfRange_rejects() {
        for raw in [
            "2026-11-29T24:00:00Z", "2026-11-29T12:60:00Z", "2026-11-29T12:00:61Z",
            "2026-11-29T12:00:00+24:00", "2026-11-29T12:00:00+01:60",
        ] {
            #expect(Timestamp(rfc3339: raw) == nil, "\(raw)")
        }
    }

    @Test func parse_whenNotRFC3339Syntax_rejects() {
        for raw in [
            "", "2026-11-29", "2026-11-29T12:00:00", "2026-11-29 12:00:00Z", "2026-11-29T12:00Z",
            "2026-11-29T12:00:00.Z", "2026-11-29T12:00:00,5Z", "2026-11-29T12:00:00+0100", "2026-11-29T12:00:00+01",
            "26-11-29T12:00:00Z", "2026-1-29T12:00:00Z", "+2026-11-29T12:00:00Z", "2026-11-29T12:00:00Z ",
            " 2026-11-29T12:00:00Z", "2026-11-29T12:00:00UTC", "2026-11-29T12:00:00\u{FF3A}", "２026-11-29T12:00:00Z",
            "2026-11-29T1２:00:00Z", "1764417600",
        ] {
            #expect(Timestamp(rfc3339: raw) == nil, "\(raw)")
        }
    }

    @Test func parse_whenAnyHeadByteIsWrong_rejects() {
        // The fixed-width head is read in place: every position is checked.
        let valid = Array("2016-12-31T23:59:59.5+01:00".utf8)
        #expect(Timestamp(rfc3339: String(decoding: valid, as: UTF8.self)) != nil)
        for position in 0..<19 {
            let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(valid[position])
            // Bytes just outside the digit range, and a digit where a separator belongs.
            for replacement in isDigit ? Array("/:a ".utf8) + [0, 0xFF] : Array("05 ".utf8) {
                var bytes = valid
                bytes[position] = replacement
                let text = String(decoding: bytes, as: UTF8.self)
                #expect(Timestamp(rfc3339: text) == nil, "\(text)")
            }
        }
    }

    @Test func parse_whenLeapSecondEndsAMonthInUTC_isNextMidnight() {
        #expect(instant("2016-12-31T23:59:60Z") == instant("2017-01-01T00:00:00Z"))
        #expect(instant("2015-06-30T23:59:60.5Z") == instant("2015-07-01T00:00:00.5Z"))
        #expect(instant("2016-12-31T18:59:60-05:00") == instant("2017-01-01T00:00:00Z"))
        #expect(instant("2017-01-01T00:59:60+01:00") == instant("2017-01-01T00:00:00Z"))
    }

    @Test func parse_whenLeapSecondElsewhere_rejects() {
        #expect(Timestamp(rfc3339: "2016-12-30T23:59:60Z") == nil)
        #expect(Timestamp(rfc3339: "2016-12-31T23:58:60Z") == nil)
        #expect(Timestamp(rfc3339: "2016-12-31T23:59:60+01:00") == nil)
        #expect(Timestamp(rfc3339: "2026-11-29T12:00:60Z") == nil)
    }
}
