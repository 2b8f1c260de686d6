/// Step 3's order, shared by the shown notifications and the next `displayed`
/// state: newest instant first, equal instants by key in code-point order.
enum NewestFirst {
    /// The first `limit` positions of the permutation of `0..<count` that puts
    /// the items newest first.
    ///
    /// Works on small trivial records (seconds, nanoseconds, index), never on
    /// the items, so no string is retained or moved while sorting. When
    /// `count > limit`, a min-heap of the `limit` newest times (O(n log limit),
    /// with no input that degrades it) first finds the oldest time that can
    /// still be among the first `limit`; only items at or after it are sorted.
    /// `instant` is consulted again only for digits beyond nanoseconds, `key`
    /// only for items whose times tie.
    static func order(count: Int, limit: Int = .max, instant: (Int) -> Instant, key: (Int) -> String) -> [Int] {
        var records: [Record] = []
        records.reserveCapacity(count)
        for index in 0..<count {
            let i = instant(index)
            records.append(Record(
                time: Time(epochSeconds: i.epochSeconds, nanoseconds: i.nanoseconds),
                hasSubnanoseconds: !i.subnanosecondDigits.isEmpty, index: Int32(truncatingIfNeeded: index)
            ))
        }
        if count > limit, limit > 0 {
            let oldestKept = kthNewest(records, k: limit)
            records.removeAll { $0.time < oldestKept }
        }
        // The survivors' keys, as UTF-8 in one buffer, so ties compare bytes
        // without retaining a string per comparison.
        var keyBytes: [UInt8] = []
        keyBytes.reserveCapacity(records.count * 24)
        var keyRanges: [Range<Int>] = []
        keyRanges.reserveCapacity(count)
        for index in records.indices {
            let start = keyBytes.count
            keyBytes.append(contentsOf: key(Int(records[index].index)).utf8)
            records[index].keyRange = keyRanges.count
            keyRanges.append(start..<keyBytes.count)
        }
        keyBytes.withUnsafeBufferPointer { bytes in
            records.sort { a, b in
                if a.time != b.time { return b.time < a.time }
                if a.hasSubnanoseconds || b.hasSubnanoseconds {
                    let x = instant(Int(a.index)), y = instant(Int(b.index))
                    if x != y { return x > y }
                }
                let x = UnsafeBufferPointer(rebasing: bytes[keyRanges[a.keyRange]])
                let y = UnsafeBufferPointer(rebasing: bytes[keyRanges[b.keyRange]])
                return CodePoints.compareBytes(x, y) < 0
            }
        }
        return records.prefix(limit).map { Int($0.index) }
    }

    /// The k-th newest time (1-based) among `records`, with a min-heap of size k.
    static func kthNewest(_ records: [Record], k: Int) -> Time {
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

    struct Record {
        let time: Time
        let hasSubnanoseconds: Bool
        let index: Int32
        /// Position in `keyRanges`, set once the survivors are known.
        var keyRange = 0
    }
}
