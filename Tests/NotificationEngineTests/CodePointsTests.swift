import Testing

@testable import NotificationEngine

/// `CodePoints.equalBytes` compares in words of different widths by length;
/// every length must find a difference at every position.
@Suite struct CodePointsTests {
    @Test func equalBytes_atEveryLength_findsADifferenceAtEveryPosition() {
        for length in 0...40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: 0x41 + $0) }
            bytes.withUnsafeBufferPointer { x in
                let copy = Array(x)
                copy.withUnsafeBufferPointer { y in
                    #expect(CodePoints.equalBytes(x, y), "length \(length): a copy is equal")
                }
                for position in 0..<length {
                    var changed = copy
                    changed[position] ^= 0x20
                    changed.withUnsafeBufferPointer { y in
                        #expect(!CodePoints.equalBytes(x, y), "length \(length): byte \(position) differs")
                    }
                }
                if length > 0 {
                    let shorter = Array(copy.dropLast())
                    shorter.withUnsafeBufferPointer { y in
                        #expect(!CodePoints.equalBytes(x, y), "length \(length): a prefix is not equal")
                    }
                }
            }
        }
    }
}
