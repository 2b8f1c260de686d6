import HTTPCore

/// A reply's head as the adapter writes it: `HTTP/1.x`, the status line, and
/// `name: value` lines. A head is measured first (`byteCount…`), then
/// written in one pass into space of exactly that size, so it costs one
/// buffer reservation and no formatting calls.
struct ReplyHead {
    private var position: UnsafeMutablePointer<UInt8>

    /// Writes from `start`; the caller has measured the space.
    init(at start: UnsafeMutablePointer<UInt8>) {
        position = start
    }

    /// Where the next byte goes.
    var end: UnsafeMutablePointer<UInt8> { position }

    /// "HTTP/1.1 200 OK\r\n" takes this many bytes for `reason`.
    static func statusLineByteCount(reason: StaticString) -> Int {
        15 + reason.utf8CodeUnitCount
    }

    /// "name: value\r\n".
    static func fieldByteCount(nameCount: Int, valueCount: Int) -> Int {
        nameCount + valueCount + 4
    }

    /// No name that is empty or holds a colon, and no name or value holding
    /// CR, LF or NUL, so no field can end a line early or add one (no
    /// header injection).
    static func isSendable(name: String, value: String) -> Bool {
        !name.isEmpty && isClean(name, allowingColon: false) && isClean(value, allowingColon: true)
    }

    /// A value of a field with a fixed name (see `isSendable(name:value:)`).
    static func isSendable(value: UnsafeBufferPointer<UInt8>) -> Bool {
        isClean(value, allowingColon: true)
    }

    /// The `X-Request-Id` line for `id`, or nothing (0 bytes) when the value is not sendable.
    static func requestIDFieldByteCount(_ id: HTTPRequestID?) -> Int {
        guard let id, id.withUTF8({ isSendable(value: $0) }) else { return 0 }
        return fieldByteCount(nameCount: 12, valueCount: id.utf8Count)
    }

    /// Writes what `requestIDFieldByteCount` measured.
    mutating func appendRequestIDField(_ id: HTTPRequestID?, measured byteCount: Int) {
        guard byteCount > 0, let id else { return }
        append("X-Request-Id: ")
        id.withUTF8 { if let base = $0.baseAddress { append(UnsafeRawPointer(base), count: $0.count) } }
        append("\r\n")
    }

    private static func isClean(_ text: String, allowingColon: Bool) -> Bool {
        let clean = text.utf8.withContiguousStorageIfAvailable { bytes in
            isClean(bytes, allowingColon: allowingColon)
        }
        return clean ?? Array(text.utf8).withUnsafeBufferPointer { isClean($0, allowingColon: allowingColon) }
    }

    /// Eight bytes at a time: a word with no byte below 0x0E (CR, LF and NUL
    /// are) and, for a name, none equal to ":" is clean as a whole; any other
    /// word is checked byte by byte.
    private static func isClean(_ bytes: UnsafeBufferPointer<UInt8>, allowingColon: Bool) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let colons = word ^ (ones &* 0x3A)
            let suspect =
                ((word &- ones &* 0x0E) & ~word & highBits)
                | (allowingColon ? 0 : (colons &- ones) & ~colons & highBits)
            if suspect != 0 { break }
            index += 8
        }
        while index < bytes.count {
            let byte = base[index]
            if byte == 0x0D || byte == 0x0A || byte == 0 || (!allowingColon && byte == 0x3A) { return false }
            index += 1
        }
        return true
    }

    /// `status` is within 100...599.
    mutating func appendStatusLine(minorVersion: Int, status: Int, reason: StaticString) {
        append("HTTP/1.")
        position[0] = minorVersion == 0 ? 0x30 : 0x31
        position[1] = 0x20
        position[2] = UInt8(0x30 + status / 100)
        position[3] = UInt8(0x30 + status / 10 % 10)
        position[4] = UInt8(0x30 + status % 10)
        position[5] = 0x20
        position += 6
        append(reason)
        append("\r\n")
    }

    mutating func appendField(name: String, value: String) {
        append(name)
        append(": ")
        append(value)
        append("\r\n")
    }

    /// Inlined: a literal's length is then a constant, and its copy a store or two.
    @inline(__always)
    mutating func append(_ text: StaticString) {
        append(UnsafeRawPointer(text.utf8Start), count: text.utf8CodeUnitCount)
    }

    mutating func append(_ text: String) {
        // Native strings lend their bytes; any other is copied byte by byte.
        let copied: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            if let base = bytes.baseAddress { append(UnsafeRawPointer(base), count: bytes.count) }
        }
        if copied == nil {
            for byte in text.utf8 {
                position.pointee = byte
                position += 1
            }
        }
    }

    /// Up to 32 bytes (names, short values, the reason phrase, `Date`) are
    /// copied as two overlapping words or pairs of words, not by a `memcpy`
    /// call each; every load and store stays within the `count` bytes.
    @inline(__always)
    mutating func append(_ bytes: UnsafeRawPointer, count: Int) {
        let target = UnsafeMutableRawPointer(position)
        if count >= 8 && count <= 16 {
            let head = bytes.loadUnaligned(as: UInt64.self)
            let tail = bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            target.storeBytes(of: head, as: UInt64.self)
            target.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
        } else if count > 16 && count <= 32 {
            let first = bytes.loadUnaligned(as: UInt64.self)
            let second = bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            let third = bytes.loadUnaligned(fromByteOffset: count - 16, as: UInt64.self)
            let fourth = bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            target.storeBytes(of: first, as: UInt64.self)
            target.storeBytes(of: second, toByteOffset: 8, as: UInt64.self)
            target.storeBytes(of: third, toByteOffset: count - 16, as: UInt64.self)
            target.storeBytes(of: fourth, toByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 && count < 8 {
            let head = bytes.loadUnaligned(as: UInt32.self)
            let tail = bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
        } else if count < 4 {
            for index in 0..<count { position[index] = bytes.load(fromByteOffset: index, as: UInt8.self) }
        } else {
            target.copyMemory(from: bytes, byteCount: count)
        }
        position += count
    }

    /// `value` in decimal, without a formatting call.
    mutating func appendDecimal(_ value: Int) {
        let digitCount = Self.decimalDigitCount(value)
        var remaining = UInt(max(0, value))
        var index = digitCount
        repeat {
            index -= 1
            position[index] = UInt8(0x30 + remaining % 10)
            remaining /= 10
        } while index > 0
        position += digitCount
    }

    static func decimalDigitCount(_ value: Int) -> Int {
        var count = 1
        var remaining = UInt(max(0, value))
        while remaining >= 10 {
            remaining /= 10
            count += 1
        }
        return count
    }

    /// The fields that frame a reply or decide about its connection, and every other.
    enum FieldKind {
        case date, framing, connection, other

        /// Most names differ in length from these and need no comparison.
        init(_ name: String) {
            let kind = name.utf8.withContiguousStorageIfAvailable { bytes -> FieldKind in
                guard let base = bytes.baseAddress else { return .other }
                switch bytes.count {
                case 4: return RequestHead.foldedEquals(base, 4, "date") ? .date : .other
                case 10: return RequestHead.foldedEquals(base, 10, "connection") ? .connection : .other
                case 14: return RequestHead.foldedEquals(base, 14, "content-length") ? .framing : .other
                case 17: return RequestHead.foldedEquals(base, 17, "transfer-encoding") ? .framing : .other
                default: return .other
                }
            }
            self = kind ?? Self(lowercased: name.lowercased())
        }

        private init(lowercased name: String) {
            switch name {
            case "date": self = .date
            case "connection": self = .connection
            case "content-length", "transfer-encoding": self = .framing
            default: self = .other
            }
        }
    }
}
