import EngineTestSupport
import Testing

@testable import NotificationEngine

/// The parser checks a string's escapes as its scan finds them
/// (`JSONByteClass.validEscapeLength`), decoding only a string with an
/// escape the check does not vouch for; and the tape decodes the start of a
/// long string alone (`withStringBytes(_:prefixOfAtLeast:_:)`). Both are
/// compared here with decoding every escaped string whole.
@Suite struct EscapeScanTests {
    /// Bytes of escapes, right and wrong: simple escapes, hexadecimal digits
    /// of every case, surrogate halves, letters that are no escape, UTF-8.
    static let pieces: [String] = [
        #"\n"#, #"\""#, #"\\"#, #"\/"#, #"\b"#, #"\f"#, #"\r"#, #"\t"#, #"\u00e9"#, #"\u00E9"#, #"\uD83D"#,
        #"\uDE00"#, #"\uDBFF"#, #"\udc00"#, #"\u12"#, #"\u12G4"#, #"\x"#, #"\"#, "u", "D8", "DC", "0", "a", "é",
        "😀", " ",
    ]

    /// What the parser answered before the scan checked escapes: the
    /// string's end by the plain scan, then its escapes decoded whole.
    private func decodedWhole(_ document: [UInt8]) -> Result<[UInt8], JSONParseError>? {
        document.withUnsafeBufferPointer { bytes -> Result<[UInt8], JSONParseError>? in
            guard case .quote(let end, _) = JSONByteClass.stringEnd(in: bytes, from: 1), end == bytes.count - 1
            else { return nil }
            let raw = UnsafeBufferPointer(rebasing: bytes[1..<end])
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count) {
                output -> Result<[UInt8], JSONParseError> in
                do throws(JSONParseError) {
                    let count = try JSONParser.unescape(raw, baseOffset: 1, into: output)
                    return .success(Array(output[0..<count]))
                } catch {
                    return .failure(error)
                }
            }
        }
    }

    @Test func scanCheckedEscapes_acceptAndRefuseAsDecodingThemWhole() throws {
        var random = SplitMix64(seed: 45)
        var compared = (accepted: 0, refused: 0)
        for _ in 0..<20_000 {
            var text = "\""
            for _ in 0..<Int.random(in: 1...8, using: &random) { text += Self.pieces.randomElement(using: &random)! }
            let document = Array((text + "\"").utf8)
            guard let expected = decodedWhole(document) else { continue }
            switch expected {
            case .success(let decoded):
                let tape = try JSONParser.tape(document)
                #expect(tape.withStringBytes(JSONTape.root) { Array($0) } == decoded, "\(text)")
                compared.accepted += 1
            case .failure(let error):
                #expect(throws: error, "\(text)") { try JSONParser.tape(document) }
                compared.refused += 1
            }
        }
        #expect(compared.accepted > 1_000 && compared.refused > 1_000, "\(compared)")
    }

    @Test func surrogatePairEscape_isSteppedOverWhole_andAStrayLowOneIsRefusedWhereItIs() throws {
        let tape = try JSONParser.tape(Array(#""a\uD83D\uDE00b""#.utf8))
        #expect(tape.string(JSONTape.root) == "a😀b")
        #expect(
            throws: JSONParseError(
                .loneSurrogate, offset: 8, "lone surrogate escape \\uDE00 (a low surrogate without a high one)")
        ) {
            try JSONParser.tape(Array(#""a\u00e9\uDE00""#.utf8))
        }
    }

    @Test func stringPrefix_isTheStartOfTheDecodedString_endingOnAScalar() throws {
        var random = SplitMix64(seed: 46)
        for _ in 0..<300 {
            var text = ""
            let length = Int.random(in: 0...120, using: &random)
            for _ in 0..<length {
                text += [#"\n"#, "é", "😀", "abc", #"\u00e9"#, #"\uD83D\uDE00"#, #"\""#].randomElement(using: &random)!
            }
            let tape = try JSONParser.tape(Array("\"\(text)\"".utf8))
            let whole = tape.withStringBytes(JSONTape.root) { Array($0) }
            let minimum = Int.random(in: 0...200, using: &random)
            let prefix = tape.withStringBytes(JSONTape.root, prefixOfAtLeast: minimum) { Array($0) }
            #expect(whole.starts(with: prefix), "\(text)")
            #expect(prefix.count >= min(minimum, whole.count), "\(text) \(minimum)")
            #expect(prefix.count == whole.count || whole[prefix.count] & 0xC0 != 0x80, "\(text) \(minimum)")
        }
    }
}
