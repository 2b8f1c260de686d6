/// Turns a chat message's Markdown into notification body text, exactly as
/// `shared/spec/body-rules.md` defines it. Pure: no I/O, no clocks, no globals.
public enum BodyRenderer {
    /// The default and smallest body cap, in UTF-16 units (iOS shows 256).
    public static let defaultMaxUnits = 256
    /// The largest cap a caller may ask for, in UTF-16 units.
    public static let largestMaxUnits = 4096
    /// The input is cut to this many UTF-16 units (whole characters) before rendering.
    public static let inputMaxUnits = 4096
    /// Allowed values of `maxUnits`.
    public static let maxUnitsRange = defaultMaxUnits...largestMaxUnits

    /// Renders `text` and applies the cap (sections 1 to 7).
    /// - Precondition: `maxUnits` is in `maxUnitsRange` (callers validate it).
    /// - Important: never throws; markup it cannot match is literal text.
    public static func render(_ text: String, maxUnits: Int = defaultMaxUnits) -> BodyRendering {
        withRenderedBytes(text) { bytes, inputCut in
            BodyCap.apply(bytes, maxUnits: maxUnits, inputCut: inputCut, text: nil)
        }
    }

    /// Sections 1 to 6: the rendered text before the cap, and whether the input was cut.
    public static func renderUncapped(_ text: String) -> (text: String, inputCut: Bool) {
        withRenderedBytes(text) { bytes, inputCut in
            (String(decoding: bytes, as: UTF8.self), inputCut)
        }
    }

    /// Runs sections 1 to 6 over `text`'s UTF-8 and hands the rendered bytes to `body`.
    private static func withRenderedBytes<Result>(
        _ text: String, _ body: (UnsafeBufferPointer<UInt8>, Bool) -> Result
    ) -> Result {
        func run(_ utf8: UnsafeBufferPointer<UInt8>) -> Result {
            let cut = InputCut.keptByteCount(utf8, text: text)
            let writer = renderBlocks(UnsafeBufferPointer(rebasing: utf8[0..<cut.count]))
            return writer.bytes.withUnsafeBufferPointer { all in
                body(UnsafeBufferPointer(rebasing: all[writer.trimmedRange()]), cut.inputCut)
            }
        }
        if let result = text.utf8.withContiguousStorageIfAvailable(run) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(run)
    }

    /// Sections 2 to 6 over the (already cut) UTF-8 input.
    static func renderBlocks(_ input: UnsafeBufferPointer<UInt8>) -> BodyWriter {
        let source = normalizedLineEndings(input)
        return source.withUnsafeBufferPointer { source in
            var writer = BodyWriter(capacity: source.count)
            var inline = InlineRenderer(source: source)
            var fence: Fence? = nil
            var paragraphStart: Int? = nil
            var paragraphEnd = 0

            func flushParagraph() {
                guard let start = paragraphStart else { return }
                writer.beginLine(trimsEdges: true)
                inline.renderParagraph(start..<paragraphEnd, into: &writer)
                writer.endLine()
                paragraphStart = nil
            }

            var lineStart = 0
            while lineStart <= source.count {
                var lineEnd = lineStart
                while lineEnd < source.count && source[lineEnd] != ASCII.lineFeed { lineEnd += 1 }
                let line = lineStart..<lineEnd
                defer { lineStart = lineEnd + 1 }

                if let open = fence {
                    if open.isClosed(by: line, in: source) {
                        fence = nil
                    } else {
                        writer.beginLine(trimsEdges: false)
                        writer.appendVerbatim(UnsafeBufferPointer(rebasing: source[open.content(of: line, in: source)]))
                        writer.endLine()
                    }
                } else if let open = Fence.opening(line, in: source) {
                    // A fence may interrupt a paragraph.
                    flushParagraph()
                    fence = open
                } else if isBlank(line, in: source) {
                    flushParagraph()
                    writer.beginLine(trimsEdges: false)
                    writer.endLine()
                } else {
                    if paragraphStart == nil { paragraphStart = lineStart }
                    paragraphEnd = lineEnd
                }
            }
            flushParagraph()
            return writer
        }
    }

    /// Section 2: every "\r\n", then every remaining "\r", becomes "\n".
    private static func normalizedLineEndings(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        guard input.contains(ASCII.carriageReturn) else { return Array(input) }
        var output = [UInt8]()
        output.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == ASCII.carriageReturn {
                output.append(ASCII.lineFeed)
                if index + 1 < input.count && input[index + 1] == ASCII.lineFeed { index += 1 }
            } else {
                output.append(byte)
            }
            index += 1
        }
        return output
    }

    /// Section 4: a line that is empty or only horizontal space.
    private static func isBlank(_ line: Range<Int>, in source: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in line where !ASCII.isHorizontalSpace(source[index]) { return false }
        return true
    }
}
