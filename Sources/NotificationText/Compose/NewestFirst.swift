/// Step 3's order, shared by the shown notifications and the next `displayed`
/// state: newest instant first, equal instants by key in code-point order.
enum NewestFirst {
    /// The permutation of `0..<count` that puts the items newest first.
    ///
    /// Sorts small trivial records (seconds, nanoseconds, where the key's UTF-8
    /// lies in one shared byte buffer, index) rather than the items, so no
    /// string is retained or released while sorting: with up to 11,000 items
    /// and many equal times, reference counting would otherwise dominate.
    /// `instant` is consulted again only for digits beyond nanoseconds.
    static func order(count: Int, instant: (Int) -> Instant, key: (Int) -> String) -> [Int] {
        var records: [Record] = []
        records.reserveCapacity(count)
        var keyBytes: [UInt8] = []
        keyBytes.reserveCapacity(count * 24)
        for index in 0..<count {
            let i = instant(index)
            let start = keyBytes.count
            keyBytes.append(contentsOf: key(index).utf8)
            records.append(Record(
                epochSeconds: i.epochSeconds, nanoseconds: i.nanoseconds,
                hasSubnanoseconds: !i.subnanosecondDigits.isEmpty,
                keyStart: Int32(truncatingIfNeeded: start), keyEnd: Int32(truncatingIfNeeded: keyBytes.count),
                index: Int32(truncatingIfNeeded: index)
            ))
        }
        keyBytes.withUnsafeBufferPointer { bytes in
            records.sort { a, b in
                if a.epochSeconds != b.epochSeconds { return a.epochSeconds > b.epochSeconds }
                if a.nanoseconds != b.nanoseconds { return a.nanoseconds > b.nanoseconds }
                if a.hasSubnanoseconds || b.hasSubnanoseconds {
                    let x = instant(Int(a.index)), y = instant(Int(b.index))
                    if x != y { return x > y }
                }
                let x = UnsafeBufferPointer(rebasing: bytes[Int(a.keyStart)..<Int(a.keyEnd)])
                let y = UnsafeBufferPointer(rebasing: bytes[Int(b.keyStart)..<Int(b.keyEnd)])
                return CodePoints.compareBytes(x, y) < 0
            }
        }
        return records.map { Int($0.index) }
    }

    struct Record {
        let epochSeconds: Int64
        let nanoseconds: Int32
        let hasSubnanoseconds: Bool
        let keyStart: Int32
        let keyEnd: Int32
        let index: Int32
    }
}
