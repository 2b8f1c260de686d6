/// A range of a compose request's bytes (`ComposeRequest.bytes`), or an
/// absent field (`absent`). Eight bytes, trivially copyable.
package struct TextRange: Hashable, Sendable {
    /// The first byte; negative for `absent`.
    package let start: Int32
    package let count: Int32

    @inlinable
    package init(start: Int, count: Int) {
        self.start = Int32(truncatingIfNeeded: start)
        self.count = Int32(truncatingIfNeeded: count)
    }

    @usableFromInline
    init(absentMarker: ()) {
        start = -1
        count = 0
    }

    // Computed, not stored: a static `let` is a lazily initialised global,
    // and every use of it would check that it was.
    /// A field that is not there (or is JSON `null`).
    @inlinable
    package static var absent: TextRange { TextRange(absentMarker: ()) }
    /// A present, empty text.
    @inlinable
    package static var empty: TextRange { TextRange(start: 0, count: 0) }

    @inlinable
    package var isAbsent: Bool { start < 0 }
    /// Just past the last byte.
    @inlinable
    package var end: Int { Int(start) + Int(count) }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// The bytes at `range`; `nil` for an absent range.
    @inline(__always)
    package subscript(range: TextRange) -> UnsafeBufferPointer<UInt8>? {
        guard !range.isAbsent else { return nil }
        return UnsafeBufferPointer(rebasing: self[Int(range.start)..<range.end])
    }

    /// The bytes at `range` of a present field.
    @inline(__always)
    package subscript(present range: TextRange) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: self[Int(range.start)..<range.end])
    }
}

/// An instant, as `Instant`, whose fractional digits beyond nanoseconds
/// (rare) are a range of the request's bytes: trivially copyable, so sorting
/// and comparing moments never touches a reference count.
package struct Moment: Sendable {
    package let epochSeconds: Int64
    /// The first nine fractional digits, 0..<1_000_000_000.
    package let nanoseconds: Int32
    /// The digits after the ninth without trailing zeros; empty for nearly
    /// every real timestamp.
    package let extraDigits: TextRange

    package init(epochSeconds: Int64, nanoseconds: Int32, extraDigits: TextRange) {
        self.epochSeconds = epochSeconds
        self.nanoseconds = nanoseconds
        self.extraDigits = extraDigits
    }

    /// This moment shifted by whole seconds (fractions unchanged).
    func adding(seconds: Int64) -> Moment {
        Moment(epochSeconds: epochSeconds + seconds, nanoseconds: nanoseconds, extraDigits: extraDigits)
    }

    /// Whether `a` is before `b`; `bytes` holds their extra digits.
    @inline(__always)
    static func less(_ a: Moment, _ b: Moment, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if a.epochSeconds != b.epochSeconds { return a.epochSeconds < b.epochSeconds }
        if a.nanoseconds != b.nanoseconds { return a.nanoseconds < b.nanoseconds }
        return extraLess(a, b, in: bytes)
    }

    /// `less` for moments with equal whole nanoseconds: digit strings of this
    /// shape (no trailing zeros) compare byte-wise as the fractions they denote.
    static func extraLess(_ a: Moment, _ b: Moment, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if a.extraDigits.count == 0 { return b.extraDigits.count != 0 }
        if b.extraDigits.count == 0 { return false }
        return CodePoints.compareBytes(bytes[present: a.extraDigits], bytes[present: b.extraDigits]) < 0
    }
}
