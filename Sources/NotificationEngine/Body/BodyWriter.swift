/// Collects output lines and applies section 6 as it goes: horizontal space
/// collapses outside code, paragraph lines lose their edge space, and runs of
/// three or more line feeds become two.
///
/// It writes into a caller-provided buffer at least as long as the source: the
/// output never has more bytes than the source (every byte written stands for
/// a source byte, and every line feed for a source line feed).
struct BodyWriter {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0
    private var hasLine = false
    /// A paragraph line drops space at its edges; a fenced line keeps it.
    private var trimsLineEdges = false
    /// Nothing but dropped space written on this paragraph line yet.
    private var atLineStart = false
    /// The last byte written was a space made from text (not from code).
    private var lastWasTextSpace = false
    /// What `settlesCap` counted: the UTF-16 units of the first
    /// `countedBytes` bytes, and the whitespace that starts the output.
    private var countedBytes = 0
    private var countedUnits = 0
    private var leadingWhitespace = 0

    init(buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    @inline(__always)
    private mutating func write(_ byte: UInt8) {
        assert(count < buffer.count, "output longer than its source")
        buffer[count] = byte
        count += 1
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
        while count > 0 && ASCII.isHorizontalSpace(buffer[count - 1]) { count -= 1 }
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
            write(ASCII.space)
            lastWasTextSpace = true
        } else {
            write(byte)
            lastWasTextSpace = false
            atLineStart = false
        }
    }

    /// Text outside code, line feeds included: copies runs of ordinary bytes
    /// at once and handles space and line feeds one by one.
    mutating func appendText(_ text: UnsafeBufferPointer<UInt8>) {
        var index = 0
        while index < text.count {
            let byte = text[index]
            if byte == ASCII.lineFeed {
                paragraphLineBreak()
                index += 1
            } else if ASCII.isHorizontalSpace(byte) {
                appendText(byte)
                index += 1
            } else {
                // The count in a local: a store through `buffer` could alias
                // `self`, which would reload `count` after every byte.
                var written = count
                while index < text.count && !ASCII.isWhitespace(text[index]) {
                    assert(written < buffer.count, "output longer than its source")
                    buffer[written] = text[index]
                    written += 1
                    index += 1
                }
                count = written
                lastWasTextSpace = false
                atLineStart = false
            }
        }
    }

    /// `appendText` of a one-byte text, the most common text in hostile
    /// paragraphs (`**a` repeated), without the loop. Out of line: inlined,
    /// it makes the caller's loop keep the writer's fields in memory.
    @inline(never)
    mutating func appendTextByte(_ byte: UInt8) {
        if byte == ASCII.lineFeed {
            paragraphLineBreak()
        } else {
            appendText(byte)
        }
    }

    /// `appendText` for a long text: eight bytes at a time where the rules
    /// change none of them (no tab or line feed, no two spaces in a row, no
    /// space first where a space would be dropped), so that a long text costs
    /// a few instructions a byte. A separate method: in `appendText`, which
    /// hostile paragraphs call for thousands of texts of a byte or two, this
    /// loop costs more in saved registers than it spares; out of line for the
    /// same reason.
    @inline(never)
    mutating func appendLongText(_ text: UnsafeBufferPointer<UInt8>) {
        guard let base = text.baseAddress, let output = buffer.baseAddress else { return }
        var index = 0
        while index < text.count {
            var written = count
            var spaceMayComeFirst = !lastWasTextSpace && !atLineStart
            while index + 8 <= text.count {
                let word = ByteScan.load(base, index)
                let spaces = ByteScan.spaceBytes(word)
                if ByteScan.containsTabOrLineFeed(word) || spaces & (spaces << 8) != 0 { break }
                if spaces & 0x80 != 0 && !spaceMayComeFirst { break }
                assert(written + 8 <= buffer.count, "output longer than its source")
                UnsafeMutableRawPointer(output + written).storeBytes(of: word.littleEndian, as: UInt64.self)
                written += 8
                index += 8
                spaceMayComeFirst = spaces >> 56 == 0
            }
            if written > count {
                // Each word written holds a byte other than space.
                count = written
                lastWasTextSpace = !spaceMayComeFirst
                atLineStart = false
            }
            // A word the rules change, or the tail, byte by byte: appending a
            // text in pieces writes what appending it whole would.
            let next = min(index + 8, text.count)
            appendText(UnsafeBufferPointer(rebasing: text[index..<next]))
            index = next
        }
    }

    /// Code-span content: kept as is, except space at a paragraph line's edge.
    @inline(__always)
    mutating func appendCode(_ byte: UInt8) {
        if atLineStart && ASCII.isHorizontalSpace(byte) { return }
        write(byte)
        lastWasTextSpace = false
        atLineStart = false
    }

    /// A fenced content line, verbatim.
    mutating func appendVerbatim(_ line: UnsafeBufferPointer<UInt8>) {
        for byte in line { write(byte) }
    }

    /// Appends "\n" unless two end the output already: a run of three or
    /// more line feeds becomes exactly two (section 6.3), counted as written.
    private mutating func appendLineFeed() {
        if count >= 2 && buffer[count - 1] == ASCII.lineFeed && buffer[count - 2] == ASCII.lineFeed { return }
        write(ASCII.lineFeed)
    }

    /// Whether the output, trimmed (section 6.4), already holds more than
    /// `maxUnits` UTF-16 units and ends in a byte that stays: section 7 then
    /// caps the body at a scalar of this output that nothing written later
    /// moves (later lines only add bytes after it, or drop whitespace after
    /// its end), and Character boundaries up to a scalar depend on nothing
    /// after it, so more output would change neither the cut nor the
    /// answer. Counts only what was written since the last call.
    mutating func settlesCap(of maxUnits: Int) -> Bool {
        guard count > 0, !ASCII.isWhitespace(buffer[count - 1]) else { return false }
        // The last call's output ended in a byte that stays.
        assert(count >= countedBytes, "output shorter than when last counted")
        countedUnits += ByteScan.utf16Count(UnsafeBufferPointer(rebasing: buffer[countedBytes..<count]))
        countedBytes = count
        // Whitespace is ASCII: a byte is a unit. It ends before `count`.
        while ASCII.isWhitespace(buffer[leadingWhitespace]) { leadingWhitespace += 1 }
        return countedUnits - leadingWhitespace > maxUnits
    }

    /// Section 6.4: the output without leading or trailing whitespace.
    var trimmed: UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = count
        while start < end && ASCII.isWhitespace(buffer[start]) { start += 1 }
        while end > start && ASCII.isWhitespace(buffer[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: buffer[start..<end])
    }
}
