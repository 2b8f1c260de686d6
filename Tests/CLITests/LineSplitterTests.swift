import Testing

@testable import notification_text

/// `--json-lines`' line splitting, in process: the same lines whatever the
/// chunks, the limit held without buffering a long line, the last line.
@Suite struct LineSplitterTests {
    /// Feeds `input` in chunks of `chunkSize` bytes and collects what comes out.
    static func lines(_ input: [UInt8], maxLineBytes: Int, chunkSize: Int) -> [LineSplitter.Line] {
        var splitter = LineSplitter(maxLineBytes: maxLineBytes)
        var lines: [LineSplitter.Line] = []
        var start = 0
        while start < input.count {
            let end = min(input.count, start + chunkSize)
            input.withUnsafeBufferPointer {
                splitter.feed(UnsafeBufferPointer(rebasing: $0[start..<end])) { lines.append($0) }
            }
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
            chunk.withUnsafeBufferPointer { splitter.feed($0) { lines.append($0) } }
        }
        #expect(lines.isEmpty)
        Array("x\nok\n".utf8).withUnsafeBufferPointer { splitter.feed($0) { lines.append($0) } }
        splitter.finish { lines.append($0) }
        #expect(lines == [.tooLong, Self.complete("ok")])
    }

    @Test func longLastLine_withoutNewline_isTooLong() {
        #expect(
            Self.lines(Array("ok\n12345678901".utf8), maxLineBytes: 10, chunkSize: 3) == [
                Self.complete("ok"), .tooLong,
            ])
    }
}
