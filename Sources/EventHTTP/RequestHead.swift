import HTTPCore

/// What `RequestFramer` keeps of a request's head: the framing it declares,
/// and the few values the adapter needs before evhttp has the request (to
/// screen it or to answer a refusal). Reused from request to request.
struct RequestHead {
    enum Method: Equatable {
        /// Methods evhttp lets through to the handler.
        case get, head, post, put, delete, options, patch
    }

    private(set) var method = Method.get
    /// HTTP/1.x's minor version.
    private(set) var minorVersion = 1
    /// The target up to `?` or `#`.
    private(set) var path: [UInt8] = []
    /// nil without a `Content-Length` field; saturated one past any limit.
    private(set) var contentLength: Int?
    private(set) var isChunked = false
    private var transferEncodingCount = 0
    /// Each `Authorization` value (at most two kept: two are already invalid).
    private(set) var authorizationValues: [[UInt8]] = []
    private(set) var requestID: [UInt8]?
    /// The last field was `Content-Length` or `Transfer-Encoding` (for an obs-fold after it).
    private var lastFieldFrames = false

    mutating func reset() {
        method = .get
        minorVersion = 1
        path.removeAll(keepingCapacity: true)
        contentLength = nil
        isChunked = false
        transferEncodingCount = 0
        if !authorizationValues.isEmpty { authorizationValues.removeAll() }
        requestID = nil
        lastFieldFrames = false
    }

    /// Whether a body follows the head.
    var hasBody: Bool { isChunked || (contentLength ?? 0) > 0 }

    var methodName: String {
        switch method {
        case .get: "GET"
        case .head: "HEAD"
        case .post: "POST"
        case .put: "PUT"
        case .delete: "DELETE"
        case .options: "OPTIONS"
        case .patch: "PATCH"
        }
    }

    // MARK: The request line

    /// `method SP request-target SP HTTP/1.x`, nothing more (RFC 9112 section 3).
    mutating func takeRequestLine(_ line: UnsafeBufferPointer<UInt8>) -> TransportRejection? {
        guard let firstSpace = RequestFramer.firstIndex(of: 0x20, in: line), firstSpace > 0 else {
            return .badRequest(detail: "the request line is not method, target and version")
        }
        let afterMethod = UnsafeBufferPointer(rebasing: line[(firstSpace + 1)...])
        guard let secondSpace = RequestFramer.firstIndex(of: 0x20, in: afterMethod), secondSpace > 0 else {
            return .badRequest(detail: "the request line is not method, target and version")
        }
        let methodBytes = UnsafeBufferPointer(rebasing: line[..<firstSpace])
        let target = UnsafeBufferPointer(rebasing: afterMethod[..<secondSpace])
        let version = UnsafeBufferPointer(rebasing: afterMethod[(secondSpace + 1)...])
        guard Self.isToken(methodBytes) else {
            return .badRequest(detail: "the method is not a token")
        }
        guard version.count == 8, version.starts(with: Self.httpSlashOneDot),
            version[7] == 0x30 || version[7] == 0x31
        else {
            return .badRequest(detail: "the version is neither HTTP/1.1 nor HTTP/1.0")
        }
        minorVersion = Int(version[7] &- 0x30)
        // Origin form ("/path?query") or "*"; evhttp's URI parser takes
        // both as they are. Absolute form and "//" (an authority to evhttp)
        // are refused.
        let isAsterisk = target.count == 1 && target[0] == 0x2A
        guard isAsterisk || (target[0] == 0x2F && (target.count == 1 || target[1] != 0x2F)) else {
            return .badRequest(detail: "the request target is not a path")
        }
        var pathEnd = target.count
        for index in target.indices {
            let byte = target[index]
            guard byte > 0x20 && byte < 0x7F else {
                return .badRequest(detail: "the request target has a byte outside visible ASCII")
            }
            if (byte == 0x3F || byte == 0x23) && pathEnd == target.count { pathEnd = index }
        }
        path.append(contentsOf: UnsafeBufferPointer(rebasing: target[..<pathEnd]))
        guard let known = Self.method(methodBytes) else {
            return .notImplemented(detail: "the method is not one this server implements")
        }
        method = known
        return nil
    }

    private static let httpSlashOneDot: [UInt8] = Array("HTTP/1.".utf8)

    private static func method(_ bytes: UnsafeBufferPointer<UInt8>) -> Method? {
        switch bytes.count {
        case 3:
            if bytes.elementsEqual("GET".utf8) { return .get }
            if bytes.elementsEqual("PUT".utf8) { return .put }
        case 4:
            if bytes.elementsEqual("POST".utf8) { return .post }
            if bytes.elementsEqual("HEAD".utf8) { return .head }
        case 5:
            if bytes.elementsEqual("PATCH".utf8) { return .patch }
        case 6:
            if bytes.elementsEqual("DELETE".utf8) { return .delete }
        case 7:
            if bytes.elementsEqual("OPTIONS".utf8) { return .options }
        default:
            break
        }
        // TRACE and CONNECT (evhttp never reads their bodies) and unknown methods.
        return nil
    }

    // MARK: Header fields

    /// `name: value`, the name a token right before the colon (RFC 9112 section 5).
    mutating func takeField(_ line: UnsafeBufferPointer<UInt8>) -> TransportRejection? {
        let name: UnsafeBufferPointer<UInt8>
        let value: UnsafeBufferPointer<UInt8>
        switch Self.split(line, afterFramingField: lastFieldFrames) {
        case .refused(let rejection): return rejection
        case .parts(let fieldName, let fieldValue): (name, value) = (fieldName, fieldValue)
        }
        let kind = Self.fieldKind(name)
        lastFieldFrames = kind == .contentLength || kind == .transferEncoding
        switch kind {
        case .contentLength:
            guard contentLength == nil else {
                return .badFraming(detail: "the request has more than one Content-Length field")
            }
            guard !value.isEmpty, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return .badFraming(detail: "Content-Length is not a decimal number")
            }
            var length = 0
            for digit in value {
                // Saturates: any length past the limits is refused the same way.
                length = min(length * 10 + Int(digit &- 0x30), Int(Int32.max))
            }
            contentLength = length
        case .transferEncoding:
            transferEncodingCount += 1
            guard transferEncodingCount == 1 else {
                return .badFraming(detail: "the request has more than one Transfer-Encoding field")
            }
            guard !value.isEmpty else { return .badFraming(detail: "Transfer-Encoding is empty") }
            guard Self.equalsLowercased(value, "chunked") else {
                return .notImplemented(detail: "the only transfer coding implemented is chunked alone")
            }
            isChunked = true
        case .expect:
            guard Self.equalsLowercased(value, "100-continue") else { return .expectationFailed }
        case .authorization:
            if authorizationValues.count < 2 { authorizationValues.append(Array(value)) }
        case .requestID:
            if requestID == nil { requestID = Array(value) }
        case .other:
            break
        }
        return nil
    }

    /// A trailer field: the syntax of a header field, and none of the framing
    /// ones (RFC 9110 section 6.5.1). Its value is not kept.
    func takeTrailer(_ line: UnsafeBufferPointer<UInt8>) -> TransportRejection? {
        switch Self.split(line, afterFramingField: false) {
        case .refused(let rejection):
            return rejection
        case .parts(let name, _):
            let kind = Self.fieldKind(name)
            return kind == .contentLength || kind == .transferEncoding
                ? .badFraming(detail: "a trailer field carries framing") : nil
        }
    }

    private enum FieldLine {
        case parts(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>)
        case refused(TransportRejection)
    }

    /// A field line's name and its value without the whitespace around it.
    private static func split(_ line: UnsafeBufferPointer<UInt8>, afterFramingField: Bool)
        -> FieldLine
    {
        if line[0] == 0x20 || line[0] == 0x09 {
            return .refused(
                afterFramingField
                    ? .badFraming(detail: "a framing field is folded over two lines")
                    : .badRequest(detail: "a header field is folded over two lines (obs-fold)"))
        }
        guard let colon = RequestFramer.firstIndex(of: 0x3A, in: line) else {
            return .refused(.badRequest(detail: "a header field has no colon"))
        }
        let name = UnsafeBufferPointer(rebasing: line[..<colon])
        guard isToken(name) else {
            var trimmed = name
            while let last = trimmed.last, last == 0x20 || last == 0x09 {
                trimmed = UnsafeBufferPointer(rebasing: trimmed.dropLast())
            }
            let kind = fieldKind(trimmed)
            return .refused(
                kind == .contentLength || kind == .transferEncoding
                    ? .badFraming(detail: "a framing field has whitespace before its colon")
                    : .badRequest(detail: "a header field name is not a token"))
        }
        guard let value = fieldValue(UnsafeBufferPointer(rebasing: line[(colon + 1)...])) else {
            return .refused(.badRequest(detail: "a header field value has a control character"))
        }
        return .parts(name: name, value: value)
    }

    /// The checks that need the whole head.
    func framingRejection(maxBodyBytes: Int) -> TransportRejection? {
        if isChunked && contentLength != nil {
            return .badFraming(detail: "the request has both Content-Length and Transfer-Encoding")
        }
        if isChunked && minorVersion == 0 {
            return .badFraming(detail: "Transfer-Encoding is not HTTP/1.0")
        }
        if method == .head && hasBody {
            // evhttp never reads a body on HEAD: it would be parsed as a request.
            return .badFraming(detail: "a HEAD request has a body")
        }
        if let contentLength, contentLength > maxBodyBytes {
            return .bodyTooLarge(maxBytes: maxBodyBytes)
        }
        return nil
    }

    // MARK: Bytes

    private enum FieldKind: Equatable {
        case contentLength, transferEncoding, expect, authorization, requestID, other
    }

    /// Most names differ in length from these and are never compared.
    private static func fieldKind(_ name: UnsafeBufferPointer<UInt8>) -> FieldKind {
        switch name.count {
        case 14: equalsLowercased(name, "content-length") ? .contentLength : .other
        case 17: equalsLowercased(name, "transfer-encoding") ? .transferEncoding : .other
        case 6: equalsLowercased(name, "expect") ? .expect : .other
        case 13: equalsLowercased(name, "authorization") ? .authorization : .other
        case 12: equalsLowercased(name, "x-request-id") ? .requestID : .other
        default: .other
        }
    }

    /// The value without the whitespace around it; nil when it holds a
    /// control character other than HTAB (a CR, a NUL, ...).
    private static func fieldValue(_ raw: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        var start = 0
        var end = raw.count
        while start < end && (raw[start] == 0x20 || raw[start] == 0x09) { start += 1 }
        while end > start && (raw[end - 1] == 0x20 || raw[end - 1] == 0x09) { end -= 1 }
        for index in start..<end {
            let byte = raw[index]
            if (byte < 0x20 && byte != 0x09) || byte == 0x7F { return nil }
        }
        return UnsafeBufferPointer(rebasing: raw[start..<end])
    }

    /// `bytes` equals `lowercase` (ASCII lower case) ignoring ASCII case.
    private static func equalsLowercased(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = lowercase.utf8Start
        for index in 0..<bytes.count {
            let byte = bytes[index]
            let folded = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            if folded != expected[index] { return false }
        }
        return true
    }

    /// RFC 9110's token: one or more tchar.
    static func isToken(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        for byte in bytes where !isTokenCharacter(byte) { return false }
        return true
    }

    /// tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." /
    ///         "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA, as a bit set.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        // Bits 0x00-0x3F and 0x40-0x7F of the set.
        let low: UInt64 = 0x03FF_6CFA_0000_0000
        let high: UInt64 = 0x57FF_FFFF_C7FF_FFFE
        switch byte {
        case 0..<64: return (low >> UInt64(byte)) & 1 == 1
        case 64..<128: return (high >> UInt64(byte &- 64)) & 1 == 1
        default: return false
        }
    }
}
