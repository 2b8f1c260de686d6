import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

/// What `RequestFramer` keeps of a request's head: the framing it declares,
/// and the few values the adapter needs before the request is whole (to
/// screen it, to answer a refusal, to decide the connection's keep-alive).
/// Reused from request to request.
///
/// Every request's head passes through here, so lines are read through raw
/// pointers, one pass over each byte, without slices or allocations (the
/// values kept are copied only when `keepsScreeningValues` or when present).
struct RequestHead {
    enum Method: Equatable {
        /// The methods that reach the handler (which answers 405 for a route's others).
        case get, head, post, put, delete, options, patch
    }

    /// Whether the path and the `Authorization` values are kept (the handler screens heads).
    let keepsScreeningValues: Bool
    private(set) var method = Method.get
    /// HTTP/1.x's minor version.
    private(set) var minorVersion = 1
    /// The target up to `?` or `#` (kept with `keepsScreeningValues` only).
    private(set) var path: [UInt8] = []
    /// nil without a `Content-Length` field; saturated one past any limit.
    private(set) var contentLength: Int?
    private(set) var isChunked = false
    private var hasTransferEncoding = false
    /// Each `Authorization` value (at most two kept: two are already invalid).
    private(set) var authorizationValues: [[UInt8]] = []
    private(set) var requestID: [UInt8]?
    /// How many `Host` fields the head has (RFC 9112 section 3.2: exactly one).
    private var hostFieldCount = 0
    /// An absolute-form target's authority (RFC 9112 section 3.2.2), which
    /// the `Host` field must equal; nil for an origin-form target.
    private var targetAuthority: [UInt8]?
    /// Header fields and trailer fields so far.
    private var fieldCount = 0
    /// At most this many fields in a head, and as many trailers: what
    /// nginx's default buffers hold in practice. Each field costs the
    /// request's value a name and a value string, so the count bounds a
    /// head's CPU as `--max-header-bytes` bounds its memory.
    static var maxFieldCount: Int { 100 }
    /// A `Connection` field lists `close`: the reply closes the connection.
    private(set) var asksToClose = false
    /// A `Connection` field lists `keep-alive` (HTTP/1.0's persistence).
    private(set) var asksToKeepAlive = false
    /// An `Expect: 100-continue` field: the client may wait for `100 Continue` before its body.
    private(set) var expectsContinue = false
    /// The last field was `Content-Length` or `Transfer-Encoding` (for an obs-fold after it).
    private var lastFieldFrames = false
    /// Why the last `take…` or `checkFraming` that returned false refused the request.
    private(set) var rejection: TransportRejection?

    init(keepsScreeningValues: Bool = false) {
        self.keepsScreeningValues = keepsScreeningValues
    }

    mutating func reset() {
        method = .get
        minorVersion = 1
        if !path.isEmpty { path.removeAll(keepingCapacity: true) }
        contentLength = nil
        isChunked = false
        hasTransferEncoding = false
        if !authorizationValues.isEmpty { authorizationValues.removeAll() }
        requestID = nil
        hostFieldCount = 0
        targetAuthority = nil
        fieldCount = 0
        asksToClose = false
        asksToKeepAlive = false
        expectsContinue = false
        lastFieldFrames = false
        rejection = nil
    }

    /// Records why the request is refused; always false, for `return refuse(…)`.
    private mutating func refuse(_ reason: TransportRejection) -> Bool {
        rejection = reason
        return false
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
    mutating func takeRequestLine(_ line: UnsafePointer<UInt8>, count: Int) -> Bool {
        // The method up to the first space: only the methods below are
        // known, and they are tokens; anything else is not implemented.
        guard let firstSpace = memchr(line, 0x20, count) else {
            return refuse(.badRequest(detail: "the request line is not method, target and version"))
        }
        let methodEnd = UnsafeRawPointer(firstSpace) - UnsafeRawPointer(line)
        // The target: visible ASCII up to the second space. Origin form
        // ("/path?query"), "*", or absolute form ("http://host/path", which
        // a server must accept: RFC 9112 section 3.2.2); "//" (an
        // authority to a URI parser) is refused.
        let targetStart = methodEnd + 1
        guard methodEnd > 0, let secondSpace = memchr(line + targetStart, 0x20, count - targetStart) else {
            return refuse(.badRequest(detail: "the request line is not method, target and version"))
        }
        let targetEnd = UnsafeRawPointer(secondSpace) - UnsafeRawPointer(line)
        let targetCount = targetEnd - targetStart
        guard targetCount > 0, Self.isVisibleASCII(line + targetStart, count: targetCount) else {
            return refuse(.badRequest(detail: "the request target is not visible ASCII"))
        }
        let first = line[targetStart]
        let isAsterisk = first == 0x2A && targetCount == 1
        var pathStart = targetStart
        if first != 0x2F && !isAsterisk {
            guard let authorityEnd = takeAbsoluteForm(line + targetStart, count: targetCount) else { return false }
            pathStart = targetStart + authorityEnd
        } else if !isAsterisk && targetCount > 1 && line[targetStart + 1] == 0x2F {
            return refuse(.badRequest(detail: "the request target is not a path"))
        }
        // The version: exactly "HTTP/1.1" or "HTTP/1.0".
        let versionStart = targetEnd + 1
        guard count - versionStart == 8,
            UnsafeRawPointer(line + versionStart).loadUnaligned(as: UInt64.self) & Self.versionMask
                == Self.versionPrefix,
            line[versionStart + 7] == 0x31 || line[versionStart + 7] == 0x30
        else {
            return refuse(.badRequest(detail: "the version is neither HTTP/1.1 nor HTTP/1.0"))
        }
        minorVersion = Int(line[versionStart + 7] &- 0x30)
        if keepsScreeningValues {
            var pathEnd = targetEnd
            for index in pathStart..<targetEnd where line[index] == 0x3F || line[index] == 0x23 {
                pathEnd = index
                break
            }
            path.append(contentsOf: UnsafeBufferPointer(start: line + pathStart, count: pathEnd - pathStart))
        }
        guard let known = Self.method(line, count: methodEnd) else {
            // TRACE and CONNECT (no route has them) and unknown methods.
            return refuse(.notImplemented(detail: "the method is not one this server implements"))
        }
        method = known
        return true
    }

    /// An absolute-form target, `http://` or `https://` (any case), an
    /// authority without userinfo, then a path, a query or nothing: keeps
    /// the authority and returns where it ends in `target`; nil (refused)
    /// for anything else.
    private mutating func takeAbsoluteForm(_ target: UnsafePointer<UInt8>, count: Int) -> Int? {
        var authorityStart = 0
        if count > 7 && Self.foldedEquals(target, 7, "http://") {
            authorityStart = 7
        } else if count > 8 && Self.foldedEquals(target, 8, "https://") {
            authorityStart = 8
        } else {
            _ = refuse(.badRequest(detail: "the request target is not a path or an http URI"))
            return nil
        }
        var authorityEnd = authorityStart
        while authorityEnd < count && target[authorityEnd] != 0x2F && target[authorityEnd] != 0x3F
            && target[authorityEnd] != 0x23
        {
            authorityEnd += 1
        }
        let authority = UnsafeBufferPointer(start: target + authorityStart, count: authorityEnd - authorityStart)
        guard !authority.isEmpty, Self.isValidHost(authority) else {
            _ = refuse(.invalidHost(detail: "the request target's authority is not a host and port"))
            return nil
        }
        targetAuthority = Array(authority)
        return authorityEnd
    }

    /// "HTTP/1." in the first 7 of 8 bytes, as a little-endian load sees them.
    private static let versionPrefix: UInt64 = 0x002E_312F_5054_5448
    private static let versionMask: UInt64 = 0x00FF_FFFF_FFFF_FFFF

    /// A known method's name, followed (as in the request line) by at least one more byte.
    private static func method(_ bytes: UnsafePointer<UInt8>, count: Int) -> Method? {
        let raw = UnsafeRawPointer(bytes)
        func word(_ name: StaticString) -> UInt32 {
            UnsafeRawPointer(name.utf8Start).loadUnaligned(as: UInt32.self)
        }
        switch count {
        case 3:
            // The three bytes and the space after them.
            let first = raw.loadUnaligned(as: UInt32.self)
            return first == word("GET ") ? .get : first == word("PUT ") ? .put : nil
        case 4:
            let first = raw.loadUnaligned(as: UInt32.self)
            return first == word("POST") ? .post : first == word("HEAD") ? .head : nil
        case 5: return memcmp(bytes, "PATCH", 5) == 0 ? .patch : nil
        case 6: return memcmp(bytes, "DELETE", 6) == 0 ? .delete : nil
        case 7: return memcmp(bytes, "OPTIONS", 7) == 0 ? .options : nil
        default: return nil
        }
    }

    // MARK: Header fields

    /// `name: value`, the name visible ASCII right up to the colon (RFC 9112 section 5).
    mutating func takeField(_ line: UnsafePointer<UInt8>, count: Int) -> Bool {
        fieldCount &+= 1
        guard fieldCount <= Self.maxFieldCount else {
            return refuse(.tooManyHeaderFields(maxCount: Self.maxFieldCount))
        }
        var field = Field()
        if let refusal = Self.split(line, count: count, afterFramingField: lastFieldFrames, into: &field) {
            return refuse(refusal)
        }
        let kind = Self.fieldKind(line, count: field.nameEnd)
        guard kind != .other else {
            lastFieldFrames = false
            return true
        }
        let value = UnsafeBufferPointer(start: line + field.valueStart, count: field.valueEnd - field.valueStart)
        lastFieldFrames = kind == .contentLength || kind == .transferEncoding
        switch kind {
        case .contentLength:
            guard contentLength == nil else {
                return refuse(.badFraming(detail: "the request has more than one Content-Length field"))
            }
            guard !value.isEmpty else { return refuse(.badFraming(detail: "Content-Length is not a decimal number")) }
            var length = 0
            for digit in value {
                guard digit >= 0x30 && digit <= 0x39 else {
                    return refuse(.badFraming(detail: "Content-Length is not a decimal number"))
                }
                // Saturates: any length past the limits is refused the same way.
                length = min(length &* 10 &+ Int(digit &- 0x30), Int(Int32.max))
            }
            contentLength = length
        case .transferEncoding:
            guard !hasTransferEncoding else {
                return refuse(.badFraming(detail: "the request has more than one Transfer-Encoding field"))
            }
            hasTransferEncoding = true
            guard !value.isEmpty else { return refuse(.badFraming(detail: "Transfer-Encoding is empty")) }
            guard Self.foldedEquals(value.baseAddress!, value.count, "chunked") else {
                return refuse(.notImplemented(detail: "the only transfer coding implemented is chunked alone"))
            }
            isChunked = true
        case .expect:
            guard !value.isEmpty, Self.foldedEquals(value.baseAddress!, value.count, "100-continue") else {
                return refuse(.expectationFailed)
            }
            expectsContinue = true
        case .authorization:
            if keepsScreeningValues && authorizationValues.count < 2 { authorizationValues.append(Array(value)) }
        case .requestID:
            if requestID == nil { requestID = Array(value) }
        case .host:
            hostFieldCount += 1
            guard Self.isValidHost(value) else {
                return refuse(.invalidHost(detail: "the Host field is not a host and port"))
            }
            if let targetAuthority, !Self.equalIgnoringCase(value, targetAuthority) {
                return refuse(.invalidHost(detail: "the Host field differs from the request target's authority"))
            }
        case .connection:
            noteConnectionOptions(value)
        case .other:
            break
        }
        return true
    }

    /// A trailer field: the syntax of a header field, and none of the framing
    /// ones (RFC 9110 section 6.5.1). Its value is not kept.
    mutating func takeTrailer(_ line: UnsafePointer<UInt8>, count: Int) -> Bool {
        fieldCount &+= 1
        guard fieldCount <= 2 * Self.maxFieldCount else {
            return refuse(.tooManyHeaderFields(maxCount: Self.maxFieldCount))
        }
        var field = Field()
        if let refusal = Self.split(line, count: count, afterFramingField: false, into: &field) {
            return refuse(refusal)
        }
        let kind = Self.fieldKind(line, count: field.nameEnd)
        guard kind != .contentLength && kind != .transferEncoding else {
            return refuse(.badFraming(detail: "a trailer field carries framing"))
        }
        return true
    }

    /// The options of a `Connection` field, a comma-separated list of
    /// tokens (RFC 9110 section 7.6.1): `close` and `keep-alive` are noted.
    private mutating func noteConnectionOptions(_ value: UnsafeBufferPointer<UInt8>) {
        guard let base = value.baseAddress else { return }
        var start = 0
        while start < value.count {
            var end = start
            while end < value.count && value[end] != 0x2C { end += 1 }
            var first = start
            var last = end
            while first < last && (value[first] == 0x20 || value[first] == 0x09) { first += 1 }
            while last > first && (value[last - 1] == 0x20 || value[last - 1] == 0x09) { last -= 1 }
            if Self.foldedEquals(base + first, last - first, "close") { asksToClose = true }
            if Self.foldedEquals(base + first, last - first, "keep-alive") { asksToKeepAlive = true }
            start = end + 1
        }
    }

    /// Whether the connection ends with this request's reply: the request
    /// lists `close`, or it is HTTP/1.0 and does not list `keep-alive`.
    var closesConnection: Bool { asksToClose || (minorVersion == 0 && !asksToKeepAlive) }

    /// The checks that need the whole head.
    mutating func checkFraming(maxBodyBytes: Int) -> Bool {
        // RFC 9112 section 3.2: a 400 for an HTTP/1.1 request without Host,
        // and for any request with more than one.
        if hostFieldCount > 1 {
            return refuse(.badRequest(detail: "the request has more than one Host field"))
        }
        if hostFieldCount == 0 && minorVersion == 1 {
            return refuse(.badRequest(detail: "an HTTP/1.1 request must have a Host field"))
        }
        if isChunked && contentLength != nil {
            return refuse(.badFraming(detail: "the request has both Content-Length and Transfer-Encoding"))
        }
        if isChunked && minorVersion == 0 {
            return refuse(.badFraming(detail: "Transfer-Encoding is not HTTP/1.0"))
        }
        if method == .head && hasBody {
            // A body on HEAD is refused: a reader that skips it would parse it as a request.
            return refuse(.badFraming(detail: "a HEAD request has a body"))
        }
        if let contentLength, contentLength > maxBodyBytes {
            return refuse(.bodyTooLarge(maxBytes: maxBodyBytes))
        }
        return true
    }
}
