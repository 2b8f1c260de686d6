import EngineTestSupport
import NotificationService
import Testing

/// `--json-lines`' line splitting (the command line's `JSONLines` reads
/// with it), in process: the same lines whatever the chunks, the limit held
/// without buffering a long line, the last line.
@Suite struct LineSplitterTests {
    /// Feeds `input` in chunks of `chunkSize` bytes and collects what comes out.
    static func lines(_ input: [UInt8], maxLineBytes: Int, chunkSize: Int) -> [LineSplitter.Line] {
        var splitter = LineSplitter(maxLineBytes: maxLineBytes)
        var lines: [LineSplitter.Line] = []
        var start = 0
        while start < input.count {
            let end = min(input.count, start + chunkSize)
            splitter.feed(input[start..<end]) { lines.append($0) }
            start = end
        }
        splitter.finish { lines.append($0) }
        return lines
    }

    static func complete(_ text: String) -> LineSplitter.Line { .complete(Array(text.utf8)) }

    @Test(arguments: [1, 2, 3, 5, 7, 64, 65_536])
    func lines_areTheSameForEveryChunkSize(chunkSize: Int) {
        let input = Array("{\"a\":1}\n\n  \r\nxyz\n0123456789\nlast".utf8)
        let expected: [LineSplitter.Line] = [
            Self.complete("{\"a\":1}"), Self.complete(""), Self.complete("  \r"), Self.complete("xyz"),
            .tooLong, Self.complete("last"),
        ]
        #expect(Self.lines(input, maxLineBytes: 9, chunkSize: chunkSize) == expected)
    }

    @Test(arguments: [1, 4, 1_000])
    func limit_isInclusive_andTheNewlineDoesNotCount(chunkSize: Int) {
        let input = Array("12345\n123456\n1234567".utf8)
        #expect(
            Self.lines(input, maxLineBytes: 6, chunkSize: chunkSize) == [
                Self.complete("12345"), Self.complete("123456"), .tooLong,
            ])
    }

    @Test func trailingNewline_addsNoLine_emptyInput_hasNone() {
        #expect(Self.lines(Array("a\n".utf8), maxLineBytes: 10, chunkSize: 10) == [Self.complete("a")])
        #expect(Self.lines([], maxLineBytes: 10, chunkSize: 10).isEmpty)
        #expect(Self.lines(Array("\n".utf8), maxLineBytes: 10, chunkSize: 10) == [Self.complete("")])
    }

    /// A line far over the limit, fed in small chunks, is reported once at
    /// its end, and the next line is whole again.
    @Test func longLine_isReportedOnce_atItsEnd() {
        var splitter = LineSplitter(maxLineBytes: 100)
        var lines: [LineSplitter.Line] = []
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64)
        for _ in 0..<1_000 {
            splitter.feed(chunk[...]) { lines.append($0) }
        }
        #expect(lines.isEmpty)
        splitter.feed(Array("x\nok\n".utf8)[...]) { lines.append($0) }
        splitter.finish { lines.append($0) }
        #expect(lines == [.tooLong, Self.complete("ok")])
    }

    @Test func longLastLine_withoutNewline_isTooLong() {
        #expect(
            Self.lines(Array("ok\n12345678901".utf8), maxLineBytes: 10, chunkSize: 3) == [
                Self.complete("ok"), .tooLong,
            ])
    }

    /// The lines of the whole input split on `\n` at once (a last piece
    /// without one is a line when it is not empty), each over `maxLineBytes`
    /// reported as too long: what any chunking must give.
    static func reference(_ input: [UInt8], maxLineBytes: Int) -> [LineSplitter.Line] {
        var pieces = input.split(separator: 0x0A, omittingEmptySubsequences: false)
        if pieces.last?.isEmpty == true { pieces.removeLast() }
        return pieces.map { $0.count > maxLineBytes ? .tooLong : .complete(Array($0)) }
    }

    /// Inputs of short, empty, CRLF, exactly-at-the-limit and far-too-long
    /// lines, with and without a last newline, against the reference at
    /// every chunk size from 1 to past the input's length, and at offsets
    /// into a larger array (the slices the read loop hands in).
    @Test(arguments: [0, 1, 2, 3])
    func lines_matchTheWholeInputSplitOnNewlines_atEveryChunkSize(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let maxLineBytes = 8
        let shapes: [[UInt8]] = [
            [], Array("a".utf8), Array("\r".utf8), Array("12345678".utf8), Array("123456789".utf8),
            Array("{\"text\":\"é\"}\r".utf8), [UInt8](repeating: UInt8(ascii: "x"), count: 100),
        ]
        for _ in 0..<20 {
            var input: [UInt8] = []
            for _ in 0..<Int(generator.next() % 12) {
                input += shapes[Int(generator.next() % UInt64(shapes.count))]
                input.append(0x0A)
            }
            if generator.next() % 2 == 0 { input += shapes[Int(generator.next() % UInt64(shapes.count))] }
            let expected = Self.reference(input, maxLineBytes: maxLineBytes)
            for chunkSize in 1...(input.count + 1) {
                #expect(
                    Self.lines(input, maxLineBytes: maxLineBytes, chunkSize: chunkSize) == expected,
                    "chunk size \(chunkSize), input \(String(decoding: input, as: UTF8.self).debugDescription)")
            }
            let padded = [0x0A, 0x0A] + input + [0x0A]
            var splitter = LineSplitter(maxLineBytes: maxLineBytes)
            var lines: [LineSplitter.Line] = []
            splitter.feed(padded[2..<(2 + input.count)]) { lines.append($0) }
            splitter.finish { lines.append($0) }
            #expect(lines == expected)
        }
    }
}
