import CLibevent

/// A chunked body's data, taken from the chunks `RequestFramer` has already
/// followed and found well formed (hex digits and CRLF, the data and CRLF,
/// the last chunk, trailers and the empty line): only the sizes are read
/// again here, and the trailers, which no handler reads, are skipped.
extension RequestReader {
    /// Appends the data of the chunked body at `start..<end` of `input`.
    static func appendChunkedBody(_ input: OpaquePointer, from start: Int, to end: Int, into body: inout [UInt8]) {
        guard end > start, let bytes = evbuffer_pullup(input, end) else { return }
        var offset = start
        while offset < end {
            var size = 0
            while offset < end, let digit = RequestFramer.hexValue(bytes[offset]) {
                size = size &* 16 &+ digit
                offset += 1
            }
            // The size's CRLF.
            offset += 2
            guard size > 0, offset + size <= end else { return }
            body.append(contentsOf: UnsafeBufferPointer(start: bytes + offset, count: size))
            // The data's CRLF.
            offset += size + 2
        }
    }
}
