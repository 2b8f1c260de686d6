/// Exact string comparison by Unicode code points, as JSON and every other
/// platform compare strings.
///
/// Swift's `String` `==`, `<` and hashing follow canonical equivalence (`"é"`
/// equals `"e\u{301}"`, and U+2126 OHM SIGN sorts as U+03A9), so keys, ids
/// and threads are compared here through their UTF-8 bytes instead: UTF-8
/// byte order is code-point order.
public enum CodePoints {
    /// Whether `a` and `b` are the same sequence of code points.
    public static func equal(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && compare(a, b) == 0
    }

    /// Whether `a` sorts before `b` in ascending code-point order.
    public static func less(_ a: String, _ b: String) -> Bool {
        compare(a, b) < 0
    }

    /// Negative, zero or positive as `a` sorts before, equal to, or after `b`.
    public static func compare(_ a: String, _ b: String) -> Int {
        // Native strings are contiguous UTF-8: compare the bytes directly.
        let fast = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in compareBytes(x, y) }
        }
        if let fast, let result = fast { return result }
        return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : (a.utf8.elementsEqual(b.utf8) ? 0 : 1)
    }

    static func compareBytes(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(x.count, y.count)
        var i = 0
        while i < common {
            if x[i] != y[i] { return Int(x[i]) - Int(y[i]) }
            i += 1
        }
        return x.count - y.count
    }
}

/// A string hashed and compared by its code points, for Set and Dictionary keys.
struct ExactString: Hashable {
    let value: String

    init(_ value: String) { self.value = value }

    static func == (lhs: ExactString, rhs: ExactString) -> Bool {
        CodePoints.equal(lhs.value, rhs.value)
    }

    func hash(into hasher: inout Hasher) {
        let hashed: Void? = value.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil {
            for byte in value.utf8 { hasher.combine(byte) }
        }
    }
}
