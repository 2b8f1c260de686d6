/// Section 3: an open fenced code block (top-level lines only).
struct Fence {
    /// The fence character: a backtick or a tilde.
    let character: UInt8
    /// Length of the opening run (at least 3).
    let runLength: Int
    /// Spaces before the opening run (0 to 3); removed from content lines.
    let indentSpaces: Int

    /// The fence a line opens: 0–3 spaces, 3 or more backticks or tildes, then
    /// an info string; a backtick fence's info string holds no backtick.
    static func opening(_ line: Range<Int>, in source: UnsafeBufferPointer<UInt8>) -> Fence? {
        guard let (indent, runStart, runEnd) = leadingRun(line, in: source),
            runEnd - runStart >= 3
        else { return nil }
        let character = source[runStart]
        if character == ASCII.backtick {
            for index in runEnd..<line.upperBound where source[index] == ASCII.backtick { return nil }
        }
        return Fence(character: character, runLength: runEnd - runStart, indentSpaces: indent)
    }

    /// Whether `line` closes this fence: 0–3 spaces, a run of the same character
    /// at least as long as the opening one, then only horizontal space.
    func isClosed(by line: Range<Int>, in source: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let (_, runStart, runEnd) = Fence.leadingRun(line, in: source),
            source[runStart] == character, runEnd - runStart >= runLength
        else { return false }
        for index in runEnd..<line.upperBound where !ASCII.isHorizontalSpace(source[index]) { return false }
        return true
    }

    /// A content line without up to `indentSpaces` leading spaces.
    func content(of line: Range<Int>, in source: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var start = line.lowerBound
        while start < line.upperBound && start - line.lowerBound < indentSpaces && source[start] == ASCII.space {
            start += 1
        }
        return start..<line.upperBound
    }

    /// 0–3 spaces, then a maximal run of backticks or tildes.
    private static func leadingRun(_ line: Range<Int>, in source: UnsafeBufferPointer<UInt8>) -> (
        indent: Int, start: Int, end: Int
    )? {
        var start = line.lowerBound
        while start < line.upperBound && source[start] == ASCII.space {
            start += 1
            if start - line.lowerBound > 3 { return nil }
        }
        guard start < line.upperBound else { return nil }
        let character = source[start]
        guard character == ASCII.backtick || character == ASCII.tilde else { return nil }
        var end = start
        while end < line.upperBound && source[end] == character { end += 1 }
        return (start - line.lowerBound, start, end)
    }
}
