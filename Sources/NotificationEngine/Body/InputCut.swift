/// Section 1, the input cut: at most 4096 UTF-16 units of whole characters,
/// so the work per message is bounded whatever its length.
enum InputCut {
    /// The number of leading UTF-8 bytes of the text `bytes` (`text()` makes it a String) to render,
    /// and whether that dropped anything.
    /// - Important: cuts only at Character boundaries of the whole text; the
    ///   cost is bounded by the cut, not by the length of the text.
    static func keptByteCount(_ bytes: UnsafeBufferPointer<UInt8>, text: () -> String) -> (count: Int, inputCut: Bool) {
        // Fewer bytes than the limit means fewer UTF-16 units too.
        guard bytes.count > BodyRenderer.inputMaxUnits,
            let scalarEnd = CharacterBoundary.scalarPrefix(bytes, maxUnits: BodyRenderer.inputMaxUnits)
        else { return (bytes.count, false) }
        return (CharacterBoundary.roundDown(bytes, offset: scalarEnd, text: text), true)
    }
}
