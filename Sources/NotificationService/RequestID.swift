import HTTPCore
import Synchronization

/// `X-Request-Id`: a caller's id is echoed when it is safe to echo, else a
/// fresh one is made, so every response and log line has one.
final class RequestIDGenerator: Sendable {
    /// Longer ids are replaced: they would bloat every log line.
    static let maxLength = 128

    private let prefix: UInt64
    /// `prefix`'s 16 digits, as they are stored.
    private let prefixDigits: (UInt64, UInt64)
    private let counter = Atomic<UInt64>(0)

    init(prefix: UInt64 = UInt64.random(in: .min ... .max)) {
        self.prefix = prefix
        prefixDigits = Self.hexDigits(prefix)
    }

    /// A caller's id when it is 1…128 bytes of visible ASCII (0x21–0x7E), else nil.
    static func validated(_ raw: String?) -> String? {
        guard let raw else { return nil }
        let utf8 = raw.utf8
        guard !utf8.isEmpty, utf8.count <= maxLength, utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else { return nil }
        return raw
    }

    /// A caller's id when `validated` lets it through, else a new one.
    func id(for request: HTTPRequest) -> HTTPRequestID {
        if let own = Self.validated(request.header("x-request-id")) { return HTTPRequestID(own) }
        return next()
    }

    /// 32 lower-case hex digits: a random per-process prefix and a counter, so
    /// ids are unique across instances without a system call per request.
    /// Held inline: no allocation.
    func next() -> HTTPRequestID {
        let sequence = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return Self.id(prefixDigits: prefixDigits, sequence: sequence)
    }

    /// The id of `sequence` after the prefix's digits.
    static func id(prefixDigits: (UInt64, UInt64), sequence: UInt64) -> HTTPRequestID {
        let sequenceDigits = hexDigits(sequence)
        return HTTPRequestID(inlineBytes: (prefixDigits.0, prefixDigits.1, sequenceDigits.0, sequenceDigits.1))
    }

    /// `value`'s 16 lower-case hex digits, most significant first, as two
    /// words to store in order: each nibble spread into a byte of its own,
    /// then made a digit in all bytes at once.
    static func hexDigits(_ value: UInt64) -> (UInt64, UInt64) {
        (hexDigits(UInt32(truncatingIfNeeded: value >> 32)), hexDigits(UInt32(truncatingIfNeeded: value)))
    }

    private static func hexDigits(_ value: UInt32) -> UInt64 {
        var nibbles = UInt64(value)
        nibbles = (nibbles | nibbles << 16) & 0x0000_FFFF_0000_FFFF
        nibbles = (nibbles | nibbles << 8) & 0x00FF_00FF_00FF_00FF
        nibbles = (nibbles | nibbles << 4) & 0x0F0F_0F0F_0F0F_0F0F
        // Byte k holds nibble k from the right; the first digit goes first in memory.
        nibbles = nibbles.byteSwapped
        // 1 in each byte that holds 10 or more (adding 6 carries into bit 4).
        let letters = ((nibbles &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        // "0" is 0x30; "a" is 39 past "0" + 10.
        return (nibbles &+ 0x3030_3030_3030_3030 &+ letters &* 39).littleEndian
    }
}
