import CLibevent
import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

/// evhttp's complete request as an `HTTPRequest`, with the limits evhttp
/// cannot check itself. One per event-loop thread: the storage of a
/// request's header list and body, handed back by `recycle` once the
/// request is answered, is reused for the next, so a request costs no
/// allocation for either (a body over `keptBodyCapacity` gives its storage up).
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

    /// The request as a value, or the value without its body and why the
    /// adapter refuses it (target or body over the limit).
    mutating func read(_ request: OpaquePointer, maxURIBytes: Int, maxBodyBytes: Int) -> (
        HTTPRequest, TransportRejection?
    ) {
        let targetByteCount = evhttp_request_get_uri(request).map { strlen($0) } ?? 0
        var headers = Self.take(&spareHeaders)
        let path = recent.withUnsafeMutableBufferPointer { recent in
            Self.readHeaders(of: request, into: &headers, recent: recent)
            return Self.path(of: request, recent: recent.baseAddress!)
        }
        var value = HTTPRequest(
            method: Self.methodName(evhttp_request_get_command(request)), path: path, headers: headers)
        if targetByteCount > maxURIBytes {
            return (value, .uriTooLong(maxBytes: maxURIBytes))
        }
        guard let input = evhttp_request_get_input_buffer(request) else { return (value, nil) }
        let bodyByteCount = evbuffer_get_length(input)
        if bodyByteCount > maxBodyBytes {
            return (value, .bodyTooLarge(maxBytes: maxBodyBytes))
        }
        // Copied, not removed: evhttp frees the buffer with the request.
        if bodyByteCount > 0 {
            var body = Self.take(&spareBody)
            if evbuffer_get_contiguous_space(input) >= bodyByteCount,
                let contiguous = evbuffer_pullup(input, bodyByteCount)
            {
                body.append(contentsOf: UnsafeBufferPointer(start: contiguous, count: bodyByteCount))
            } else {
                Self.append(input, byteCount: bodyByteCount, to: &body)
            }
            value.body = body
        }
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

    /// The first `byteCount` bytes of `buffer`, chunk by chunk, without
    /// making them contiguous in the buffer first.
    private static func append(_ buffer: OpaquePointer, byteCount: Int, to body: inout [UInt8]) {
        let chunkCount = Int(evbuffer_peek(buffer, byteCount, nil, nil, 0))
        guard chunkCount > 0 else { return }
        body.reserveCapacity(byteCount)
        withUnsafeTemporaryAllocation(of: iovec.self, capacity: chunkCount) { chunks in
            let filled = Int(evbuffer_peek(buffer, byteCount, nil, chunks.baseAddress, Int32(chunkCount)))
            var remaining = byteCount
            for chunk in chunks.prefix(min(filled, chunkCount)) where remaining > 0 {
                guard let start = chunk.iov_base else { continue }
                let count = min(remaining, chunk.iov_len)
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

    private static func methodName(_ command: evhttp_cmd_type) -> String {
        switch command {
        case EVHTTP_REQ_GET: "GET"
        case EVHTTP_REQ_POST: "POST"
        case EVHTTP_REQ_HEAD: "HEAD"
        case EVHTTP_REQ_PUT: "PUT"
        case EVHTTP_REQ_DELETE: "DELETE"
        case EVHTTP_REQ_OPTIONS: "OPTIONS"
        case EVHTTP_REQ_TRACE: "TRACE"
        case EVHTTP_REQ_CONNECT: "CONNECT"
        case EVHTTP_REQ_PATCH: "PATCH"
        default: "UNKNOWN"
        }
    }

    private static func path(of request: OpaquePointer, recent: UnsafeMutablePointer<RecentString>) -> String {
        guard let uri = evhttp_request_get_evhttp_uri(request), let path = evhttp_uri_get_path(uri) else {
            return ""
        }
        return recentString(path, in: recent, making: string(_:byteCount:))
    }

    /// `recent`: the path's slot, then a name's and a value's for each of the first fields.
    private static func readHeaders(
        of request: OpaquePointer, into headers: inout [(name: String, value: String)],
        recent: UnsafeMutableBufferPointer<RecentString>
    ) {
        guard let list = evhttp_request_get_input_headers(request) else { return }
        var entry = clibevent_header_first(list)
        var slot = 1
        while let current = entry {
            if let key = current.pointee.key, let value = current.pointee.value {
                if slot + 1 < recent.count {
                    headers.append(
                        (
                            name: recentString(
                                key, in: recent.baseAddress! + slot, making: lowercasedName(_:byteCount:)),
                            value: recentString(value, in: recent.baseAddress! + slot + 1, making: string(_:byteCount:))
                        ))
                    slot += 2
                } else {
                    headers.append((name: lowercasedName(key, byteCount: strlen(key)), value: string(value)))
                }
            }
            entry = clibevent_header_next(current)
        }
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
        _ pointer: UnsafePointer<CChar>, in slot: UnsafeMutablePointer<RecentString>,
        making make: (UnsafePointer<CChar>, Int) -> String
    ) -> String {
        let byteCount = strlen(pointer)
        guard byteCount <= 15 else { return make(pointer, byteCount) }
        let bytes = ShortBytes(pointer, count: byteCount)
        if slot.pointee.bytes == bytes { return slot.pointee.string }
        let made = make(pointer, byteCount)
        slot.pointee = RecentString(bytes: bytes, string: made)
        return made
    }

    private static func string(_ pointer: UnsafePointer<CChar>) -> String {
        string(pointer, byteCount: strlen(pointer))
    }

    /// The C string as a `String`, as `String(cString:)` makes it (ill-formed
    /// UTF-8 repaired), without its cost where it can: up to 15 bytes fit in
    /// the string itself and ASCII there needs no validation, and the usual
    /// `Content-Type` comes from a literal.
    private static func string(_ pointer: UnsafePointer<CChar>, byteCount: Int) -> String {
        pointer.withMemoryRebound(to: UInt8.self, capacity: byteCount) { start in
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
            return String(cString: pointer)
        }
    }

    /// A field name in lower case. Names are ASCII tokens (RFC 9110 section 5.1),
    /// and for ASCII, folding A-Z on the bytes is what `lowercased()` does,
    /// without its Unicode tables; any other name takes the general path.
    /// The names almost every request has come from a table of literals,
    /// which cost no allocation and no UTF-8 check.
    private static func lowercasedName(_ name: UnsafePointer<CChar>, byteCount: Int) -> String {
        name.withMemoryRebound(to: UInt8.self, capacity: byteCount) { start in
            let bytes = UnsafeBufferPointer(start: start, count: byteCount)
            if let common = commonName(bytes) { return common }
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return String(cString: name).lowercased() }
            return String(unsafeUninitializedCapacity: byteCount) { output in
                for index in 0..<byteCount {
                    let byte = bytes[index]
                    output[index] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                }
                return byteCount
            }
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
