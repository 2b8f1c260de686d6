/// The text digest F of compose.md C15: FNV-1a, 64 bits, over the
/// notification's title, subtitle, body and url (after the tier), each a
/// 0x00 for null or 0x01, its UTF-8 length as 4 bytes big-endian and its
/// UTF-8; written as 16 lower-case hexadecimal digits.
package struct TextDigest: Hashable, Sendable {
    package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    package init() {}

    /// Adds one text (nil for null).
    package mutating func add(_ text: UnsafeBufferPointer<UInt8>?) {
        guard let text else { return add(byte: 0) }
        add(byte: 1)
        let count = UInt32(truncatingIfNeeded: text.count)
        add(byte: UInt8(truncatingIfNeeded: count >> 24))
        add(byte: UInt8(truncatingIfNeeded: count >> 16))
        add(byte: UInt8(truncatingIfNeeded: count >> 8))
        add(byte: UInt8(truncatingIfNeeded: count))
        for byte in text { add(byte: byte) }
    }

    @inline(__always)
    private mutating func add(byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    /// The 16 hexadecimal digits, appended to `out` at once (sixteen
    /// appends would check the array's room and uniqueness each).
    package func appendHex(to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { digits in
            for index in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * index)) & 15
                digits[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            out.append(contentsOf: UnsafeBufferPointer(digits))
        }
    }

    /// The 16 hexadecimal digits.
    package var hex: String {
        var out: [UInt8] = []
        out.reserveCapacity(16)
        appendHex(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// F of `response`'s notification, as its tier left it.
    package static func of(_ response: ComposeResponse) -> TextDigest {
        var digest = TextDigest()
        if let texts = response.composedTexts {
            texts.bytes.withUnsafeBufferPointer { bytes in
                for member in [AnswerMember.title, .subtitle, .body, .url] { digest.add(bytes[texts[member]]) }
            }
        } else {
            let content = response.notification
            for member in [AnswerMember.title, .subtitle, .body, .url] {
                if var text = content[member] {
                    text.withUTF8 { digest.add($0) }
                } else {
                    digest.add(nil)
                }
            }
        }
        return digest
    }
}
