/// Section 5, the inline rules, for one paragraph at a time (link labels are
/// rendered as nested contexts of the same scan). Linear in its input: bracket
/// and parenthesis matches are memoised, code-span closers come from an index
/// of backtick runs, and delimiter openers keep per-character stack links.
/// It owns its scratch space and frees it when it ends (`~Copyable`).
struct InlineRenderer: ~Copyable {
    let source: UnsafeBufferPointer<UInt8>

    private enum TokenKind: UInt8 { case text, code, delimiter }

    /// A piece of output: text (collapsing space), code (verbatim, line feeds
    /// become spaces) or what remains of a delimiter run after pairing.
    /// Positions, counts and stack indexes fit in 32 bits without checks: the
    /// source is the cut input, at most 4096 scalars of at most 4 bytes.
    private struct Token {
        var start: Int32
        var end: Int32
        var kind: TokenKind
    }

    /// A delimiter run that can still open, with the per-character stack tops
    /// from before it was pushed, so popping it restores them in O(1).
    private struct Opener {
        var token: Int32
        var previousAsteriskTop: Int32
        var previousTildeTop: Int32
    }

    /// The enclosing context while a link label is rendered.
    private struct Frame {
        var start: Int
        var end: Int
        var resume: Int
        var asteriskTop: Int32
        var tildeTop: Int32
        var openerBase: Int
    }

    // Sized from the source so a dense paragraph rarely grows them. Tokens
    // cover disjoint bytes and are at most two per three (`**a` repeated).
    private var tokens: ScratchBuffer<Token>
    private var openers: ScratchBuffer<Opener>
    private var frames: ScratchBuffer<Frame>

    /// Per position of `[` or `(`: the context end its match was computed for
    /// (high 32 bits) and the match (low 32 bits: a position, or `noMatch`),
    /// valid where `matchKnown` has the position's bit. Allocated at the first
    /// `[`, in one block with `matchKnown` and `pendingMatches`: only the bits
    /// are cleared, one per source byte, not an entry of 8 bytes.
    private var matchMemo: UnsafeMutablePointer<Int64>? = nil
    private var matchKnown: UnsafeMutablePointer<UInt64>? = nil
    /// Positions opened and still looking for their match, while matching.
    private var pendingMatches: UnsafeMutablePointer<Int32>? = nil
    private static let noMatch: Int32 = -1

    /// Every maximal backtick run of the source as `length << 32 | start`,
    /// sorted; built only once direct searches have used up their budget.
    var backtickRuns: [Int64] = []
    var backtickRunsIndexed = false
    /// Bytes that direct closer searches may still scan: a few code spans are
    /// found by looking ahead, thousands of runs by binary search in the index.
    var directSearchBudget: Int
    /// Bytes that bracket matches may still scan without the memo.
    private var unmemoisedBytes = 256

    /// Frees the memo's block; the scratch buffers free their own.
    deinit {
        UnsafeMutableRawPointer(matchMemo)?.deallocate()
    }

    /// Bytes of each of the two blocks of stack `BodyRenderer` lends each
    /// render (`init(source:stack:tokenStack:)`): as much as
    /// `withUnsafeTemporaryAllocation` gives without asking the runtime how
    /// much stack is left.
    static var stackBytes: Int { 1_024 }

    /// A renderer whose frames and openers start in `stack`, and its tokens
    /// in `tokenStack` (both valid while the renderer is used), as far as
    /// they fit there, sized from the source: a short text renders without
    /// allocating them.
    init(
        source: UnsafeBufferPointer<UInt8>, stack: UnsafeMutableRawBufferPointer,
        tokenStack: UnsafeMutableRawBufferPointer
    ) {
        self.source = source
        self.directSearchBudget = 2 * source.count
        var used = 0
        frames = ScratchBuffer(capacity: source.count / 16 + 4, startingIn: stack, after: &used)
        openers = ScratchBuffer(capacity: source.count / 8 + 8, startingIn: stack, after: &used, atLeast: 8)
        var tokenBytesUsed = 0
        tokens = ScratchBuffer(
            capacity: source.count / 3 * 2 + 16, startingIn: tokenStack, after: &tokenBytesUsed, atLeast: 16)
    }

    /// Renders the paragraph `range` of the source into `writer`.
    mutating func renderParagraph(_ range: Range<Int>, into writer: inout BodyWriter) {
        scan(range)
        emit(into: &writer)
    }

    // MARK: Scanning

    private mutating func scan(_ range: Range<Int>) {
        // A local copy: the compiler must assume that a store through a token
        // or opener pointer may change `self.source`, and would reload it.
        let source = self.source
        tokens.removeAll()
        openers.removeAll()
        frames.removeAll()
        var contextStart = range.lowerBound
        var contextEnd = range.upperBound
        var asteriskTop: Int32 = -1
        var tildeTop: Int32 = -1
        var position = contextStart
        var textStart = position

        while true {
            if position >= contextEnd {
                appendToken(textStart, position, .text)
                guard frames.count > 0 else { break }
                let frame = frames.removeLast()
                openers.truncate(to: frame.openerBase)
                contextStart = frame.start
                contextEnd = frame.end
                asteriskTop = frame.asteriskTop
                tildeTop = frame.tildeTop
                position = frame.resume
                textStart = position
                continue
            }
            let byte = source[position]
            switch byte {
            case ASCII.backslash:
                // An escaped punctuation character is literal; the backslash stays.
                position += position + 1 < contextEnd && ASCII.isPunctuation(source[position + 1]) ? 2 : 1

            case ASCII.backtick:
                let length = runLength(of: byte, at: position, end: contextEnd)
                if let closer = codeSpanCloser(from: position + length, length: length, end: contextEnd) {
                    appendToken(textStart, position, .text)
                    appendCodeSpan(position + length, closer)
                    position = closer + length
                    textStart = position
                } else {
                    position += length
                }

            case ASCII.leftBracket, ASCII.exclamationMark:
                let bracket = byte == ASCII.leftBracket ? position : position + 1
                guard bracket < contextEnd, source[bracket] == ASCII.leftBracket,
                    !knownUnmatched(bracket, end: contextEnd),
                    let link = matchLink(at: bracket, end: contextEnd)
                else {
                    position += 1
                    continue
                }
                appendToken(textStart, position, .text)
                frames.append(
                    Frame(
                        start: contextStart, end: contextEnd, resume: link.resume,
                        asteriskTop: asteriskTop, tildeTop: tildeTop, openerBase: openers.count))
                contextStart = bracket + 1
                contextEnd = link.labelEnd
                asteriskTop = -1
                tildeTop = -1
                position = contextStart
                textStart = position

            case ASCII.asterisk, ASCII.tilde:
                let length = runLength(of: byte, at: position, end: contextEnd)
                guard length >= 2 else {
                    position += 1
                    continue
                }
                appendToken(textStart, position, .text)
                let tokenIndex = Int32(truncatingIfNeeded: tokens.count)
                tokens.append(
                    Token(
                        start: Int32(truncatingIfNeeded: position), end: Int32(truncatingIfNeeded: position + length),
                        kind: .delimiter))
                let canOpen = position + length < contextEnd && !ASCII.isWhitespace(source[position + length])
                let canClose = position > contextStart && !ASCII.isWhitespace(source[position - 1])
                let top = byte == ASCII.asterisk ? asteriskTop : tildeTop
                if canClose && top >= 0 {
                    // Pair with the nearest opener of the same character: each loses
                    // the 2 characters nearest the enclosed text; the opener and
                    // every opener above it leave the stack.
                    let opener = openers[Int(top)]
                    tokens[Int(opener.token)].end -= 2
                    tokens[Int(tokenIndex)].start += 2
                    asteriskTop = opener.previousAsteriskTop
                    tildeTop = opener.previousTildeTop
                    openers.truncate(to: Int(top))
                } else if canOpen {
                    openers.append(
                        Opener(token: tokenIndex, previousAsteriskTop: asteriskTop, previousTildeTop: tildeTop))
                    if byte == ASCII.asterisk {
                        asteriskTop = Int32(truncatingIfNeeded: openers.count - 1)
                    } else {
                        tildeTop = Int32(truncatingIfNeeded: openers.count - 1)
                    }
                }
                position += length
                textStart = position
                // The text after the run, skipped here rather than through the
                // switch: `**a` repeated makes a dispatch per run otherwise.
                position = InlineBytes.nextConstructStart(in: source, from: position, end: contextEnd)

            default:
                // Ordinary text: skip to the next byte that can start a construct.
                position = InlineBytes.nextConstructStart(in: source, from: position + 1, end: contextEnd)
            }
        }
    }

    @inline(__always)
    private mutating func appendToken(_ start: Int, _ end: Int, _ kind: TokenKind) {
        if start < end {
            tokens.append(
                Token(start: Int32(truncatingIfNeeded: start), end: Int32(truncatingIfNeeded: end), kind: kind))
        }
    }

    /// Code between the backtick runs: if it begins and ends with a space (a line
    /// feed counts, as it becomes one) and is not all spaces, one goes from each end.
    private mutating func appendCodeSpan(_ start: Int, _ end: Int) {
        var start = start
        var end = end
        if end - start >= 2 && isCodeSpace(source[start]) && isCodeSpace(source[end - 1]) {
            var allSpace = true
            for index in start..<end where !isCodeSpace(source[index]) {
                allSpace = false
                break
            }
            if !allSpace {
                start += 1
                end -= 1
            }
        }
        appendToken(start, end, .code)
    }

    @inline(__always)
    private func isCodeSpace(_ byte: UInt8) -> Bool { byte == ASCII.space || byte == ASCII.lineFeed }

    // MARK: Links

    /// An inline link or image label at `bracket`: its `]` and the position after its `)`.
    private mutating func matchLink(at bracket: Int, end: Int) -> (labelEnd: Int, resume: Int)? {
        guard let close = match(bracket, end: end, closing: ASCII.rightBracket),
            close + 1 < end, source[close + 1] == ASCII.leftParenthesis,
            // Checked here as well: after `[a](` repeated, every `(` but the
            // first is known, and the call would cost more than the check.
            !knownUnmatched(close + 1, end: end),
            let parenthesis = match(close + 1, end: end, closing: ASCII.rightParenthesis)
        else { return nil }
        return (close, parenthesis + 1)
    }

    /// The match of the `[` or `(` at `open` within a context ending at `end`.
    /// Brackets nest and skip code spans; parentheses are counted over raw
    /// scalars and stop at a line feed; escaped ones never count. Iterative,
    /// memoised per position, so a text of thousands of `[` stays linear.
    /// The first matches, until they have scanned `unmemoisedBytes`, count
    /// nesting alone (`matchUnmemoised`): a text with a few links allocates
    /// no memo.
    private mutating func match(_ open: Int, end: Int, closing: UInt8) -> Int? {
        if matchMemo == nil && unmemoisedBytes > 0 {
            switch matchUnmemoised(open, end: end, closing: closing) {
            case .found(let match): return match
            case .noMatch: return nil
            case .unknown: break
            }
        }
        let opening = source[open]
        switch memo(open, end: end) {
        case .found(let known): return known
        case .noMatch: return nil
        case .unknown: break
        }
        let pending = pendingMatches!
        var pendingCount = 1
        pending[0] = Int32(truncatingIfNeeded: open)
        var position = open + 1
        scanning: while position < end {
            let byte = source[position]
            switch byte {
            case ASCII.backslash:
                position = stepPastEscape(at: position, end: end)
            case ASCII.backtick where closing == ASCII.rightBracket:
                position = stepPastCodeSpan(at: position, end: end)
            case ASCII.lineFeed where closing == ASCII.rightParenthesis:
                break scanning
            case opening:
                switch memo(position, end: end) {
                case .found(let known):
                    position = known + 1
                case .noMatch:
                    break scanning
                case .unknown:
                    pending[pendingCount] = Int32(truncatingIfNeeded: position)
                    pendingCount += 1
                    position += 1
                }
            case closing:
                pendingCount -= 1
                remember(Int(pending[pendingCount]), match: Int32(truncatingIfNeeded: position), end: end)
                if pendingCount == 0 { return position }
                position += 1
            default:
                position += 1
            }
        }
        for index in 0..<pendingCount { remember(Int(pending[index]), match: InlineRenderer.noMatch, end: end) }
        return nil
    }

    /// `match` without the memo: nesting counted, nothing remembered, at
    /// most `unmemoisedBytes` scanned. `unknown` when they run out first
    /// (none are left then: the memo decides from here on).
    private mutating func matchUnmemoised(_ open: Int, end: Int, closing: UInt8) -> Memo {
        let opening = source[open]
        let limit = min(end, open + unmemoisedBytes)
        var depth = 1
        var position = open + 1
        while position < limit {
            switch source[position] {
            case opening:
                depth += 1
                position += 1
            case closing:
                depth -= 1
                if depth == 0 {
                    unmemoisedBytes -= position - open
                    return .found(position)
                }
                position += 1
            case ASCII.lineFeed where closing == ASCII.rightParenthesis:
                unmemoisedBytes -= position - open
                return .noMatch
            case ASCII.backslash:
                position = stepPastEscape(at: position, end: end)
            case ASCII.backtick where closing == ASCII.rightBracket:
                position = stepPastCodeSpan(at: position, end: end)
            default:
                position += 1
            }
        }
        guard limit < end else {
            unmemoisedBytes -= limit - open
            return .noMatch
        }
        unmemoisedBytes = 0
        return .unknown
    }

    /// Just past the backslash at `position`, and past the punctuation
    /// character it escapes: an escaped bracket or parenthesis never counts.
    @inline(__always)
    private func stepPastEscape(at position: Int, end: Int) -> Int {
        position + (position + 1 < end && ASCII.isPunctuation(source[position + 1]) ? 2 : 1)
    }

    private enum Memo { case unknown, found(Int), noMatch }

    /// A remembered match that still holds for a context ending at `end`. A
    /// match found before `end` holds in any narrower context that contains it
    /// (the scan to it never looked further); "no match" only for the same context.
    @inline(__always)
    private mutating func memo(_ open: Int, end: Int) -> Memo {
        guard let memo = matchMemo, let known = matchKnown else {
            allocateMemo()
            return .unknown
        }
        guard known[open &>> 6] & (1 &<< UInt64(open & 63)) != 0 else { return .unknown }
        let entry = memo[open]
        let storedEnd = Int(entry &>> 32)
        let result = Int(Int32(truncatingIfNeeded: entry))
        if result >= 0 { return result < end && end <= storedEnd ? .found(result) : .unknown }
        return storedEnd == end ? .noMatch : .unknown
    }

    /// Whether the `[` or `(` at `open` is already known to have no match in a context ending at `end`.
    @inline(__always)
    private func knownUnmatched(_ open: Int, end: Int) -> Bool {
        guard let memo = matchMemo, let known = matchKnown,
            known[open &>> 6] & (1 &<< UInt64(open & 63)) != 0
        else { return false }
        return memo[open] == Int64(end) &<< 32 | Int64(UInt32(bitPattern: InlineRenderer.noMatch))
    }

    @inline(__always)
    private func remember(_ open: Int, match: Int32, end: Int) {
        matchKnown![open &>> 6] |= 1 &<< UInt64(open & 63)
        matchMemo![open] = Int64(end) &<< 32 | Int64(UInt32(bitPattern: match))
    }

    /// The memo, its bits (all clear) and the pending list, in one block.
    private mutating func allocateMemo() {
        let count = source.count
        let wordCount = (count &+ 63) &>> 6
        let block = UnsafeMutableRawPointer.allocate(
            byteCount: 8 &* count &+ 8 &* wordCount &+ 4 &* count, alignment: MemoryLayout<Int64>.alignment)
        matchMemo = block.bindMemory(to: Int64.self, capacity: count)
        matchKnown = (block + 8 &* count).initializeMemory(as: UInt64.self, repeating: 0, count: wordCount)
        pendingMatches = (block + (8 &* count &+ 8 &* wordCount)).bindMemory(to: Int32.self, capacity: count)
    }

    // MARK: Emitting

    private func emit(into writer: inout BodyWriter) {
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            var range = Int(token.start)..<Int(token.end)
            switch token.kind {
            case .text, .delimiter:
                // Texts and unpaired delimiter runs that follow each other in the
                // source are appended as one text: the same output, one call
                // instead of one per run (`~~a ` repeated makes thousands). No
                // code token starts where a text ends: its backticks lie between.
                while index < tokens.count && Int(tokens[index].start) == range.upperBound {
                    range = range.lowerBound..<Int(tokens[index].end)
                    index += 1
                }
                if range.isEmpty { continue }  // a paired delimiter run, often
                if range.count == 1 {
                    writer.appendTextByte(source[range.lowerBound])
                } else if range.count < 16 {
                    writer.appendText(UnsafeBufferPointer(rebasing: source[range]))
                } else {
                    writer.appendLongText(UnsafeBufferPointer(rebasing: source[range]))
                }
            case .code:
                for index in range {
                    let byte = source[index]
                    writer.appendCode(byte == ASCII.lineFeed ? ASCII.space : byte)
                }
            }
        }
    }
}
