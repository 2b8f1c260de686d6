import Testing

@testable import NotificationEngine

@Suite struct BidiStrongClassTests {
    /// The table's class, without the ASCII shortcut of `BidiStrongClass.of`.
    func fromTable(_ value: UInt32) -> BidiStrongClass {
        let runs = BidiStrongClasses.runs
        let index = runs.lastIndex { $0 >> 2 <= value }!
        return BidiStrongClass(rawValue: UInt8(runs[index] & 3))!
    }

    @Test func table_isSortedAndCoversEveryCodePoint() {
        let runs = BidiStrongClasses.runs
        #expect(runs.first == 0)
        #expect(zip(runs, runs.dropFirst()).allSatisfy { $0 >> 2 < $1 >> 2 && $0 & 3 != $1 & 3 })
        #expect(runs.allSatisfy { $0 >> 2 <= 0x10FFFF && $0 & 3 != 3 })
    }

    @Test func asciiShortcut_agreesWithTheTable() {
        for value in UInt32(0)..<0x80 { #expect(BidiStrongClass.of(value) == fromTable(value), "U+\(value)") }
    }

    @Test func lookup_agreesWithTheTableEverywhere() {
        // Every run's first and last code point, and one inside.
        let runs = BidiStrongClasses.runs.map { $0 >> 2 } + [0x110000]
        for (start, next) in zip(runs, runs.dropFirst()) {
            for value in [start, (start + next) / 2, next - 1] {
                #expect(BidiStrongClass.of(value) == fromTable(value), "U+\(String(value, radix: 16))")
            }
        }
    }

    @Test func knownClasses_ofUnicodeSeventeen() {
        let expected: [(UInt32, BidiStrongClass, String)] = [
            (0x41, .leftToRight, "A"), (0x30, .neutral, "a digit"), (0x20, .neutral, "space"),
            (0xE9, .leftToRight, "é"), (0x05D0, .rightToLeft, "alef (R)"), (0x0627, .rightToLeft, "alef (AL)"),
            (0x0661, .neutral, "Arabic-Indic digit one (AN)"), (0x064B, .neutral, "fathatan (NSM)"),
            (0x200E, .leftToRight, "LRM"), (0x200F, .rightToLeft, "RLM"), (0x061C, .rightToLeft, "ALM"),
            (0x2068, .neutral, "FSI"), (0x202E, .neutral, "RLO"), (0x4E2D, .leftToRight, "中"),
            (0x1F600, .neutral, "emoji (ON)"), (0xFFFD, .neutral, "replacement character"),
            (0xE000, .leftToRight, "private use"), (0x0590, .rightToLeft, "unassigned in Hebrew: R"),
            (0x07BF, .rightToLeft, "unassigned in Thaana: AL"), (0x0378, .leftToRight, "unassigned in Greek: L"),
            (0x2065, .neutral, "unassigned default ignorable: BN"), (0xFDD0, .neutral, "noncharacter: BN"),
            (0x10FFFF, .neutral, "noncharacter: BN"), (0xE0001, .neutral, "language tag: BN"),
            (0x1EF00, .rightToLeft, "unassigned: R"), (0x20C1, .neutral, "unassigned currency: ET"),
            (0x10940, .rightToLeft, "Sidetic, new in 17.0"), (0x16EA0, .leftToRight, "Beria Erfe, new in 17.0"),
            (0x110000, .neutral, "no code point"),
        ]
        for (value, strong, what) in expected {
            #expect(BidiStrongClass.of(value) == strong, "U+\(String(value, radix: 16)) \(what)")
        }
        #expect(BidiStrongClasses.unicodeVersion == "17.0.0")
    }

    @Test func containsOpposite_scansUTF8() {
        func opposite(_ text: String, _ direction: TextDirection) -> Bool {
            var text = text
            return text.withUTF8 { BidiStrongClass.containsOpposite(of: direction, in: $0) }
        }
        #expect(opposite("Ana محمد", .ltr))
        #expect(!opposite("Ana 123 😀", .ltr))
        #expect(opposite("x\u{10940}", .ltr))
        #expect(opposite("محمد a", .rtl))
        #expect(!opposite("محمد 123 😀", .rtl))
        #expect(opposite("\u{4E2D}", .rtl))
        #expect(!opposite("", .rtl))
        // A cut or malformed sequence is no code point, never strong.
        let bytes: [UInt8] = [0xD7, 0x41, 0xE2, 0x82]
        bytes.withUnsafeBufferPointer { bytes in
            #expect(BidiStrongClass.containsOpposite(of: .rtl, in: bytes))  // the A
            #expect(!BidiStrongClass.containsOpposite(of: .ltr, in: bytes))
        }
    }
}
