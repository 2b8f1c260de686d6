/// The relay core's JSON writes, each one call: `JSONWriter`'s own are
/// `@inline(__always)` for the compose path's speed, and the core writes
/// a record's forty members once per answer: these and the byte-wise splits
/// and compares took 28 KB off its code in the WebAssembly module (ADR 0041).
extension JSONWriter {
    @inline(never)
    mutating func put(_ text: StaticString) { raw(text) }

    /// JSON text as it is.
    @inline(never)
    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) { raw(bytes) }

    /// JSON text as it is.
    @inline(never)
    mutating func put(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { put($0) } }

    @inline(never)
    mutating func putString(_ value: String) { string(value) }

    /// UTF-8 bytes as a JSON string.
    @inline(never)
    mutating func putString(_ utf8: UnsafeBufferPointer<UInt8>) { string(utf8) }

    @inline(never)
    mutating func putString(_ utf8: [UInt8]) { utf8.withUnsafeBufferPointer { putString($0) } }

    @inline(never)
    mutating func putInteger(_ value: Int) { integer(value) }

    @inline(never)
    mutating func putInteger(_ value: Int64) { integer(value) }

    /// `name` (the member's punctuation and quoted name, as `,"app":`)
    /// and the string, when there is one.
    @inline(never)
    mutating func putMember(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        put(name)
        putString(value)
    }

    /// `name` and the integer, when there is one.
    @inline(never)
    mutating func putMember(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        put(name)
        putInteger(value)
    }

    /// An integer, or `null` when there is none.
    @inline(never)
    mutating func integerOrNull(_ value: Int64?) {
        if let value { integer(value) } else { null() }
    }
}
