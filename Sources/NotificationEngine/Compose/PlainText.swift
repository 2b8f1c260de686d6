/// Titles, subtitles and names: plain text, one line, at most 256 units.
package enum PlainText {
    /// Titles and subtitles are capped at this many UTF-16 units (the body cap rule).
    package static let titleMaxUnits = 256

    /// Every run of `White_Space` scalars becomes one space, leading and
    /// trailing space is removed; `nil` when nothing is left (or `text` is `nil`).
    package static func normalised(_ text: String?) -> String? {
        guard let text else { return nil }
        // Most names are already normal (single inner spaces only): return them as they are.
        if text.utf8.withContiguousStorageIfAvailable(isNormal) ?? false { return text }

        if let result = text.utf8.withContiguousStorageIfAvailable(normalisedCopy) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(normalisedCopy)
    }

    /// `utf8` normalised into a new string; `nil` when nothing is left.
    static func normalisedCopy(_ utf8: UnsafeBufferPointer<UInt8>) -> String? {
        guard !utf8.isEmpty else { return nil }
        // The result is never longer than the input.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: utf8.count) { output in
            let written = normalise(utf8, into: output.baseAddress!)
            return written == 0
                ? nil : String(decoding: UnsafeBufferPointer(rebasing: output[..<written]), as: UTF8.self)
        }
    }

    /// `utf8` (absent: `nil`) normalised as a string; `nil` when nothing is left.
    static func normalisedString(_ utf8: UnsafeBufferPointer<UInt8>?) -> String? {
        guard let utf8 else { return nil }
        if isNormal(utf8) { return String(decoding: utf8, as: UTF8.self) }
        return normalisedCopy(utf8)
    }

    /// Calls `body` with `utf8` normalised: `utf8` itself when it is normal
    /// already, else a normalised copy valid during the call; `nil` when
    /// `utf8` is absent or nothing is left (as `normalisedString`).
    static func withNormalised<R>(
        _ utf8: UnsafeBufferPointer<UInt8>?, _ body: (UnsafeBufferPointer<UInt8>?) -> R
    ) -> R {
        guard let utf8 else { return body(nil) }
        if isNormal(utf8) { return body(utf8) }
        guard !utf8.isEmpty else { return body(nil) }
        // The result is never longer than the input.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: utf8.count) { output in
            let written = normalise(utf8, into: output.baseAddress!)
            return body(written == 0 ? nil : UnsafeBufferPointer(rebasing: output[..<written]))
        }
    }

    /// Writes `utf8` normalised at `output` (room for `utf8.count` bytes: the
    /// result is never longer); the number of bytes written, 0 when nothing is left.
    static func normalise(_ utf8: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>) -> Int {
        var written = 0
        var spacePending = false
        var index = 0
        while index < utf8.count {
            let length = whiteSpaceLength(utf8, at: index)
            if length > 0 {
                spacePending = written > 0
                index += length
                continue
            }
            if spacePending {
                output[written] = UInt8(ascii: " ")
                written += 1
                spacePending = false
            }
            output[written] = utf8[index]
            written += 1
            index += 1
        }
        return written
    }

    /// Whether normalising `utf8` would return it unchanged: not empty, no
    /// `White_Space` scalar but single inner spaces.
    static func isNormal(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        var previousWasSpace = true
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte &- 0x21 < 0x7F &- 0x21 {
                // Visible ASCII, nearly every byte of a name: never White_Space.
                previousWasSpace = false
            } else if byte == UInt8(ascii: " ") {
                if previousWasSpace { return false }
                previousWasSpace = true
            } else {
                if whiteSpaceLength(utf8, at: index) > 0 { return false }
                previousWasSpace = false
            }
            index += 1
        }
        return !previousWasSpace
    }

    /// The UTF-8 length of the `White_Space` scalar at `index` of valid UTF-8,
    /// or 0 when the byte there does not start one. Only four lead bytes can
    /// start a non-ASCII `White_Space` scalar (U+0085 and U+00A0 after 0xC2,
    /// U+1680 after 0xE1, U+2000…U+205F after 0xE2, U+3000 after 0xE3), so
    /// nothing else is decoded.
    @inline(__always)
    static func whiteSpaceLength(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let byte = utf8[index]
        if byte < 0x80 { return byte == UInt8(ascii: " ") || (0x09...0x0D).contains(byte) ? 1 : 0 }
        guard byte == 0xC2 || (0xE1...0xE3).contains(byte) else { return 0 }
        let length = byte == 0xC2 ? 2 : 3
        guard index + length <= utf8.count else { return 0 }
        var value = UInt32(byte & (byte == 0xC2 ? 0x1F : 0x0F))
        for offset in 1..<length { value = value << 6 | UInt32(utf8[index + offset] & 0x3F) }
        // The White_Space scalars after those lead bytes, listed rather than
        // looked up in the property table (a test checks every scalar against it).
        switch value {
        case 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return length
        default: return 0
        }
    }

    /// `text` capped at `titleMaxUnits` by the body cap rule (`BodyCap.apply`).
    package static func capped(_ text: String) -> String {
        BodyCap.apply(text, maxUnits: titleMaxUnits, inputCut: false).body
    }
}
