/// A strict RFC 8259 parser over bytes.
///
/// Promises:
/// - accepts exactly the JSON text grammar of RFC 8259 section 2 (any value at
///   the top, insignificant whitespace = space, tab, line feed, carriage
///   return), in well-formed UTF-8 (RFC 3629), and nothing else: no byte order
///   mark, no comments, no trailing commas, no NaN, no leading zeros;
/// - rejects a `\u` escape of a surrogate that is not half of a high–low pair
///   (`.loneSurrogate`), so every parsed string is valid Unicode;
/// - rejects an object with two members of the same name (`.duplicateName`):
///   RFC 8259 leaves their meaning open and parsers disagree (first or last
///   wins), so a shared oracle refuses to guess;
/// - nests arrays and objects at most `maxDepth` deep (`.nestingTooDeep`), so
///   the recursion is bounded and can never overflow the stack;
/// - never traps, whatever the bytes; every error has a byte offset.
///
/// A parser owns the tape it writes until a parse that succeeds hands it to
/// the `JSONTape` (`takeEntries()`); one that ends otherwise frees it.
package struct JSONParser: ~Copyable {
    /// Arrays and objects nested deeper than this are refused. A compose
    /// request needs 4 levels; 64 leaves room for any reasonable client.
    package static let defaultMaxDepth = 64

    /// Parses one complete JSON text into a flat tape, without a `String` or
    /// an array per value, so a decoder can read the fields it needs straight
    /// from the bytes.
    package static func tape(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONTape {
        // Offsets are stored in 32 bits; request bodies are limited far below.
        // (Compared as UInt64: `Int(UInt32.max)` traps where Int has 32 bits, as on wasm32.)
        guard UInt64(bytes.count) < UInt64(UInt32.max) else {
            throw JSONParseError(.syntax, offset: 0, "a JSON text of 4 GiB or more is not accepted")
        }
        // Requests hold about one entry per 10 bytes: the tape starts with
        // room for one per 8, which keeps a small request's tape in malloc's
        // per-thread cache, and doubles when a denser text needs more. Every
        // entry starts at a byte of its own, so it never outgrows n entries.
        let parsed = bytes.withUnsafeBufferPointer {
            buffer -> Result<(UnsafeMutablePointer<JSONTape.Entry>, Int), JSONParseError> in
            var parser = JSONParser(
                bytes: buffer, capacity: min(buffer.count + 1, buffer.count / 8 + 16), maxDepth: maxDepth)
            do throws(JSONParseError) {
                try parser.parseText()
                return .success(parser.takeEntries())
            } catch {
                return .failure(error)
            }
        }
        switch parsed {
        case .success(let (entries, count)):
            return JSONTape(bytes: bytes, entries: entries, count: count)
        case .failure(let error):
            throw error
        }
    }

    /// Parses the whole text into the tape.
    private mutating func parseText() throws(JSONParseError) {
        // Validating the whole text first gives invalid UTF-8 its own error
        // (with its offset) wherever it is, and lets string decoding below
        // rely on well-formed input.
        if let offset = UTF8Validation.firstInvalidOffset(bytes) {
            throw JSONParseError(.invalidUTF8, offset: offset, "invalid UTF-8 byte 0x\(hex2(bytes[offset]))")
        }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            throw JSONParseError(.syntax, offset: 0, "a byte order mark is not allowed")
        }
        try parseValue(depth: 0)
        if peek() != nil {
            throw syntaxError("unexpected \(describeCurrent()) after the end of the JSON value")
        }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maxDepth: Int
    private var index = 0
    /// The tape being written: `entryCount` entries, room for `capacity`.
    /// The tape takes ownership when the parse succeeds.
    private var entries: UnsafeMutablePointer<JSONTape.Entry>
    private var capacity: Int
    private var entryCount = 0
    /// False once the tape is handed over (`takeEntries`). A flag rather
    /// than `discard self`, which Embedded Swift allows only in `@frozen`
    /// types (the WebAssembly build, docs/wasm.md).
    private var ownsEntries = true

    private init(bytes: UnsafeBufferPointer<UInt8>, capacity: Int, maxDepth: Int) {
        self.bytes = bytes
        self.entries = .allocate(capacity: capacity)
        self.capacity = capacity
        self.maxDepth = maxDepth
    }

    /// Frees the tape of a parse that did not succeed.
    deinit {
        guard ownsEntries else { return }
        entries.deinitialize(count: entryCount)
        entries.deallocate()
    }

    /// The tape and its count, which the caller then owns.
    private consuming func takeEntries() -> (UnsafeMutablePointer<JSONTape.Entry>, Int) {
        ownsEntries = false
        return (entries, entryCount)
    }

    // MARK: Values

    /// Parses the value after any whitespace at `index`.
    @inline(__always)
    private mutating func parseValue(depth: Int) throws(JSONParseError) {
        // Strings inline: they are most of the values of a request.
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            try parseString()
        } else {
            try parseOtherValue(depth: depth)
        }
    }

    private mutating func parseOtherValue(depth: Int) throws(JSONParseError) {
        guard let byte = peek() else {
            throw syntaxError("unexpected end of input, expected a value")
        }
        switch byte {
        case UInt8(ascii: "\""):
            try parseString()
        case UInt8(ascii: "{"):
            try parseObject(depth: depth &+ 1)
        case UInt8(ascii: "["):
            try parseArray(depth: depth &+ 1)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            appendScalar(.true, start: index &- 4, end: index)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            appendScalar(.false, start: index &- 5, end: index)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            appendScalar(.null, start: index &- 4, end: index)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try parseNumber()
        default:
            throw syntaxError("unexpected \(describeCurrent()), expected a value")
        }
    }

    // Offsets and entry counts fit in 32 bits: `tape` refuses texts of
    // 4 GiB or more, and there are never more entries than bytes.
    @inline(__always)
    private mutating func appendScalar(_ kind: JSONTape.Kind, flag: Bool = false, start: Int, end: Int) {
        append(
            JSONTape.Entry(
                kind: kind, flag: flag, start: UInt32(truncatingIfNeeded: start),
                end: UInt32(truncatingIfNeeded: end), next: UInt32(truncatingIfNeeded: entryCount &+ 1)))
    }

    @inline(__always)
    private mutating func append(_ entry: JSONTape.Entry) {
        if entryCount == capacity { growEntries() }
        (entries + entryCount).initialize(to: entry)
        entryCount &+= 1
    }

    @inline(never)
    private mutating func growEntries() {
        let larger = UnsafeMutablePointer<JSONTape.Entry>.allocate(capacity: 2 * capacity)
        larger.moveInitialize(from: entries, count: entryCount)
        entries.deallocate()
        entries = larger
        capacity *= 2
    }

    /// Records the element or member count of the array or object at `entry`,
    /// and where its value ends, once it is closed.
    @inline(__always)
    private func close(_ entry: Int, count: Int) {
        entries[entry].end = UInt32(truncatingIfNeeded: count)
        entries[entry].next = UInt32(truncatingIfNeeded: entryCount)
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) {
        if depth > maxDepth {
            throw JSONParseError(
                .nestingTooDeep, offset: index, "arrays and objects nested deeper than \(maxDepth) levels")
        }
        let objectEntry = entryCount
        append(JSONTape.Entry(kind: .object, flag: false, start: UInt32(truncatingIfNeeded: index), end: 0, next: 0))
        index &+= 1  // {
        if peek() == UInt8(ascii: "}") {
            index &+= 1
            close(objectEntry, count: 0)
            return
        }
        var memberCount = 0
        // Small objects (every request object) check names by a linear scan
        // of the members before; large ones switch to a hashed set so a
        // hostile object stays linear. Names are compared by code points: "é"
        // and "e\u0301" are different names, "a" and "\u0061" the same.
        var names: MemberNameSet? = nil
        // One bit per name fingerprint seen in this object: a new name whose
        // bit is clear cannot repeat one, so most names skip the scan.
        var seenFingerprints: UInt64 = 0
        while true {
            guard let byte = peek() else {
                throw syntaxError("unexpected end of input, expected a member name")
            }
            guard byte == UInt8(ascii: "\"") else {
                throw syntaxError("unexpected \(describeCurrent()), expected a member name in double quotes")
            }
            let nameOffset = index
            let nameEntry = entryCount
            try parseString()
            let fingerprint: UInt64 = 1 &<< (JSONTape.fingerprint(entries[nameEntry], in: bytes) & 63)
            let mayRepeat = seenFingerprints & fingerprint != 0 || memberCount >= 16
            seenFingerprints |= fingerprint
            if mayRepeat, isDuplicateName(nameEntry, objectEntry: objectEntry, memberCount: memberCount, names: &names)
            {
                let name = JSONTape.decodedBytes(entries[nameEntry], in: bytes)
                throw JSONParseError(
                    .duplicateName, offset: nameOffset,
                    "duplicate member name \(JSONWriter.quotedForMessage(String(decoding: name, as: UTF8.self)))")
            }
            guard peek() == UInt8(ascii: ":") else {
                throw syntaxError(
                    index < bytes.count
                        ? "unexpected \(describeCurrent()), expected ':'" : "unexpected end of input, expected ':'")
            }
            index &+= 1
            try parseValue(depth: depth)
            memberCount &+= 1
            guard let next = peek() else {
                throw syntaxError("unexpected end of input, expected ',' or '}'")
            }
            if next == UInt8(ascii: ",") {
                index &+= 1
            } else if next == UInt8(ascii: "}") {
                index &+= 1
                close(objectEntry, count: memberCount)
                return
            } else {
                throw syntaxError("unexpected \(describeCurrent()), expected ',' or '}'")
            }
        }
    }

    /// Whether the name at `nameEntry` repeats one of the object's first `memberCount` names.
    private func isDuplicateName(
        _ nameEntry: Int, objectEntry: Int, memberCount: Int, names: inout MemberNameSet?
    ) -> Bool {
        if memberCount >= 16 {
            if names == nil {
                var set = MemberNameSet(capacity: 2 * memberCount)
                var member = objectEntry + 1
                for _ in 0..<memberCount {
                    _ = set.insert(member, of: entries, in: bytes)
                    member = Int(entries[member + 1].next)
                }
                names = set
            }
            return !names!.insert(nameEntry, of: entries, in: bytes)
        }
        let name = entries[nameEntry]
        var member = objectEntry + 1
        for _ in 0..<memberCount {
            if JSONTape.sameName(entries[member], name, in: bytes) { return true }
            member = Int(entries[member + 1].next)
        }
        return false
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) {
        if depth > maxDepth {
            throw JSONParseError(
                .nestingTooDeep, offset: index, "arrays and objects nested deeper than \(maxDepth) levels")
        }
        let arrayEntry = entryCount
        append(JSONTape.Entry(kind: .array, flag: false, start: UInt32(truncatingIfNeeded: index), end: 0, next: 0))
        index &+= 1  // [
        if peek() == UInt8(ascii: "]") {
            index &+= 1
            close(arrayEntry, count: 0)
            return
        }
        var elementCount = 0
        while true {
            try parseValue(depth: depth)
            elementCount &+= 1
            guard let next = peek() else {
                throw syntaxError("unexpected end of input, expected ',' or ']'")
            }
            if next == UInt8(ascii: ",") {
                index &+= 1
            } else if next == UInt8(ascii: "]") {
                index &+= 1
                close(arrayEntry, count: elementCount)
                return
            } else {
                throw syntaxError("unexpected \(describeCurrent()), expected ',' or ']'")
            }
        }
    }

    // MARK: Strings

    /// Parses a string starting at its opening quote into one entry: the
    /// bytes between the quotes, flagged when they hold escapes. Inlined,
    /// as strings are most of a request; escapes and errors go out of line.
    @inline(__always)
    private mutating func parseString() throws(JSONParseError) {
        let start = index &+ 1
        var doubtful = false
        switch JSONByteClass.stringEnd(in: bytes, from: start, checksEscapes: true, doubtful: &doubtful) {
        case .quote(let end, let hasEscape):
            if doubtful { try checkEscapes(start: start, end: end) }
            index = end &+ 1
            appendScalar(.string, flag: hasEscape, start: start, end: end)
        case .controlByte(let offset):
            throw controlByteError(at: offset)
        case .unterminated:
            throw JSONParseError(.syntax, offset: index, "unterminated string")
        }
    }

    /// Checks a string's escapes by decoding them into a scratch buffer, so
    /// the tape only ever holds strings that decode: for a string whose
    /// scan met an escape it did not vouch for, this finds what is wrong.
    @inline(never)
    private func checkEscapes(start: Int, end: Int) throws(JSONParseError) {
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
        _ = try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count) {
            (output) throws(JSONParseError) -> Int in
            try Self.unescape(raw, baseOffset: start, into: output)
        }
    }

    @inline(never)
    private func controlByteError(at offset: Int) -> JSONParseError {
        JSONParseError(
            .syntax, offset: offset, "control character \(describe(bytes[offset])) must be escaped in a string")
    }

    // MARK: Numbers and literals

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func parseNumber() throws(JSONParseError) {
        let start = index
        if bytes[index] == UInt8(ascii: "-") {
            index += 1
        }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw syntaxError(
                index < bytes.count
                    ? "unexpected \(describeCurrent()) in a number, expected a digit"
                    : "unexpected end of input in a number")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw syntaxError("a number must not have a leading zero")
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw syntaxError("a number needs a digit after the decimal point")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw syntaxError("a number needs a digit in its exponent")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        appendScalar(.number, flag: isInteger, start: start, end: index)
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = index
        for expected in UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount) {
            guard index < bytes.count, bytes[index] == expected else {
                index = start
                throw syntaxError("unexpected \(describeCurrent()), expected a value")
            }
            index += 1
        }
    }

    // MARK: Helpers

    /// Skips whitespace and returns the byte at `index`, nil at the end of the text.
    @inline(__always)
    private mutating func peek() -> UInt8? {
        // Compact JSON has none: one test and out.
        if index < bytes.count, bytes[index] > 0x20 { return bytes[index] }
        skipWhitespace()
        return index < bytes.count ? bytes[index] : nil
    }

    @inline(never)
    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index &+= 1
            default: return
            }
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    @inline(never)
    private func syntaxError(_ message: String) -> JSONParseError {
        JSONParseError(.syntax, offset: index, message)
    }

    @inline(never)
    private func describeCurrent() -> String {
        index < bytes.count ? describe(bytes[index]) : "end of input"
    }

    private func describe(_ byte: UInt8) -> String {
        Self.describe(byte)
    }

    /// A byte named for an error message: 'x' for visible ASCII, else 0xNN.
    static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(hex2(byte))"
    }
}

/// Two upper-case hexadecimal digits.
func hex2(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF".utf8)
    return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
}
