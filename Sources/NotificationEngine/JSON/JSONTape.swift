/// A JSON text that `JSONParser` accepted, laid out flat: one entry per value
/// and per member name, in document order, each pointing into the text.
///
/// Decoders read the fields they need straight from it and skip the rest,
/// so a request costs one pass over its bytes, one block of entries and the
/// `String`s of the fields kept: no tree of values, no `String` per name.
///
/// Layout: an object's entry is followed by its members, each a name entry
/// (a string) and then its value's entries; an array's by its elements.
/// Every entry knows the index just past its value, so any value is skipped
/// in one step.
package struct JSONTape {
    package enum Kind: UInt8, Sendable {
        case null, `false`, `true`, number, string, array, object
    }

    package struct Entry: Sendable {
        package var kind: Kind
        /// A string with escapes; a number written as an integer (`-?digits`).
        var flag: Bool
        /// Strings: the first byte after the opening quote; other values: their first byte.
        var start: UInt32
        /// Strings: the closing quote; numbers and literals: just past their
        /// last byte; arrays and objects: their number of elements or members.
        var end: UInt32
        /// The index of the entry after this value and everything in it.
        var next: UInt32
    }

    /// The JSON text.
    let bytes: [UInt8]
    /// The entries; `storage` owns them, so they live as long as this value.
    let entries: UnsafeBufferPointer<Entry>
    private let storage: Storage

    /// Takes ownership of `count` initialised entries at `entries`.
    init(bytes: [UInt8], entries: UnsafeMutablePointer<Entry>, count: Int) {
        self.bytes = bytes
        self.entries = UnsafeBufferPointer(start: entries, count: count)
        self.storage = Storage(entries: entries)
    }

    /// The entries, in memory of their own: an `Array` made with
    /// `init(unsafeUninitializedCapacity:)` looked up its storage type's
    /// metadata at run time on every request.
    private final class Storage {
        let entries: UnsafeMutablePointer<Entry>

        init(entries: UnsafeMutablePointer<Entry>) {
            self.entries = entries
        }

        deinit { entries.deallocate() }
    }

    /// The top-level value.
    package static let root = 0

    // MARK: Reading

    @inline(__always)
    package func kind(_ index: Int) -> Kind { entries[index].kind }

    /// The JSON type name used in error details ("string", "object", …).
    package func typeName(_ index: Int) -> String {
        switch entries[index].kind {
        case .null: "null"
        case .false, .true: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The number of elements of an array or members of an object.
    package func count(_ index: Int) -> Int {
        let entry = entries[index]
        precondition(entry.kind == .array || entry.kind == .object, "count of a scalar")
        return Int(entry.end)
    }

    /// The members of the object at `index` as (name entry, value entry) pairs, in document order.
    package func members(_ index: Int) -> Members {
        precondition(entries[index].kind == .object, "members of a non-object")
        // Each member is skipped through its value, the entry after its name.
        return Members(
            names: Elements(entries: entries, first: index + 1, count: Int(entries[index].end), skipOffset: 1))
    }

    /// The element entries of the array at `index`, in document order.
    package func elements(_ index: Int) -> Elements {
        precondition(entries[index].kind == .array, "elements of a non-array")
        return Elements(entries: entries, first: index + 1, count: Int(entries[index].end), skipOffset: 0)
    }

    /// Iterates over the tape's entries without holding the tape: use it
    /// while the tape is alive (as every decoder does, within one call).
    package struct Elements: Sequence {
        let entries: UnsafeBufferPointer<Entry>
        let first: Int
        let count: Int
        /// Where, from an item, the entry whose `next` passes the item is.
        let skipOffset: Int

        package struct Iterator: IteratorProtocol {
            let entries: UnsafeBufferPointer<Entry>
            let skipOffset: Int
            var position: Int
            var remaining: Int

            package mutating func next() -> Int? {
                guard remaining > 0 else { return nil }
                remaining -= 1
                let item = position
                position = Int(entries[item + skipOffset].next)
                return item
            }
        }

        package func makeIterator() -> Iterator {
            Iterator(entries: entries, skipOffset: skipOffset, position: first, remaining: count)
        }
    }

    /// An object's members: the name entries, each followed by its value's.
    package struct Members: Sequence {
        let names: Elements

        package struct Iterator: IteratorProtocol {
            var names: Elements.Iterator

            package mutating func next() -> (name: Int, value: Int)? {
                guard let name = names.next() else { return nil }
                return (name, name + 1)
            }
        }

        package func makeIterator() -> Iterator { Iterator(names: names.makeIterator()) }
    }

    /// Whether the string at `index` (a member name) is exactly `name`.
    /// `name` is plain ASCII without characters JSON escapes.
    @inline(__always)
    package func isName(_ index: Int, _ name: StaticString) -> Bool {
        let entry = entries[index]
        let length = name.utf8CodeUnitCount
        if entry.flag {
            return withStringBytes(index) {
                $0.count == length
                    && CodePoints.equalBytes($0, UnsafeBufferPointer(start: name.utf8Start, count: length))
            }
        }
        guard Int(entry.end - entry.start) == length else { return false }
        return bytes.withUnsafeBufferPointer {
            CodePoints.equalBytes(
                UnsafeBufferPointer(start: $0.baseAddress! + Int(entry.start), count: length),
                UnsafeBufferPointer(start: name.utf8Start, count: length))
        }
    }

    /// The string at `index`, decoded.
    package func string(_ index: Int) -> String {
        withStringBytes(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the decoded UTF-8 of the string at `index`: the
    /// text's own bytes when it has no escapes, a decoded copy otherwise.
    /// The bytes are well-formed UTF-8 and valid only during `body`.
    package func withStringBytes<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let entry = entries[index]
        precondition(entry.kind == .string, "string bytes of a non-string")
        return bytes.withUnsafeBufferPointer { text in
            let raw = UnsafeBufferPointer(rebasing: text[Int(entry.start)..<Int(entry.end)])
            guard entry.flag else { return body(raw) }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count) { output in
                // Cannot fail: the parser decoded these escapes before.
                let count = (try? JSONParser.unescape(raw, baseOffset: Int(entry.start), into: output)) ?? 0
                return body(UnsafeBufferPointer(rebasing: output[0..<count]))
            }
        }
    }

    /// `withStringBytes` of the first scalars of the string at `index`
    /// only: at least `minimumCount` bytes of their UTF-8, ending on a
    /// scalar boundary (all of it when the string is shorter), whatever the
    /// length of the rest, which is neither decoded nor copied.
    package func withStringBytes<Result>(
        _ index: Int, prefixOfAtLeast minimumCount: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        let entry = entries[index]
        precondition(entry.kind == .string, "string bytes of a non-string")
        // A scalar cut at the limit ends within 3 bytes after it.
        let limit = minimumCount + 3
        return bytes.withUnsafeBufferPointer { text in
            let raw = UnsafeBufferPointer(rebasing: text[Int(entry.start)..<Int(entry.end)])
            guard entry.flag else {
                return body(
                    raw.count <= limit ? raw : UnsafeBufferPointer(rebasing: raw[0..<Self.wholeScalars(raw, limit)]))
            }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: min(raw.count, limit + 16)) { output in
                // Cannot fail: the parser checked these escapes.
                let count =
                    (try? JSONParser.unescape(raw, baseOffset: Int(entry.start), into: output, limit: limit)) ?? 0
                let decoded = UnsafeBufferPointer(output)
                return body(UnsafeBufferPointer(rebasing: decoded[0..<Self.wholeScalars(decoded, count)]))
            }
        }
    }

    /// The length of the longest run of whole scalars that starts the
    /// first `count` bytes of the UTF-8 `bytes`.
    private static func wholeScalars(_ bytes: UnsafeBufferPointer<UInt8>, _ count: Int) -> Int {
        guard count > 0 else { return 0 }
        var lead = count - 1
        while lead > 0 && bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
        return lead + ASCII.sequenceLength(leadByte: bytes[lead]) <= count ? count : lead
    }

    /// The number at `index` exactly as written.
    package func lexeme(_ index: Int) -> String {
        let entry = entries[index]
        precondition(entry.kind == .number, "lexeme of a non-number")
        return bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[Int(entry.start)..<Int(entry.end)]), as: UTF8.self)
        }
    }

    /// Whether the number at `index` is written as an integer (`-?digits`), even one too large for `Int`.
    package func isIntegerLexeme(_ index: Int) -> Bool {
        entries[index].kind == .number && entries[index].flag
    }

    /// The value of the number at `index` when it is written as an integer
    /// that fits in `Int`; nil otherwise (so `256.0` and `2.56e2` are not integers).
    package func integerValue(_ index: Int) -> Int? {
        let entry = entries[index]
        guard entry.kind == .number, entry.flag else { return nil }
        return bytes.withUnsafeBufferPointer { text -> Int? in
            var position = Int(entry.start)
            let end = Int(entry.end)
            let negative = text[position] == UInt8(ascii: "-")
            if negative { position += 1 }
            // Accumulate negatively so Int.min parses; overflow means no value.
            var value = 0
            while position < end {
                let (times10, o1) = value.multipliedReportingOverflow(by: 10)
                let (next, o2) = times10.subtractingReportingOverflow(Int(text[position] &- UInt8(ascii: "0")))
                if o1 || o2 { return nil }
                value = next
                position += 1
            }
            if negative { return value }
            return value == Int.min ? nil : -value
        }
    }

    // MARK: Names, for the parser's duplicate check

    /// The decoded bytes of a string entry of `text`.
    static func decodedBytes(_ entry: Entry, in text: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let raw = UnsafeBufferPointer(rebasing: text[Int(entry.start)..<Int(entry.end)])
        guard entry.flag else { return Array(raw) }
        return [UInt8](unsafeUninitializedCapacity: raw.count) { output, count in
            count = (try? JSONParser.unescape(raw, baseOffset: Int(entry.start), into: output)) ?? 0
        }
    }

    /// A cheap hash of a name's decoded bytes (its length and its first and
    /// last bytes): equal names have equal fingerprints.
    @inline(__always)
    static func fingerprint(_ entry: Entry, in text: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard !entry.flag else { return escapedFingerprint(entry, in: text) }
        // An empty name reads its own two quotes (inside the text), so ""
        // always gets the same value, without a branch for it.
        let start = Int(entry.start)
        let end = Int(entry.end)
        return UInt64(truncatingIfNeeded: end &- start) &* 31 &+ UInt64(text[start]) &* 7 &+ UInt64(text[end &- 1])
    }

    @inline(never)
    private static func escapedFingerprint(_ entry: Entry, in text: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let name = decodedBytes(entry, in: text)
        return UInt64(name.count) &* 31 &+ UInt64(name.first ?? 0) &* 7 &+ UInt64(name.last ?? 0)
    }

    /// Whether two string entries of `text` decode to the same code points.
    static func sameName(_ a: Entry, _ b: Entry, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        if !a.flag && !b.flag {
            let count = Int(a.end - a.start)
            guard count == Int(b.end - b.start) else { return false }
            return count == 0
                || CodePoints.equalBytes(
                    UnsafeBufferPointer(start: text.baseAddress! + Int(a.start), count: count),
                    UnsafeBufferPointer(start: text.baseAddress! + Int(b.start), count: count))
        }
        return decodedBytes(a, in: text) == decodedBytes(b, in: text)
    }
}
