/// Collects output lines and applies section 6 as it goes: horizontal space
/// collapses outside code, paragraph lines lose their edge space, and runs of
/// three or more line feeds become two.
struct BodyWriter {
    private(set) var bytes: [UInt8] = []
    private var hasLine = false
    /// A paragraph line drops space at its edges; a fenced line keeps it.
    private var trimsLineEdges = false
    /// Nothing but dropped space written on this paragraph line yet.
    private var atLineStart = false
    /// The last byte written was a space made from text (not from code).
    private var lastWasTextSpace = false

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Starts an output line; lines are joined with "\n" (section 6.3).
    mutating func beginLine(trimsEdges: Bool) {
        if hasLine { appendLineFeed() }
        hasLine = true
        trimsLineEdges = trimsEdges
        atLineStart = trimsEdges
        lastWasTextSpace = false
    }

    /// Ends the current line: a paragraph line loses its trailing horizontal space.
    mutating func endLine() {
        guard trimsLineEdges else { return }
        while let last = bytes.last, ASCII.isHorizontalSpace(last) { bytes.removeLast() }
    }

    /// A paragraph's own line break: ends the line and begins the next one.
    mutating func paragraphLineBreak() {
        endLine()
        beginLine(trimsEdges: true)
    }

    /// Text outside code: a run of horizontal space becomes one space.
    @inline(__always)
    mutating func appendText(_ byte: UInt8) {
        if ASCII.isHorizontalSpace(byte) {
            if atLineStart || lastWasTextSpace { return }
            bytes.append(ASCII.space)
            lastWasTextSpace = true
        } else {
            bytes.append(byte)
            lastWasTextSpace = false
            atLineStart = false
        }
    }

    /// Code-span content: kept as is, except space at a paragraph line's edge.
    @inline(__always)
    mutating func appendCode(_ byte: UInt8) {
        if atLineStart && ASCII.isHorizontalSpace(byte) { return }
        bytes.append(byte)
        lastWasTextSpace = false
        atLineStart = false
    }

    /// A fenced content line, verbatim.
    mutating func appendVerbatim(_ line: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: line)
    }

    /// Appends "\n" unless two end the output already: a run of three or
    /// more line feeds becomes exactly two (section 6.3), counted as written.
    private mutating func appendLineFeed() {
        let count = bytes.count
        if count >= 2 && bytes[count - 1] == ASCII.lineFeed && bytes[count - 2] == ASCII.lineFeed { return }
        bytes.append(ASCII.lineFeed)
    }

    /// Section 6.4: the output without leading or trailing whitespace.
    func trimmedRange() -> Range<Int> {
        var start = 0
        var end = bytes.count
        while start < end && ASCII.isWhitespace(bytes[start]) { start += 1 }
        while end > start && ASCII.isWhitespace(bytes[end - 1]) { end -= 1 }
        return start..<end
    }
}
