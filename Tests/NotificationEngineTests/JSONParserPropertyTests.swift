import EngineTestSupport
import Testing

@testable import NotificationEngine

/// Mutated documents: the parser never traps, and whatever it accepts survives
/// a write-and-parse round trip unchanged.
@Suite struct JSONParserPropertyTests {
    static let seeds: [String] = [
        #"{"text": "Hello **world**", "maxUnits": 300}"#,
        #"{"notifications": [{"id": "1", "type": "message", "timestamp": "2026-11-29T11:59:00Z", "sender": {"name": "A\u00e9\uD83D\uDE00"}}], "fetch": "ok"}"#,
        #"[1, -0.5e+10, true, false, null, "a\"b\\c\/\n", {}, [], {"k": [{"k": []}]}]"#,
        "\"é😀\u{301}\"",
    ]
    /// Bytes that matter to the grammar, plus UTF-8 lead and continuation bytes.
    static let interesting: [UInt8] =
        Array(#"{}[],:"\/bfnrtu0123456789+-.eE ntfalse"#.utf8) + [
            0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC3, 0xE2, 0xED, 0xF0, 0xF4, 0xFF,
        ]

    @Test(arguments: 0..<seeds.count)
    func mutatedDocument_neverTraps_andAcceptedOnesRoundTrip(_ seedIndex: Int) {
        var random = SplitMix64(seed: UInt64(seedIndex) &* 7919 &+ 1)
        let seed = Array(Self.seeds[seedIndex].utf8)
        var accepted = 0
        for _ in 0..<5000 {
            var bytes = seed
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let position = Int.random(in: 0...bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0 where position < bytes.count: bytes.remove(at: position)
                case 1 where position < bytes.count: bytes[position] = Self.interesting.randomElement(using: &random)!
                default: bytes.insert(Self.interesting.randomElement(using: &random)!, at: position)
                }
            }
            guard let value = try? JSONParser.parse(bytes) else { continue }
            accepted += 1
            let again = try? JSONParser.parse(value.bytes)
            #expect(again == value, "round trip changed \(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
        #expect(accepted > 0, "no mutation was valid JSON; the property was never checked")
    }
}
