/// Step 3's order, shared by the shown notifications and the next `displayed`
/// state: newest instant first, equal instants by key in code-point order.
enum NewestFirst {
    /// An item to order: its whole seconds and nanoseconds, and its position.
    ///
    /// Sorting moves only these small trivial records, never the items, so no
    /// string is retained or moved while sorting.
    struct Record {
        let time: Time
        let index: Int32

        @inline(__always)
        init(_ moment: Moment, index: Int) {
            time = Time(epochSeconds: moment.epochSeconds, nanoseconds: moment.nanoseconds)
            self.index = Int32(truncatingIfNeeded: index)
        }
    }

    /// Sorts `records` newest first and keeps the first `limit`.
    ///
    /// Records are sorted by whole nanoseconds alone; only runs of equal
    /// nanoseconds (rare) consult `tieOrder(a, b)`, which says whether item `a`
    /// goes before item `b`: by the digits beyond nanoseconds, newest first,
    /// then by key in code-point order. When `records.count > limit`, a
    /// min-heap of the `limit` newest times (O(n log limit), with no input that
    /// degrades it) first finds the oldest time that can still be among the
    /// first `limit`; only records at or after it are sorted.
    static func sort(_ records: inout [Record], limit: Int = .max, tieOrder: (Int, Int) -> Bool) {
        let kept = records.withUnsafeMutableBufferPointer { sort($0, limit: limit, tieOrder: tieOrder) }
        records.removeLast(records.count - kept)
    }

    /// `sort` in place in `records`: the sorted records are its first ones, as
    /// many as the count returned (at most `limit`).
    static func sort(_ records: UnsafeMutableBufferPointer<Record>, limit: Int = .max, tieOrder: (Int, Int) -> Bool)
        -> Int
    {
        var count = records.count
        if count > limit {
            guard limit > 0 else { return 0 }
            let oldestKept = kthNewest(records, k: limit)
            var kept = 0
            for index in 0..<count where !(records[index].time < oldestKept) {
                records[kept] = records[index]
                kept += 1
            }
            count = kept
        }
        var records = UnsafeMutableBufferPointer(rebasing: records[..<count])
        let (increases, decreases) = timeSteps(UnsafeBufferPointer(records))
        if decreases == count - 1 || increases == count - 1 {
            // Strictly ordered either way (notifications are often fetched
            // oldest first): no equal times to break ties between.
            if decreases < increases { records.reverse() }
            return min(count, limit)
        }
        let end = min(count, limit)
        if count <= 32 {
            // Equal times are found while inserting: without them, no run to order.
            guard insertionSortNewestFirst(records, mostlyOldestFirst: decreases < increases) else { return end }
        } else {
            // Mostly oldest first (as notifications are often fetched):
            // reversed, most neighbours are in order, and a merge of two
            // ordered runs costs one comparison.
            if decreases < increases { records.reverse() }
            ComposeScratch.withBuffer(of: Record.self, count: count) { scratch in
                mergeSortNewestFirst(records, scratch: scratch)
            }
        }
        var runStart = 0
        while runStart < end {
            var runEnd = runStart + 1
            while runEnd < count && records[runEnd].time == records[runStart].time { runEnd += 1 }
            if runEnd - runStart > 1 {
                records[runStart..<runEnd].sort { tieOrder(Int($0.index), Int($1.index)) }
            }
            runStart = runEnd
        }
        return end
    }

    /// How many neighbouring records step to a later and to an earlier time.
    static func timeSteps(_ records: UnsafeBufferPointer<Record>) -> (increases: Int, decreases: Int) {
        var increases = 0, decreases = 0
        for index in records.indices.dropFirst() {
            let (earlier, later) = (records[index - 1].time, records[index].time)
            if earlier < later { increases += 1 } else if later < earlier { decreases += 1 }
        }
        return (increases, decreases)
    }

    /// Orders a few records by time, newest first: the stdlib's sort calls its
    /// comparison out of line, which costs more than the sorting itself here.
    /// Inserting in the direction the records mostly run in moves few of them.
    /// True when two records have equal times: a record's insertion stops at
    /// the nearest one not past it, which is an equal one when there is any,
    /// so every pair of equal times is seen.
    @discardableResult
    static func insertionSortNewestFirst(_ records: UnsafeMutableBufferPointer<Record>, mostlyOldestFirst: Bool)
        -> Bool
    {
        var records = records
        var hasEqualTimes = false
        if mostlyOldestFirst {
            // Oldest first, then reversed.
            for end in records.indices.dropFirst() {
                let record = records[end]
                var position = end
                while position > 0 && record.time < records[position - 1].time {
                    records[position] = records[position - 1]
                    position -= 1
                }
                if position > 0 && records[position - 1].time == record.time { hasEqualTimes = true }
                records[position] = record
            }
            records.reverse()
        } else {
            for end in records.indices.dropFirst() {
                let record = records[end]
                var position = end
                while position > 0 && records[position - 1].time < record.time {
                    records[position] = records[position - 1]
                    position -= 1
                }
                if position > 0 && records[position - 1].time == record.time { hasEqualTimes = true }
                records[position] = record
            }
        }
        return hasEqualTimes
    }

    /// Orders `records` by time, newest first (equal times in any order),
    /// with `scratch` (room for as many records) to merge into: runs of
    /// `runCount` ordered by insertion, then merged pairwise, bottom up.
    /// Every record is compared a few times per doubling of the run length,
    /// with the comparison in the loop: the standard library's sort calls
    /// it out of line, several times the cost per record at 1,000 records.
    static func mergeSortNewestFirst(
        _ records: UnsafeMutableBufferPointer<Record>, scratch: UnsafeMutableBufferPointer<Record>
    ) {
        let count = records.count
        let runCount = 16
        var runStart = 0
        while runStart < count {
            let runEnd = min(runStart + runCount, count)
            insertionSortNewestFirst(
                UnsafeMutableBufferPointer(rebasing: records[runStart..<runEnd]), mostlyOldestFirst: false)
            runStart = runEnd
        }
        var (source, target) = (records, scratch)
        var width = runCount
        while width < count {
            var start = 0
            while start < count {
                let middle = min(start + width, count)
                let end = min(start + 2 * width, count)
                merge(source, start..<middle, middle..<end, into: target)
                start = end
            }
            swap(&source, &target)
            width *= 2
        }
        if source.baseAddress != records.baseAddress {
            _ = records.update(fromContentsOf: source)
        }
    }

    /// Merges `source`'s ordered runs `left` and `right` (adjacent) into
    /// the same positions of `target`, newest first; a record of `left`
    /// goes before one of `right` at the same time.
    @inline(__always)
    private static func merge(
        _ source: UnsafeMutableBufferPointer<Record>, _ left: Range<Int>, _ right: Range<Int>,
        into target: UnsafeMutableBufferPointer<Record>
    ) {
        var (l, r, out) = (left.lowerBound, right.lowerBound, left.lowerBound)
        // Already in order (the runs of a mostly ordered input): a copy.
        if right.isEmpty || !(source[left.upperBound - 1].time < source[r].time) {
            for index in left.lowerBound..<right.upperBound { target[index] = source[index] }
            return
        }
        while l < left.upperBound && r < right.upperBound {
            if source[l].time < source[r].time {
                target[out] = source[r]
                r += 1
            } else {
                target[out] = source[l]
                l += 1
            }
            out += 1
        }
        while l < left.upperBound {
            target[out] = source[l]
            l += 1
            out += 1
        }
        while r < right.upperBound {
            target[out] = source[r]
            r += 1
            out += 1
        }
    }

    /// Whether item `a` goes before item `b` among items whose whole
    /// nanoseconds are equal: the later moment first (by the digits beyond
    /// nanoseconds), then the smaller key; keys and digits are ranges of `bytes`.
    @inline(__always)
    static func tieOrder(
        _ a: Moment, _ aKey: TextRange, _ b: Moment, _ bKey: TextRange, in bytes: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        if a.extraDigits.count != 0 || b.extraDigits.count != 0 {
            if Moment.extraLess(b, a, in: bytes) { return true }
            if Moment.extraLess(a, b, in: bytes) { return false }
        }
        return CodePoints.compareBytes(bytes[present: aKey], bytes[present: bKey]) < 0
    }

    /// The k-th newest time (1-based) among `records`, with a min-heap of size k.
    static func kthNewest(_ records: UnsafeMutableBufferPointer<Record>, k: Int) -> Time {
        var heap: [Time] = []
        heap.reserveCapacity(k)
        for record in records {
            let time = record.time
            if heap.count < k {
                heap.append(time)
                var child = heap.count - 1
                while child > 0 {
                    let parent = (child - 1) / 2
                    guard heap[child] < heap[parent] else { break }
                    heap.swapAt(child, parent)
                    child = parent
                }
            } else if heap[0] < time {
                heap[0] = time
                var parent = 0
                while true {
                    let left = 2 * parent + 1, right = left + 1
                    var smallest = parent
                    if left < k, heap[left] < heap[smallest] { smallest = left }
                    if right < k, heap[right] < heap[smallest] { smallest = right }
                    if smallest == parent { break }
                    heap.swapAt(parent, smallest)
                    parent = smallest
                }
            }
        }
        return heap[0]
    }

    /// Whole seconds and nanoseconds: the part of an instant that compares as integers.
    struct Time: Comparable {
        let epochSeconds: Int64
        let nanoseconds: Int32

        static func < (a: Time, b: Time) -> Bool {
            a.epochSeconds != b.epochSeconds ? a.epochSeconds < b.epochSeconds : a.nanoseconds < b.nanoseconds
        }
    }
}
