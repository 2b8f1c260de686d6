/// Writes compact JSON (RFC 8259) into one growing byte buffer.
///
/// Strings are escaped minimally (`"`, `\` and controls below U+0020, with the
/// short forms `\n`, `\t`, … where JSON has them); everything else, including
/// non-ASCII, is copied as UTF-8. Runs of bytes that need no escape are copied
/// in one go, so writing allocates only when the buffer grows.
///
/// The writer places commas itself; callers only open, name and close.
public struct JSONWriter {
    public private(set) var bytes: [UInt8]
    private var needsComma = false

    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// A member name known at compile time; it must need no escaping.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A member name from data; escaped like any string.
    public mutating func key(_ name: String) {
        separate()
        Self.appendQuoted(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ value: String) {
        separate()
        Self.appendQuoted(value, to: &bytes)
        needsComma = true
    }

    /// A string, or `null` when there is none.
    public mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    public mutating func integer(_ value: Int) {
        separate()
        Self.appendDecimal(value, to: &bytes)
        needsComma = true
    }

    public mutating func bool(_ value: Bool) {
        separate()
        appendStatic(value ? "true" : "false")
        needsComma = true
    }

    public mutating func null() {
        separate()
        appendStatic("null")
        needsComma = true
    }

    /// Any parsed value, written back compactly (numbers as they were written).
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let n):
            separate()
            bytes.append(contentsOf: n.lexeme.utf8)
            needsComma = true
        case .string(let s): string(s)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let object):
            beginObject()
            for member in object.members {
                key(member.name)
                self.value(member.value)
            }
            endObject()
        }
    }

    /// Bytes that are already one complete JSON value.
    public mutating func raw(_ value: [UInt8]) {
        separate()
        bytes.append(contentsOf: value)
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func appendStatic(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    // MARK: Primitives shared with the access log and problem rendering

    /// Appends `value` as a quoted, escaped JSON string.
    public static func appendQuoted(_ value: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in appendEscaped(utf8, to: &output) }
        output.append(UInt8(ascii: "\""))
    }

    /// Appends UTF-8 bytes with JSON string escaping (no quotes).
    public static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        guard let base = utf8.baseAddress else { return }
        var runStart = 0
        var i = 0
        let count = utf8.count
        while i < count {
            // Skip 8 bytes at a time while none needs escaping (SWAR: a byte
            // below 0x20, or equal to '"' or '\\'; bytes ≥ 0x80 never match).
            while i + 8 <= count {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                if Self.needsEscape(word) { break }
                i += 8
            }
            guard i < count else { break }
            let byte = base[i]
            if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                i += 1
                continue
            }
            if runStart < i {
                output.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: i - runStart))
            }
            output.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): output.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\"))
            case 0x0A: output.append(UInt8(ascii: "n"))
            case 0x0D: output.append(UInt8(ascii: "r"))
            case 0x09: output.append(UInt8(ascii: "t"))
            case 0x08: output.append(UInt8(ascii: "b"))
            case 0x0C: output.append(UInt8(ascii: "f"))
            default:
                let digits: StaticString = "0123456789abcdef"
                let d = digits.utf8Start
                output.append(UInt8(ascii: "u"))
                output.append(UInt8(ascii: "0"))
                output.append(UInt8(ascii: "0"))
                output.append(d[Int(byte >> 4)])
                output.append(d[Int(byte & 0xF)])
            }
            i += 1
            runStart = i
        }
        if runStart < count {
            output.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: count - runStart))
        }
    }

    /// Whether any byte of `word` is below 0x20, a quote or a backslash: the
    /// bytes a JSON string escapes.
    @inline(__always)
    static func needsEscape(_ word: UInt64) -> Bool {
        JSONByteClass.escapeMask(word) != 0
    }

    /// Appends the decimal digits of `value`.
    public static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
        if value == 0 {
            output.append(UInt8(ascii: "0"))
            return
        }
        if value < 0 { output.append(UInt8(ascii: "-")) }
        // Work with the magnitude as UInt so Int.min has no overflow.
        var magnitude = value.magnitude
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(20 - count)...]))
        }
    }

    /// A string quoted for an error message: JSON-escaped and cut to at most
    /// 64 characters, so a hostile name cannot blow up a problem detail.
    static func quotedForMessage(_ value: String) -> String {
        let maxCharacters = 64
        var shown = value
        if value.prefix(maxCharacters + 1).count > maxCharacters {
            shown = String(value.prefix(maxCharacters)) + "…"
        }
        var out: [UInt8] = []
        appendQuoted(shown, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

/// Where a response of fixed shape writes its JSON, so the same writing code
/// can count bytes (`JSONWriter.ByteCounter`) or copy them into a buffer
/// allocated once (`JSONWriter.ByteCopier`): nothing is checked, grown or
/// copied per append.
public protocol JSONOutput {
    /// Bytes that are already JSON (punctuation, member names, fixed values).
    mutating func raw(_ text: StaticString)
    /// The well-formed UTF-8 `utf8` as a quoted, escaped JSON string.
    mutating func quoted(utf8: UnsafeBufferPointer<UInt8>)
}

extension JSONOutput {
    /// `value` as a quoted, escaped JSON string.
    @inline(__always)
    public mutating func quoted(_ value: String) {
        JSONWriter.withUTF8(value) { quoted(utf8: $0) }
    }

    /// A quoted string, or `null` when there is none.
    public mutating func quoted(_ value: String?) {
        if let value { quoted(value) } else { raw("null") }
    }
}

extension JSONWriter {
    /// The bytes `write` produces, written once into an array of `capacity`
    /// bytes; `nil` when they do not fit.
    public static func bytes(capacity: Int, _ write: (inout ByteCopier) -> Void) -> [UInt8]? {
        var fits = true
        // Never 0: Array(unsafeUninitializedCapacity: 0) stores its count into
        // the shared empty-array singleton, a write other threads race with.
        let bytes = [UInt8](unsafeUninitializedCapacity: max(capacity, 1)) { buffer, initializedCount in
            var copier = ByteCopier(buffer)
            write(&copier)
            fits = !copier.overflowed
            initializedCount = fits ? copier.count : 0
        }
        return fits ? bytes : nil
    }

    /// The bytes `write` produces, in an array of exactly their size: `write`
    /// runs twice, first counting.
    /// - Important: `write` must produce the same output each time it is called.
    public static func exactBytes(_ write: (inout ByteCounter) -> Void, _ writeAgain: (inout ByteCopier) -> Void)
        -> [UInt8]
    {
        var counter = ByteCounter()
        write(&counter)
        let bytes = Self.bytes(capacity: counter.count, writeAgain)
        // Not fitting, or a different count, would be a bug in `write`.
        precondition(bytes?.count == counter.count, "JSON written twice differently")
        return bytes ?? []
    }

    /// Counts the bytes a `JSONOutput` would receive.
    public struct ByteCounter: JSONOutput {
        public private(set) var count = 0

        public init() {}

        @inline(__always)
        public mutating func raw(_ text: StaticString) {
            count += text.utf8CodeUnitCount
        }

        @inline(__always)
        public mutating func quoted(utf8: UnsafeBufferPointer<UInt8>) {
            count += 2 + JSONWriter.escapedCount(utf8)
        }
    }

    /// Writes the bytes into a buffer of fixed size; past its end it stops
    /// and reports `overflowed`.
    public struct ByteCopier: JSONOutput {
        private let base: UnsafeMutablePointer<UInt8>
        private let capacity: Int
        public private(set) var count = 0
        public private(set) var overflowed = false

        init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
            // An empty buffer may have no address; nothing is written then.
            base = buffer.baseAddress ?? UnsafeMutablePointer(bitPattern: 1)!
            capacity = buffer.count
        }

        @inline(__always)
        public mutating func raw(_ text: StaticString) {
            copy(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        @inline(__always)
        public mutating func quoted(utf8: UnsafeBufferPointer<UInt8>) {
            byte(UInt8(ascii: "\""))
            if JSONWriter.needsNoEscape(utf8) {
                copy(utf8)
            } else {
                escape(utf8)
            }
            byte(UInt8(ascii: "\""))
        }

        @inline(__always)
        private mutating func byte(_ value: UInt8) {
            guard count < capacity else { return overflowed = true }
            base[count] = value
            count += 1
        }

        @inline(__always)
        private mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
            let length = bytes.count
            guard length <= capacity - count else { return overflowed = true }
            guard let source = bytes.baseAddress else { return }
            let target = base + count
            count += length
            // Most strings here are short: two overlapping word moves beat a memcpy call.
            switch length {
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
                target.initialize(from: source, count: length)
            }
        }

        /// A string that needs escapes (a body's line breaks), escaped as
        /// `appendEscaped` does, straight into the buffer.
        private mutating func escape(_ utf8: UnsafeBufferPointer<UInt8>) {
            var runStart = 0
            for index in utf8.indices {
                let value = utf8[index]
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
                default: continue
                }
                copy(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                byte(UInt8(ascii: "\\"))
                if short != 0 {
                    byte(short)
                } else {
                    let digits: StaticString = "0123456789abcdef"
                    byte(UInt8(ascii: "u"))
                    byte(UInt8(ascii: "0"))
                    byte(UInt8(ascii: "0"))
                    byte(digits.utf8Start[Int(value >> 4)])
                    byte(digits.utf8Start[Int(value & 0xF)])
                }
                runStart = index + 1
            }
            copy(UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
    }

    /// Runs `body` over `value`'s UTF-8 without copying a native string.
    @inline(__always)
    static func withUTF8<Result>(_ value: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = value.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(value.utf8).withUnsafeBufferPointer(body)
    }

    /// Whether no byte of `utf8` needs escaping: a word at a time, the last
    /// (partial) word read overlapping the one before it.
    @inline(__always)
    static func needsNoEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
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
            return !needsEscape(low | high &<< 32)
        }
        var escapes = needsEscape(base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
        var offset = 0
        while offset &+ 8 < count {
            escapes = escapes || needsEscape(base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset &+= 8
        }
        return !escapes
    }

    /// The length of `utf8` once escaped (without quotes).
    static func escapedCount(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        if needsNoEscape(utf8) { return utf8.count }
        var count = 0
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x0A, 0x0D, 0x09, 0x08, 0x0C: count += 2
            case 0..<0x20: count += 6
            default: count += 1
            }
        }
        return count
    }
}
