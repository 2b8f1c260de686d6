import Testing

@testable import NotificationEngine

/// `UTF8Validation` skips ASCII 128, 32 and 8 bytes at a time; whatever
/// block a sequence falls in, it must find the same first ill-formed byte as
/// a byte-by-byte reading of RFC 3629.
@Suite struct UTF8ValidationTests {
    /// The offset of the first ill-formed sequence, read one byte at a time
    /// with the standard library's decoder: the offset of the first error.
    private static func expectedOffset(_ bytes: [UInt8]) -> Int? {
        var offset = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    private static func firstInvalidOffset(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidOffset($0) }
    }

    /// Sequences that are well-formed, and ones that are not: a lone
    /// continuation, an overlong form, a surrogate, past U+10FFFF, a lead
    /// without its continuation.
    private static let sequences: [[UInt8]] = [
        [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80], [0xED, 0x9F, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF],
        [0x80], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF8],
        [0xE2, 0x82], [0xF0, 0x9F, 0x98],
    ]

    @Test func aSequenceAtEveryOffsetOfTheBlocks_isFoundWhereAByteReadingFindsIt() {
        for sequence in Self.sequences {
            for length in [300, 129, 128, 64, 31] {
                for offset in 0...(length - 1) {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    let end = min(length, offset + sequence.count)
                    bytes.replaceSubrange(offset..<end, with: sequence[0..<(end - offset)])
                    #expect(
                        Self.firstInvalidOffset(bytes) == Self.expectedOffset(bytes),
                        "sequence \(sequence) at \(offset) of \(length)")
                }
            }
        }
    }

    @Test func asciiOfEveryLength_isWellFormed() {
        for length in 0...300 {
            #expect(Self.firstInvalidOffset([UInt8](repeating: 0x7F, count: length)) == nil, "length \(length)")
        }
    }
}
