import CLibevent
import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

/// A complete request as an `HTTPRequest`, read from the head
/// `RequestFramer` accepted (so every line is already known well formed)
/// and the body that followed it in the connection's input. One per
/// event-loop thread: the storage of a request's header list and body,
/// handed back by `recycle` once the request is answered, is reused for the
/// next, so a request costs no allocation for either (a body over
/// `keptBodyCapacity` gives its storage up).
struct RequestReader {
    /// Bodies up to this size leave their storage for the next request.
    static let keptBodyCapacity = 65_536

    private var spareHeaders: [(name: String, value: String)] = []
    private var spareBody: [UInt8] = []
    /// The strings last made for the path and for the names and values of
    /// the first `recentFieldCount` fields, by position.
    private var recent: [RecentString]
    private static let recentFieldCount = 8

    init() {
        // A request has a handful of fields: one allocation, not a series of regrowths.
        spareHeaders.reserveCapacity(8)
        recent = Array(repeating: RecentString(), count: 1 + 2 * Self.recentFieldCount)
    }

    /// Where a request lies in its connection's input: its head (from the
    /// request line to the empty line, the empty lines before it left out)
    /// and its body's bytes as they came (chunked or not).
    struct Extent {
        var headStart: Int
        var headEnd: Int
        var bodyEnd: Int
        var isChunked: Bool
    }

    /// The request in `input` at `extent` as a value, or the value without
    /// its body and why the adapter refuses it (a target over the limit).
    mutating func read(_ input: OpaquePointer, at extent: Extent, method: String, maxURIBytes: Int) -> (
        HTTPRequest, TransportRejection?
    ) {
        // The head in one piece (it mostly is already: no copy then).
        guard let bytes = evbuffer_pullup(input, extent.headEnd) else {
            return (HTTPRequest(method: method, path: ""), .badRequest(detail: "the head could not be read"))
        }
        let head = UnsafeBufferPointer(start: bytes + extent.headStart, count: extent.headEnd - extent.headStart)
        var headers = Self.take(&spareHeaders)
        let (path, targetByteCount) = recent.withUnsafeMutableBufferPointer { recent in
            Self.readHead(head, into: &headers, recent: recent)
        }
        var value = HTTPRequest(method: method, path: path, headers: headers)
        if targetByteCount > maxURIBytes {
            return (value, .uriTooLong(maxBytes: maxURIBytes))
        }
        guard extent.bodyEnd > extent.headEnd else { return (value, nil) }
        var body = Self.take(&spareBody)
        if extent.isChunked {
            Self.appendChunkedBody(input, from: extent.headEnd, to: extent.bodyEnd, into: &body)
        } else {
            Self.append(input, from: extent.headEnd, byteCount: extent.bodyEnd - extent.headEnd, to: &body)
        }
        value.body = body
        return (value, nil)
    }

    /// Takes back the storage of `request`'s header list and body (emptied)
    /// for the next request; storage the handler still shares is left to it.
    mutating func recycle(_ request: consuming HTTPRequest) {
        var headers = Self.take(&request.headers)
        // Not removeAll(keepingCapacity:), whose general path costs more for a few fields.
        while !headers.isEmpty { headers.removeLast() }
        spareHeaders = headers
        var body = Self.take(&request.body)
        if body.capacity <= Self.keptBodyCapacity {
            body.removeAll(keepingCapacity: true)
            spareBody = body
        }
    }

    /// `byteCount` bytes of `buffer` from `offset`, piece by piece, without
    /// making them contiguous in the buffer first.
    static func append(_ buffer: OpaquePointer, from offset: Int, byteCount: Int, to body: inout [UInt8]) {
        guard byteCount > 0 else { return }
        var position = evbuffer_ptr()
        guard evbuffer_ptr_set(buffer, &position, offset, EVBUFFER_PTR_SET) == 0 else { return }
        let pieceCount = Int(evbuffer_peek(buffer, byteCount, &position, nil, 0))
        guard pieceCount > 0 else { return }
        body.reserveCapacity(body.count + byteCount)
        withUnsafeTemporaryAllocation(of: iovec.self, capacity: pieceCount) { pieces in
            let filled = Int(evbuffer_peek(buffer, byteCount, &position, pieces.baseAddress, Int32(pieceCount)))
            var remaining = byteCount
            for piece in pieces.prefix(min(filled, pieceCount)) where remaining > 0 {
                guard let start = piece.iov_base else { continue }
                let count = min(remaining, piece.iov_len)
                body.append(contentsOf: UnsafeRawBufferPointer(start: start, count: count))
                remaining -= count
            }
        }
    }

    /// `array`'s value, leaving it empty: the value's storage is then
    /// referenced once, and appending to it does not copy it.
    private static func take<Element>(_ array: inout [Element]) -> [Element] {
        var taken: [Element] = []
        swap(&taken, &array)
        return taken
    }

    /// The path and the target's length from the request line, and each
    /// field, its name in lower case. `recent`: the path's slot, then a
    /// name's and a value's for each of the first fields.
    private static func readHead(
        _ head: UnsafeBufferPointer<UInt8>, into headers: inout [(name: String, value: String)],
        recent: UnsafeMutableBufferPointer<RecentString>
    ) -> (path: String, targetByteCount: Int) {
        guard let base = head.baseAddress else { return ("", 0) }
        var lineStart = 0
        var path = ""
        var targetByteCount = 0
        var slot = 1
        var isRequestLine = true
        while lineStart < head.count, let found = memchr(base + lineStart, 0x0A, head.count - lineStart) {
            let newline = UnsafeRawPointer(found) - UnsafeRawPointer(base)
            var lineEnd = newline
            if lineEnd > lineStart && base[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let line = base + lineStart
            let count = lineEnd - lineStart
            lineStart = newline + 1
            if count == 0 { break }
            if isRequestLine {
                isRequestLine = false
                let target = Self.target(line, count: count)
                targetByteCount = target.count
                let pathBytes = Self.path(of: target)
                path = recentString(
                    pathBytes.baseAddress ?? line, count: pathBytes.count, in: recent.baseAddress!,
                    making: string(_:byteCount:))
                continue
            }
            var field = RequestHead.Field()
            guard RequestHead.split(line, count: count, afterFramingField: false, into: &field) == nil else { continue }
            let value = line + field.valueStart
            let valueCount = field.valueEnd - field.valueStart
            if slot + 1 < recent.count {
                headers.append(
                    (
                        name: recentString(
                            line, count: field.nameEnd, in: recent.baseAddress! + slot,
                            making: lowercasedName(_:byteCount:)),
                        value: recentString(
                            value, count: valueCount, in: recent.baseAddress! + slot + 1, making: string(_:byteCount:))
                    ))
                slot += 2
            } else {
                headers.append(
                    (name: lowercasedName(line, byteCount: field.nameEnd), value: string(value, byteCount: valueCount)))
            }
        }
        return (path, targetByteCount)
    }

    /// The request line's target: between its first two spaces.
    private static func target(_ line: UnsafePointer<UInt8>, count: Int) -> UnsafeBufferPointer<UInt8> {
        let whole = UnsafeBufferPointer(start: line, count: count)
        guard let first = whole.firstIndex(of: 0x20) else { return UnsafeBufferPointer(start: line, count: 0) }
        let end = whole[(first + 1)...].firstIndex(of: 0x20) ?? count
        return UnsafeBufferPointer(rebasing: whole[(first + 1)..<end])
    }

    /// The target's path, up to `?` or `#`: an absolute-form target's after
    /// its scheme and authority (empty when it has none).
    private static func path(of target: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        if let first = target.first, first != 0x2F, first != 0x2A {
            // "scheme://authority": the path begins at the first "/" after it.
            var index = 0
            while index < target.count && target[index] != 0x3A { index += 1 }
            index += 3
            while index < target.count && target[index] != 0x2F && target[index] != 0x3F && target[index] != 0x23 {
                index += 1
            }
            start = min(index, target.count)
        }
        var end = start
        while end < target.count && target[end] != 0x3F && target[end] != 0x23 { end += 1 }
        return UnsafeBufferPointer(rebasing: target[start..<end])
    }

    /// A string made from a short C string, and the bytes it was made from.
    private struct RecentString {
        var bytes = ShortBytes()
        var string = ""
    }

    /// Up to 15 bytes and their count, as two words: equal values hold equal bytes.
    private struct ShortBytes: Equatable {
        var count = -1
        var first: UInt64 = 0
        var last: UInt64 = 0

        init() {}

        /// Two overlapping loads (words, or halves of them), all within the `count` bytes.
        init(_ start: UnsafeRawPointer, count: Int) {
            self.count = count
            if count >= 8 {
                first = start.loadUnaligned(as: UInt64.self)
                last = start.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            } else if count >= 4 {
                first = UInt64(start.loadUnaligned(as: UInt32.self))
                last = UInt64(start.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            } else {
                for index in 0..<count {
                    first |= UInt64(start.load(fromByteOffset: index, as: UInt8.self)) << (8 * index)
                }
            }
        }
    }

    /// `make`'s string for `pointer`: a path, a name or a value is mostly the
    /// one the previous request had at the same place, and a short one found
    /// equal to it, byte for byte, is reused rather than made again.
    @inline(__always)
    private static func recentString(
        _ pointer: UnsafePointer<UInt8>, count byteCount: Int, in slot: UnsafeMutablePointer<RecentString>,
        making make: (UnsafePointer<UInt8>, Int) -> String
    ) -> String {
        guard byteCount <= 15 else { return make(pointer, byteCount) }
        let bytes = ShortBytes(pointer, count: byteCount)
        if slot.pointee.bytes == bytes { return slot.pointee.string }
        let made = make(pointer, byteCount)
        slot.pointee = RecentString(bytes: bytes, string: made)
        return made
    }

    /// The bytes as a `String` (ill-formed UTF-8 repaired), without the
    /// general path's cost where it can: up to 15 bytes fit in the string
    /// itself, and the usual
    /// `Content-Type` comes from a literal.
    private static func string(_ start: UnsafePointer<UInt8>, byteCount: Int) -> String {
        if byteCount <= 15 {
            return String(unsafeUninitializedCapacity: byteCount) { output in
                output.baseAddress!.update(from: start, count: byteCount)
                return byteCount
            }
        }
        let json: StaticString = "application/json"
        if byteCount == json.utf8CodeUnitCount, memcmp(start, json.utf8Start, byteCount) == 0 {
            return "application/json"
        }
        return String(decoding: UnsafeBufferPointer(start: start, count: byteCount), as: UTF8.self)
    }

    /// A field name in lower case. Names are ASCII tokens (RFC 9110 section 5.1),
    /// and for ASCII, folding A-Z on the bytes is what `lowercased()` does,
    /// without its Unicode tables; any other name takes the general path.
    /// The names almost every request has come from a table of literals,
    /// which cost no allocation and no UTF-8 check.
    private static func lowercasedName(_ start: UnsafePointer<UInt8>, byteCount: Int) -> String {
        let bytes = UnsafeBufferPointer(start: start, count: byteCount)
        if let common = commonName(bytes) { return common }
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return String(decoding: bytes, as: UTF8.self).lowercased() }
        return String(unsafeUninitializedCapacity: byteCount) { output in
            for index in 0..<byteCount {
                let byte = bytes[index]
                output[index] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            }
            return byteCount
        }
    }

    /// Names here passed `RequestFramer`, which refuses control characters
    /// in them: so folding with 0x20 maps onto a letter or "-" only the
    /// letters themselves, and eight bytes compare at once.
    private static func commonName(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let base = bytes.baseAddress else { return nil }
        func matches(_ lowercase: StaticString) -> Bool {
            RequestHead.foldedEquals(base, bytes.count, lowercase)
        }
        switch bytes.count {
        case 4: return matches("host") ? "host" : nil
        case 6: return matches("accept") ? "accept" : matches("expect") ? "expect" : nil
        case 10: return matches("user-agent") ? "user-agent" : matches("connection") ? "connection" : nil
        case 12: return matches("content-type") ? "content-type" : matches("x-request-id") ? "x-request-id" : nil
        case 13: return matches("authorization") ? "authorization" : nil
        case 14: return matches("content-length") ? "content-length" : nil
        case 15: return matches("accept-encoding") ? "accept-encoding" : nil
        case 16: return matches("content-encoding") ? "content-encoding" : nil
        case 17: return matches("transfer-encoding") ? "transfer-encoding" : nil
        default: return nil
        }
    }
}
