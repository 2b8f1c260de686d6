import Testing

@testable import NotificationEngine
@testable import NotificationService

@Suite struct RequestIDTests {
    /// The digits one at a time, as `String(value, radix: 16)` pads them.
    private func reference(prefix: UInt64, sequence: UInt64) -> String {
        func padded(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return padded(prefix) + padded(sequence)
    }

    @Test func next_isThePrefixAndTheCounterIn32LowerCaseHexDigits() {
        var generator = SystemRandomNumberGenerator()
        let edges: [UInt64] = [0, 1, 9, 10, 15, 16, 0xA, 0xF0, 0x0123_4567_89AB_CDEF, .max, .max - 1, 1 << 63]
        let prefixes = edges + (0..<200).map { _ in generator.next() }
        for prefix in prefixes {
            let ids = RequestIDGenerator(prefix: prefix)
            #expect(ids.next().text == reference(prefix: prefix, sequence: 1))
            #expect(ids.next().text == reference(prefix: prefix, sequence: 2))
            let digits = RequestIDGenerator.hexDigits(prefix)
            for sequence in edges + [generator.next(), generator.next()] {
                #expect(
                    RequestIDGenerator.id(prefixDigits: digits, sequence: sequence).text
                        == reference(prefix: prefix, sequence: sequence))
            }
        }
    }
}
