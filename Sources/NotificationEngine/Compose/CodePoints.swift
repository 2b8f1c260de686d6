/// Exact string comparison by Unicode code points, as JSON and every other
/// platform compare strings.
///
/// Swift's `String` `==`, `<` and hashing follow canonical equivalence (`"é"`
/// equals `"e\u{301}"`, and U+2126 OHM SIGN sorts as U+03A9), so keys, ids
/// and threads are compared here through their UTF-8 bytes instead: UTF-8
/// byte order is code-point order.
package enum CodePoints {
    /// Whether `a` and `b` are the same sequence of code points.
    package static func equal(_ a: String, _ b: String) -> Bool {
        let fast = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in equalBytes(x, y) }
        }
        if let fast, let result = fast { return result }
        return a.utf8.elementsEqual(b.utf8)
    }

    /// Whether `scalar` is a control character: general category Cc, the C0
    /// controls, DEL and the C1 controls (a set Unicode's stability policy
    /// never changes), tested by code point so that no category table is
    /// linked in (the WebAssembly modules' size, ADR 0041).
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Whether `a` sorts before `b` in ascending code-point order.
    package static func less(_ a: String, _ b: String) -> Bool {
        compare(a, b) < 0
    }

    /// Negative, zero or positive as `a` sorts before, equal to, or after `b`.
    package static func compare(_ a: String, _ b: String) -> Int {
        // Native strings are contiguous UTF-8: compare the bytes directly.
        let fast = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in compareBytes(x, y) }
        }
        if let fast, let result = fast { return result }
        return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : (a.utf8.elementsEqual(b.utf8) ? 0 : 1)
    }

    /// Whether two UTF-8 texts are the same bytes. Keys, ids and names are
    /// short: a word or two (the last one overlapping), no ordering work.
    /// Inlinable: the service compares member names with it on every request.
    @inlinable @inline(__always)
    package static func equalBytes(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        let count = x.count
        guard count == y.count else { return false }
        guard count > 0, let a = UnsafeRawPointer(x.baseAddress), let b = UnsafeRawPointer(y.baseAddress) else {
            return true
        }
        switch count {
        case 8...16:
            // The first word and the last, overlapping: the usual name or key.
            return a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
                && a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                    == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        case 17...:
            var offset = 0
            while offset + 8 < count {
                if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                {
                    return false
                }
                offset += 8
            }
            return a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        case 4..<8:
            return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
                && a.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                    == b.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        default:
            for offset in 0..<count where x[offset] != y[offset] { return false }
            return true
        }
    }

    static func compareBytes(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(x.count, y.count)
        var i = 0
        if let xBase = x.baseAddress, let yBase = y.baseAddress {
            // Eight bytes at a time: as big-endian integers, words order like their bytes.
            while i + 8 <= common {
                let a = UInt64(bigEndian: UnsafeRawPointer(xBase + i).loadUnaligned(as: UInt64.self))
                let b = UInt64(bigEndian: UnsafeRawPointer(yBase + i).loadUnaligned(as: UInt64.self))
                if a != b { return a < b ? -1 : 1 }
                i += 8
            }
        }
        while i < common {
            if x[i] != y[i] { return Int(x[i]) - Int(y[i]) }
            i += 1
        }
        return x.count - y.count
    }
}
