import EnginePrimitives

/// Writes compact JSON (RFC 8259) straight into the array it returns: the one
/// writer of every JSON the service produces (replies, problems, the access log).
///
/// The caller writes punctuation and member names as literals
/// (`#"{"kind":"#`, `true`) and values with `string`, `integer` and `null`.
/// Strings are escaped minimally (`"`, `\` and controls below U+0020, with the
/// short forms `\n`, `\t`, … where JSON has them); everything else, non-ASCII
/// included, is copied as UTF-8, runs without escapes in one go.
///
/// `bytes(capacity:_:)` allocates the array once: the writer stores into it
/// without growing or checking uniqueness, and past its end only counts, so
/// an estimate that was too small costs one more run into an array of exactly
/// the right size.
package struct JSONWriter {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// The bytes written, or (past `capacity`) that would have been.
    package private(set) var count = 0

    private init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        // An empty buffer may have no address; nothing is stored then.
        base = buffer.baseAddress ?? UnsafeMutablePointer(bitPattern: 1)!
        capacity = buffer.count
    }

    /// The bytes `write` produces: up to `maxStackBytes` written on the stack
    /// and copied into an array of their size; otherwise in an array of
    /// `capacity` bytes, or, when they need more, of exactly their size
    /// (`write` then runs once more).
    /// - Important: `write` must produce the same bytes each time it runs.
    package static func bytes(capacity: Int, _ write: (inout JSONWriter) -> Void) -> [UInt8] {
        // A short JSON goes to the stack first and is then copied into an
        // array of its size: `Array(unsafeUninitializedCapacity:)` looks up
        // its storage type's metadata at run time, which costs more than
        // copying a few hundred bytes.
        if capacity <= maxStackBytes {
            let copied = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxStackBytes) {
                buffer -> [UInt8]? in
                let count = Self.write(into: buffer, write)
                return count <= buffer.count ? Array(UnsafeBufferPointer(rebasing: buffer[..<count])) : nil
            }
            if let copied { return copied }
        }
        var needed = 0
        // Never 0: Array(unsafeUninitializedCapacity: 0) stores its count into
        // the shared empty-array singleton, a write other threads race with.
        let estimated = [UInt8](unsafeUninitializedCapacity: max(capacity, 1)) { buffer, initializedCount in
            var writer = JSONWriter(buffer)
            write(&writer)
            needed = writer.count
            initializedCount = writer.count <= buffer.count ? writer.count : 0
        }
        if needed <= max(capacity, 1) { return estimated }
        return [UInt8](unsafeUninitializedCapacity: needed) { buffer, initializedCount in
            var writer = JSONWriter(buffer)
            write(&writer)
            // A different count would be a bug in `write`.
            precondition(writer.count == needed, "JSON written twice differently")
            initializedCount = needed
        }
    }

    /// Writes into `buffer` and returns how many bytes `write` produced; when
    /// that is more than `buffer.count`, what is stored is not the JSON.
    package static func write(into buffer: UnsafeMutableBufferPointer<UInt8>, _ write: (inout JSONWriter) -> Void)
        -> Int
    {
        var writer = JSONWriter(buffer)
        write(&writer)
        return writer.count
    }

    /// The longest JSON `bytes(capacity:_:)` writes on the stack first.
    /// (Computed: a static `let` would be a lazily initialised global, checked on every use.)
    static var maxStackBytes: Int { 1_024 }

    // MARK: Values

    /// Bytes that are already JSON (punctuation, member names, fixed values).
    @inline(__always)
    package mutating func raw(_ text: StaticString) {
        copy(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Bytes that are already JSON, such as ASCII digits made elsewhere.
    @inline(__always)
    package mutating func raw(_ bytes: UnsafeBufferPointer<UInt8>) {
        copy(bytes)
    }

    /// The bytes written at `range` again (a piece the JSON repeats), or
    /// only counted when they were (past `capacity`).
    package mutating func rawAgain(_ range: Range<Int>) {
        guard range.upperBound <= capacity else { return count &+= range.count }
        copy(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
    }

    /// The well-formed UTF-8 `utf8` as a quoted, escaped JSON string.
    @inline(__always)
    package mutating func string(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard !storeIfPlain(utf8, quoted: true) else { return }
        byte(UInt8(ascii: "\""))
        escapeEach(utf8)
        byte(UInt8(ascii: "\""))
    }

    /// `value` as a quoted, escaped JSON string.
    @inline(__always)
    package mutating func string(_ value: String) {
        // A native string's UTF-8 in place; a bridged one's copied.
        if value.utf8.withContiguousStorageIfAvailable({ string($0) }) != nil { return }
        Array(value.utf8).withUnsafeBufferPointer { string($0) }
    }

    /// The bytes of four words, in memory order, as a quoted, escaped JSON
    /// string: 32 bytes held inline, as a generated `X-Request-Id` is
    /// (the access log's; docs/adr/0053).
    package mutating func string(words: (UInt64, UInt64, UInt64, UInt64)) {
        var words = words
        withUnsafeBytes(of: &words) { string($0.bindMemory(to: UInt8.self)) }
    }

    /// A quoted string, or `null` when there is none.
    package mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    /// The inside of a JSON string: `utf8` (well-formed UTF-8) escaped, without quotes.
    @inline(__always)
    package mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        if !storeIfPlain(utf8, quoted: false) { escapeEach(utf8) }
    }

    package mutating func integer(_ value: Int) {
        // Statuses, counts and units are mostly below 1000: their digits directly.
        if UInt(bitPattern: value) < 1_000 {
            if value >= 100 { byte(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 100)) }
            if value >= 10 { byte(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10 % 10)) }
            byte(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
            return
        }
        integer(Int64(value))
    }

    /// An integer that may not fit a 32-bit `Int` (the WebAssembly build's):
    /// Unix seconds and milliseconds.
    package mutating func integer(_ value: Int64) {
        // A TTL or a badge: the short path.
        if UInt64(bitPattern: value) < 1_000 { return integer(Int(truncatingIfNeeded: value)) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            let start = Self.decimal(value, into: digits, end: 20)
            copy(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Writes `value` in decimal (a `-` first when negative) so that it ends
    /// at `end` of `buffer`; where it starts. At most 20 bytes: Int64.min has
    /// 19 digits and a sign.
    package static func decimal(_ value: Int64, into buffer: UnsafeMutableBufferPointer<UInt8>, end: Int) -> Int {
        var magnitude = value.magnitude
        var start = end
        repeat {
            start -= 1
            buffer[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        if value < 0 {
            start -= 1
            buffer[start] = UInt8(ascii: "-")
        }
        return start
    }

    package mutating func null() {
        raw("null")
    }

    // MARK: Writing where room was made

    /// Whether `byteCount` more bytes fit in the array written into (past its
    /// end the writer only counts). A caller that writes a record of known
    /// length asks once, then writes its parts with the `InRoom` methods.
    @inline(__always)
    package func hasRoom(for byteCount: Int) -> Bool {
        byteCount <= capacity &- count
    }

    /// `raw(_:)` of bytes that `hasRoom(for:)` made room for.
    @inline(__always)
    package mutating func rawInRoom(_ text: StaticString) {
        assert(hasRoom(for: text.utf8CodeUnitCount), "no room was made")
        store(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `raw(_:)` of bytes that `hasRoom(for:)` made room for.
    @inline(__always)
    package mutating func rawInRoom(_ bytes: UnsafeBufferPointer<UInt8>) {
        assert(hasRoom(for: bytes.count), "no room was made")
        store(bytes)
    }

    // MARK: Storing

    @inline(__always)
    private mutating func byte(_ value: UInt8) {
        if count < capacity { base[count] = value }
        count &+= 1
    }

    @inline(__always)
    private mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.count <= capacity &- count {
            store(bytes)
        } else {
            count &+= bytes.count
        }
    }

    /// Stores `bytes` at `count`, which room was made for, and counts them.
    @inline(__always)
    private mutating func store(_ bytes: UnsafeBufferPointer<UInt8>) {
        let length = bytes.count
        defer { count &+= length }
        guard let source = bytes.baseAddress else { return }
        let target = base + count
        // Most strings here are short: two overlapping word moves beat a memcpy call.
        switch length {
        case 17...32:
            // A timestamp or a longer key: the first 16 bytes and the last 16, overlapping.
            let (head, tail) = (UnsafeRawPointer(source), UnsafeRawPointer(source + length - 16))
            let (h0, h1) = (head.loadUnaligned(as: UInt64.self), head.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            let (t0, t1) = (tail.loadUnaligned(as: UInt64.self), tail.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            UnsafeMutableRawPointer(target).storeBytes(of: h0, as: UInt64.self)
            UnsafeMutableRawPointer(target).storeBytes(of: h1, toByteOffset: 8, as: UInt64.self)
            UnsafeMutableRawPointer(target + length - 16).storeBytes(of: t0, as: UInt64.self)
            UnsafeMutableRawPointer(target + length - 16).storeBytes(of: t1, toByteOffset: 8, as: UInt64.self)
        case 8...16:
            UnsafeMutableRawPointer(target).storeBytes(
                of: UnsafeRawPointer(source).loadUnaligned(as: UInt64.self), as: UInt64.self)
            UnsafeMutableRawPointer(target + length - 8).storeBytes(
                of: UnsafeRawPointer(source + length - 8).loadUnaligned(as: UInt64.self), as: UInt64.self)
        case 4..<8:
            UnsafeMutableRawPointer(target).storeBytes(
                of: UnsafeRawPointer(source).loadUnaligned(as: UInt32.self), as: UInt32.self)
            UnsafeMutableRawPointer(target + length - 4).storeBytes(
                of: UnsafeRawPointer(source + length - 4).loadUnaligned(as: UInt32.self), as: UInt32.self)
        case 0..<4:
            for offset in 0..<length { target[offset] = source[offset] }
        default:
            UnsafeMutableRawPointer(target).copyMemory(from: source, byteCount: length)  // memcpy, as BodyRenderer's
        }
    }

    /// Stores `utf8` (between quotes when `quoted`) when none of its bytes
    /// needs an escape, testing each word as it is moved, so the bytes are
    /// read once; false, with nothing counted, when one does.
    @inline(__always)
    private mutating func storeIfPlain(_ utf8: UnsafeBufferPointer<UInt8>, quoted: Bool) -> Bool {
        let length = utf8.count
        let quotes = quoted ? 2 : 0
        guard length >= 4, length &+ quotes <= capacity &- count, let source = UnsafeRawPointer(utf8.baseAddress)
        else {
            // Short, or past the end (only counting): test first, then copy.
            guard Self.needsNoEscape(utf8) else { return false }
            if quoted { byte(UInt8(ascii: "\"")) }
            copy(utf8)
            if quoted { byte(UInt8(ascii: "\"")) }
            return true
        }
        // Bytes stored before an escape turns up are overwritten by `escapeEach`.
        let target = UnsafeMutableRawPointer(base + count + (quoted ? 1 : 0))
        var escapes: UInt64
        if length < 8 {
            let low = source.loadUnaligned(as: UInt32.self)
            let high = source.loadUnaligned(fromByteOffset: length &- 4, as: UInt32.self)
            target.storeBytes(of: low, as: UInt32.self)
            target.storeBytes(of: high, toByteOffset: length &- 4, as: UInt32.self)
            escapes = JSONByteClass.escapeMask(UInt64(low) | UInt64(high) &<< 32)
        } else {
            // Whole words, the last one overlapping the one before it.
            let last = source.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)
            escapes = JSONByteClass.escapeMask(last)
            var offset = 0
            while offset &+ 8 < length {
                let word = source.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                target.storeBytes(of: word, toByteOffset: offset, as: UInt64.self)
                escapes |= JSONByteClass.escapeMask(word)
                offset &+= 8
            }
            target.storeBytes(of: last, toByteOffset: length &- 8, as: UInt64.self)
        }
        guard escapes == 0 else { return false }
        if quoted {
            target.storeBytes(of: UInt8(ascii: "\""), toByteOffset: -1, as: UInt8.self)
            target.storeBytes(of: UInt8(ascii: "\""), toByteOffset: length, as: UInt8.self)
        }
        count &+= length &+ quotes
        return true
    }

    // MARK: Escaping

    /// The escaper: runs without escapes are found 16 bytes at a time and
    /// copied whole; each byte that needs one is written in its short form,
    /// or as `\u00XX`.
    private mutating func escapeEach(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard let source = utf8.baseAddress else { return }
        let end = utf8.count
        var runStart = 0
        var index = 0
        while index < end {
            while end &- index >= 16 {
                let plain = JSONByteClass.firstEscapeIndex(in16: UnsafeRawPointer(source + index))
                index &+= plain
                if plain < 16 { break }
            }
            guard index < end else { break }
            let value = source[index]
            let short: UInt8
            switch value {
            case UInt8(ascii: "\""): short = UInt8(ascii: "\"")
            case UInt8(ascii: "\\"): short = UInt8(ascii: "\\")
            case 0x0A: short = UInt8(ascii: "n")
            case 0x0D: short = UInt8(ascii: "r")
            case 0x09: short = UInt8(ascii: "t")
            case 0x08: short = UInt8(ascii: "b")
            case 0x0C: short = UInt8(ascii: "f")
            case 0..<0x20: short = 0
            default:
                index &+= 1
                continue
            }
            copy(UnsafeBufferPointer(start: source + runStart, count: index &- runStart))
            byte(UInt8(ascii: "\\"))
            if short != 0 {
                byte(short)
            } else {
                let digits: StaticString = "0123456789abcdef"
                raw("u00")
                byte(digits.utf8Start[Int(value >> 4)])
                byte(digits.utf8Start[Int(value & 0xF)])
            }
            index &+= 1
            runStart = index
        }
        copy(UnsafeBufferPointer(start: source + runStart, count: end &- runStart))
    }

    /// Whether no byte of `utf8` needs escaping: a word at a time, the last
    /// (partial) word read overlapping the one before it.
    @inline(__always)
    package static func needsNoEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = utf8.count
        guard count >= 4, let base = UnsafeRawPointer(utf8.baseAddress) else {
            for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            return true
        }
        if count < 8 {
            let low = UInt64(base.loadUnaligned(as: UInt32.self))
            let high = UInt64(base.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
            return JSONByteClass.escapeMask(low | high &<< 32) == 0
        }
        if count <= 16 {
            // Most keys: two words, overlapping, tested as one vector.
            let low = base.loadUnaligned(as: UInt64.self)
            let high = base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            return !hasEscape(unsafeBitCast((low, high), to: SIMD16<UInt8>.self))
        }
        var escapes = JSONByteClass.escapeMask(base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
        var offset = 0
        while offset &+ 8 < count {
            escapes |= JSONByteClass.escapeMask(base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset &+= 8
        }
        return escapes == 0
    }

    /// Whether any of `bytes` is below 0x20, a quote or a backslash:
    /// `JSONByteClass.escapeLanes`, each byte in its own lane,
    /// without finding which.
    @inline(__always)
    private static func hasEscape(_ bytes: SIMD16<UInt8>) -> Bool {
        LaneBits.anyHighLane(JSONByteClass.escapeLanes(bytes))
    }

    // MARK: Messages

    /// A string quoted for an error message: JSON-escaped and cut to at most
    /// 64 characters, so a hostile name cannot blow up a problem detail.
    package static func quotedForMessage(_ value: String) -> String {
        let maxCharacters = 64
        var shown = value
        if value.prefix(maxCharacters + 1).count > maxCharacters {
            shown = String(value.prefix(maxCharacters)) + "…"
        }
        return String(decoding: bytes(capacity: shown.utf8.count + 8) { $0.string(shown) }, as: UTF8.self)
    }
}
