/// Turns a chat message's Markdown into notification body text, exactly as
/// `docs/spec/body.md` defines it. Pure: no I/O, no clocks, no globals.
package enum BodyRenderer {
    /// The default and smallest body cap, in UTF-16 units (iOS shows 256).
    package static let defaultMaxUnits = 256
    /// The largest cap a caller may ask for, in UTF-16 units.
    package static let largestMaxUnits = 4096
    /// The input is cut to this many UTF-16 units (whole characters) before rendering.
    package static let inputMaxUnits = 4096
    /// Allowed values of `maxUnits`.
    package static let maxUnitsRange = defaultMaxUnits...largestMaxUnits
    /// The bytes of a text's UTF-8 that decide the input cut: a prefix of
    /// whole scalars this long holds more than `inputMaxUnits` UTF-16 units
    /// (a unit takes at most three bytes), so the cut and the scalar after
    /// it lie inside it, and rendering it renders the text.
    package static let inputPrefixBytes = 3 * (inputMaxUnits + 1)

    /// Renders `text` and applies the cap (sections 1 to 7).
    /// - Precondition: `maxUnits` is in `maxUnitsRange` (callers validate it).
    /// - Important: never throws; markup it cannot match is literal text.
    package static func render(_ text: String, maxUnits: Int = defaultMaxUnits) -> BodyRendering {
        withUTF8(text) { utf8 in
            withRenderedBytes(utf8, text: { text }, capUnits: maxUnits) { bytes, inputCut in
                BodyCap.apply(bytes, maxUnits: maxUnits, inputCut: inputCut, text: nil)
            }
        }
    }

    /// Sections 1 to 7 over UTF-8 that the caller holds (the service: a JSON
    /// string's bytes), without making a `String` of the input or the body.
    /// `body` gets the rendering, valid only during the call, and returns the
    /// bytes the caller makes of it (the service: its JSON reply). Not generic:
    /// called from another module, a generic would be run unspecialised, with
    /// a type-metadata lookup on every call. Engine SPI (`TextRange`): the
    /// library's callers render `String`s (`render`).
    /// - Precondition: `utf8` is well-formed UTF-8: the text, or its first
    ///   `inputPrefixBytes` bytes or more, ending on a scalar boundary (the
    ///   same rendering); `maxUnits` is in `maxUnitsRange`.
    package static func withRendering(
        utf8: UnsafeBufferPointer<UInt8>, maxUnits: Int, _ body: (RenderedBytes) -> [UInt8]
    ) -> [UInt8] {
        withRenderedBytes(utf8, text: { String(decoding: utf8, as: UTF8.self) }, capUnits: maxUnits) {
            bytes, inputCut in
            let cap = BodyCap.cut(bytes, maxUnits: maxUnits, inputCut: inputCut, text: nil)
            return body(
                RenderedBytes(
                    text: UnsafeBufferPointer(rebasing: bytes[0..<cap.kept]), ellipsis: cap.truncated,
                    units: cap.units, inputCut: inputCut
                ))
        }
    }

    /// Sections 1 to 6: the rendered text before the cap, and whether the input was cut.
    package static func renderUncapped(_ text: String) -> (text: String, inputCut: Bool) {
        withUTF8(text) { utf8 in
            withRenderedBytes(utf8, text: { text }) { bytes, inputCut in
                (String(decoding: bytes, as: UTF8.self), inputCut)
            }
        }
    }

    private static func withUTF8<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// Runs sections 1 to 6 over `text`'s UTF-8 and hands the rendered bytes to
    /// `body` (compose caps them into its texts without a String).
    static func withRenderedBytes<Result>(
        utf8: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>, Bool) -> Result
    ) -> Result {
        withRenderedBytes(utf8, text: { String(decoding: utf8, as: UTF8.self) }, body)
    }

    /// Runs sections 1 to 6 over `utf8` and hands the rendered bytes to `body`.
    /// `text` makes the input a `String`, for the rare cut that needs the
    /// standard library's grapheme breaking. With `capUnits`, rendering stops
    /// once the cap of that many units is settled (`BodyWriter.settlesCap`):
    /// `body` may then get only the start of the rendered text, which the
    /// cap cuts where it would cut the whole.
    private static func withRenderedBytes<Result>(
        _ utf8: UnsafeBufferPointer<UInt8>, text: () -> String, capUnits: Int? = nil,
        _ body: (UnsafeBufferPointer<UInt8>, Bool) -> Result
    ) -> Result {
        let cut = InputCut.keptByteCount(utf8, text: text)
        let input = UnsafeBufferPointer(rebasing: utf8[0..<cut.count])
        // Scratch space for the normalised source and the output, both bounded
        // by the cut input; small ones live on the stack.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * input.count + 2) { scratch in
            let sourceCount = normalizeLineEndings(input, into: scratch.baseAddress!)
            let source = UnsafeBufferPointer(start: scratch.baseAddress!, count: sourceCount)
            let output = UnsafeMutableBufferPointer(
                start: scratch.baseAddress! + sourceCount, count: scratch.count - sourceCount)
            var writer = BodyWriter(buffer: output)
            renderBlocks(source, into: &writer, capUnits: capUnits)
            return body(writer.trimmed, cut.inputCut)
        }
    }

    /// Sections 3 to 6 over the normalised source: lines become fenced
    /// content, blank lines and paragraphs; after a paragraph or a fenced
    /// line that settles a cap of `capUnits`, no more.
    static func renderBlocks(_ source: UnsafeBufferPointer<UInt8>, into writer: inout BodyWriter, capUnits: Int? = nil)
    {
        // The inline renderer's scratch starts on the stack: a short text's
        // needs no allocation.
        withUnsafeTemporaryAllocation(byteCount: InlineRenderer.stackBytes, alignment: 8) { stack in
            withUnsafeTemporaryAllocation(byteCount: InlineRenderer.stackBytes, alignment: 8) { tokenStack in
                var inline = InlineRenderer(source: source, stack: stack, tokenStack: tokenStack)
                renderBlocks(source, with: &inline, into: &writer, capUnits: capUnits)
            }
        }
    }

    /// `renderBlocks(_:into:capUnits:)` with its inline renderer.
    private static func renderBlocks(
        _ source: UnsafeBufferPointer<UInt8>, with inline: inout InlineRenderer, into writer: inout BodyWriter,
        capUnits: Int?
    ) {
        var fence: Fence? = nil
        var paragraphStart = -1
        var paragraphEnd = 0
        var lineStart = 0
        while lineStart <= source.count {
            let lineEnd = ByteScan.firstIndex(of: ASCII.lineFeed, in: source, from: lineStart)
            let line = lineStart..<lineEnd
            let isParagraphLine: Bool
            if let open = fence {
                isParagraphLine = false
                if open.isClosed(by: line, in: source) {
                    fence = nil
                } else {
                    writer.beginLine(trimsEdges: false)
                    writer.appendVerbatim(UnsafeBufferPointer(rebasing: source[open.content(of: line, in: source)]))
                    if let capUnits, writer.settlesCap(of: capUnits) { return }
                }
            } else if let open = Fence.opening(line, in: source) {
                // A fence may interrupt a paragraph.
                isParagraphLine = false
                flushParagraph(&paragraphStart, paragraphEnd, &inline, &writer)
                if let capUnits, writer.settlesCap(of: capUnits) { return }
                fence = open
            } else if isBlank(line, in: source) {
                isParagraphLine = false
                flushParagraph(&paragraphStart, paragraphEnd, &inline, &writer)
                if let capUnits, writer.settlesCap(of: capUnits) { return }
                writer.beginLine(trimsEdges: false)
            } else {
                isParagraphLine = true
            }
            if isParagraphLine {
                if paragraphStart < 0 { paragraphStart = lineStart }
                paragraphEnd = lineEnd
            }
            lineStart = lineEnd + 1
        }
        flushParagraph(&paragraphStart, paragraphEnd, &inline, &writer)
    }

    /// Renders the pending paragraph, if any, as output lines.
    private static func flushParagraph(
        _ start: inout Int, _ end: Int, _ inline: inout InlineRenderer, _ writer: inout BodyWriter
    ) {
        guard start >= 0 else { return }
        writer.beginLine(trimsEdges: true)
        inline.renderParagraph(start..<end, into: &writer)
        writer.endLine()
        start = -1
    }

    /// Section 2: every "\r\n", then every remaining "\r", becomes "\n".
    /// Returns the number of bytes written (never more than the input's).
    private static func normalizeLineEndings(
        _ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>
    ) -> Int {
        guard ByteScan.contains(input, ASCII.carriageReturn) else {
            // A raw copy (memcpy): Embedded Swift copies a typed range byte by byte (docs/wasm.md).
            if let base = input.baseAddress {
                UnsafeMutableRawPointer(output).copyMemory(from: base, byteCount: input.count)
            }
            return input.count
        }
        var written = 0
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == ASCII.carriageReturn {
                output[written] = ASCII.lineFeed
                if index + 1 < input.count && input[index + 1] == ASCII.lineFeed { index += 1 }
            } else {
                output[written] = byte
            }
            written += 1
            index += 1
        }
        return written
    }

    /// Section 4: a line that is empty or only horizontal space.
    private static func isBlank(_ line: Range<Int>, in source: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in line where !ASCII.isHorizontalSpace(source[index]) { return false }
        return true
    }
}
