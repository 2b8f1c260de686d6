/// The syntax of a host and port, `uri-host [ ":" port ]`, which both the
/// `Host` field and an absolute-form target's authority must have, and the
/// case-insensitive comparison of the two.
extension RequestHead {
    /// `uri-host [ ":" port ]` (RFC 9112 section 3.2, RFC 3986 section
    /// 3.2.2): a reg-name (unreserved, sub-delims, percent-encoded octets)
    /// or a bracketed IP literal, then a colon and digits. No userinfo, no
    /// whitespace. Empty is valid (a target without an authority).
    static func isValidHost(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = value.count
        if count > 0 && value[0] == 0x5B {
            // "[" IPv6address or IPvFuture "]": hex digits, ":", "." and
            // IPvFuture's "v", unreserved and sub-delims.
            index = 1
            while index < count && value[index] != 0x5D {
                let byte = value[index]
                guard isRegNameByte(byte) || byte == 0x3A else { return false }
                index += 1
            }
            guard index < count else { return false }
            index += 1
        } else {
            while index < count && value[index] != 0x3A {
                let byte = value[index]
                if byte == 0x25 {
                    guard index + 2 < count, isHexDigit(value[index + 1]), isHexDigit(value[index + 2]) else {
                        return false
                    }
                    index += 3
                    continue
                }
                guard isRegNameByte(byte) else { return false }
                index += 1
            }
        }
        guard index < count else { return true }
        guard value[index] == 0x3A else { return false }
        index += 1
        while index < count {
            guard value[index] >= 0x30 && value[index] <= 0x39 else { return false }
            index += 1
        }
        return true
    }

    @inline(__always)
    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
    }

    /// unreserved (ALPHA DIGIT "-" "." "_" "~") or sub-delims
    /// ("!" "$" "&" "'" "(" ")" "*" "+" "," ";" "=").
    @inline(__always)
    private static func isRegNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x61...0x7A, 0x41...0x5A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E: true
        case 0x21, 0x24, 0x26...0x2C, 0x3B, 0x3D: true
        default: false
        }
    }

    /// ASCII case folded (a host's letters), byte for byte otherwise.
    static func equalIgnoringCase(_ value: UnsafeBufferPointer<UInt8>, _ other: [UInt8]) -> Bool {
        guard value.count == other.count else { return false }
        for index in 0..<value.count {
            let left = value[index]
            let right = other[index]
            guard left == right || (left | 0x20 == right | 0x20 && left | 0x20 >= 0x61 && left | 0x20 <= 0x7A) else {
                return false
            }
        }
        return true
    }
}
