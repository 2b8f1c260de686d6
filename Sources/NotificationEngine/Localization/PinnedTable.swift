/// A generated table copied once into memory that lives as long as the
/// process, so that reading it retains and releases nothing: the formatter
/// and the catalog choice read these on every request.
struct PinnedTable<Element>: @unchecked Sendable {
    /// Never deallocated and never written after `init`.
    let elements: UnsafeBufferPointer<Element>

    init(_ array: [Element]) {
        let storage = UnsafeMutableBufferPointer<Element>.allocate(capacity: array.count)
        _ = storage.initialize(from: array)
        elements = UnsafeBufferPointer(storage)
    }
}

/// The generated tables, pinned.
enum Tables {
    static let likelyKeys = PinnedTable(CLDRLikelySubtags.keys)
    static let likelyValues = PinnedTable(CLDRLikelySubtags.values)
    static let parentKeys = PinnedTable(CLDRParentLocales.keys)
    static let parents = PinnedTable(CLDRParentLocales.parents)
    static let pluralLanguages = PinnedTable(CLDRPluralRules.languages)
    static let pluralExceptionKeys = PinnedTable(CLDRPluralRules.exceptionKeys)
    static let pluralExceptionRuleSets = PinnedTable(CLDRPluralRules.exceptionRuleSets)
    static let bidiRuns = PinnedTable(BidiStrongClasses.runs)
    /// The first code point whose class is R or AL: below it, no value
    /// needs isolating in an `ltr` catalog.
    static let firstRightToLeft: UInt32 = BidiStrongClasses.runs.first { $0 & 3 == 2 }.map { $0 >> 2 } ?? 0x110000
}

/// Binary search in the generated tables, which are sorted ascending.
enum SortedTable {
    /// The position of `key` in `table`, or `nil`.
    @inline(__always)
    static func index(of key: UInt64, in table: UnsafeBufferPointer<UInt64>) -> Int? {
        guard var base = table.baseAddress, table.count > 0 else { return nil }
        // Halves the range without a branch on the comparison (a conditional move).
        var count = table.count
        while count > 1 {
            let half = count / 2
            base = base[half] <= key ? base + half : base
            count -= half
        }
        return base.pointee == key ? table.baseAddress!.distance(to: base) : nil
    }
}
