/// Section 7, the cap. Compose uses it too, for titles, subtitles and bundle bodies.
package enum BodyCap {
    /// The ellipsis appended to a capped body: U+2026, one UTF-16 unit.
    static let ellipsis: [UInt8] = [0xE2, 0x80, 0xA6]

    /// Caps `text` at `maxUnits` UTF-16 units. A text that fits and was not cut
    /// is returned whole; otherwise the longest prefix of whole characters of at
    /// most `maxUnits − 1` units, without trailing whitespace, followed by "…".
    /// - Important: cuts only at Character boundaries of `text`.
    package static func apply(_ text: String, maxUnits: Int, inputCut: Bool) -> BodyRendering {
        if let result = text.utf8.withContiguousStorageIfAvailable({
            apply($0, maxUnits: maxUnits, inputCut: inputCut, text: text)
        }) {
            return result
        }
        return Array(text.utf8).withUnsafeBufferPointer {
            apply($0, maxUnits: maxUnits, inputCut: inputCut, text: text)
        }
    }

    /// The cap over UTF-8 bytes; `text` is those bytes as a String, or nil to
    /// build it only when needed.
    static func apply(_ bytes: UnsafeBufferPointer<UInt8>, maxUnits: Int, inputCut: Bool, text: String?)
        -> BodyRendering
    {
        let cap = cut(bytes, maxUnits: maxUnits, inputCut: inputCut, text: text)
        guard cap.truncated else {
            return BodyRendering(
                body: text ?? String(decoding: bytes, as: UTF8.self), units: cap.units, truncated: false,
                inputCut: false)
        }
        var body = [UInt8]()
        body.reserveCapacity(cap.kept + ellipsis.count)
        body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[0..<cap.kept]))
        body.append(contentsOf: ellipsis)
        return BodyRendering(
            body: String(decoding: body, as: UTF8.self), units: cap.units, truncated: true, inputCut: inputCut)
    }

    /// Where the cap cuts `bytes`: the body is their first `kept` bytes,
    /// followed by the ellipsis when `truncated`, `units` UTF-16 units in all.
    static func cut(_ bytes: UnsafeBufferPointer<UInt8>, maxUnits: Int, inputCut: Bool, text: String?) -> (
        kept: Int, units: Int, truncated: Bool
    ) {
        let units = ByteScan.utf16Count(bytes)
        if units <= maxUnits && !inputCut {
            return (bytes.count, units, false)
        }
        var kept = bytes.count
        if let scalarEnd = CharacterBoundary.scalarPrefix(bytes, maxUnits: maxUnits - 1) {
            kept = CharacterBoundary.roundDown(bytes, offset: scalarEnd) {
                text ?? String(decoding: bytes, as: UTF8.self)
            }
        }
        while kept > 0 && ASCII.isWhitespace(bytes[kept - 1]) { kept -= 1 }
        return (kept, 1 + ByteScan.utf16Count(UnsafeBufferPointer(rebasing: bytes[0..<kept])), true)
    }
}
