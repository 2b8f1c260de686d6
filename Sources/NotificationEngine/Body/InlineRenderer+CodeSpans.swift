/// Code-span closers for `InlineRenderer`'s scan and its bracket matches:
/// a few found by looking ahead, thousands by binary search in an index of
/// backtick runs built once the direct searches have used up their budget.
extension InlineRenderer {
    /// The start of the first maximal run of exactly `length` backticks that
    /// starts at or after `from` and before `end`, over raw scalars.
    mutating func codeSpanCloser(from: Int, length: Int, end: Int) -> Int? {
        if !backtickRunsIndexed {
            let limit = min(end, from + directSearchBudget)
            var index = from
            while index < limit {
                if source[index] == ASCII.backtick {
                    let run = runLength(of: ASCII.backtick, at: index, end: end)
                    if run == length {
                        directSearchBudget -= index - from
                        return index
                    }
                    index += run
                } else {
                    index += 1
                }
            }
            directSearchBudget -= min(index, limit) - from
            if limit == end { return nil }
        }
        if !backtickRunsIndexed { indexBacktickRuns() }
        let key = Int64(length) << 32 | Int64(from)
        var low = 0
        var high = backtickRuns.count
        while low < high {
            let middle = (low + high) / 2
            if backtickRuns[middle] < key { low = middle + 1 } else { high = middle }
        }
        guard low < backtickRuns.count, backtickRuns[low] >> 32 == Int64(length) else { return nil }
        let start = Int(backtickRuns[low] & 0xFFFF_FFFF)
        return start < end ? start : nil
    }

    mutating func indexBacktickRuns() {
        backtickRunsIndexed = true
        var index = 0
        while index < source.count {
            if source[index] == ASCII.backtick {
                let length = runLength(of: ASCII.backtick, at: index, end: source.count)
                backtickRuns.append(Int64(length) << 32 | Int64(index))
                index += length
            } else {
                index += 1
            }
        }
        backtickRuns.sort()
    }

    @inline(__always)
    func runLength(of byte: UInt8, at start: Int, end: Int) -> Int {
        var index = start
        while index < end && source[index] == byte { index += 1 }
        return index - start
    }

    /// Just past the backtick run at `position`, and past the code span's
    /// closer when the run opens one: how a bracket match steps over code.
    @inline(__always)
    mutating func stepPastCodeSpan(at position: Int, end: Int) -> Int {
        let length = runLength(of: ASCII.backtick, at: position, end: end)
        guard let closer = codeSpanCloser(from: position + length, length: length, end: end) else {
            return position + length
        }
        return closer + length
    }
}
