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

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Whether any byte of `word` is below 0x20, a quote or a backslash: the
    /// bytes a JSON string escapes (writer) or that end a plain run (parser).
    @inline(__always)
    static func needsEscape(_ word: UInt64) -> Bool {
        let control = (word &- ones &* 0x20) & ~word
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let quoteZero = (quote &- ones) & ~quote
        let backslashZero = (backslash &- ones) & ~backslash
        return (control | quoteZero | backslashZero) & highs != 0
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
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
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
