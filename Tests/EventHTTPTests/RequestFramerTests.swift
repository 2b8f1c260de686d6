import HTTPCore
import Testing

@testable import EventHTTP

/// The framer alone, fed bytes as a connection would deliver them.
@Suite struct RequestFramerTests {
    static let limits = RequestFramer.Limits(maxHeaderBytes: 1_024, maxBodyBytes: 4_096)

    /// Feeds `text` in pieces of `pieceSize` bytes until a verdict other than
    /// `needMore`; returns it and the bytes taken in all.
    static func run(_ text: String, pieceSize: Int = .max, framer: inout RequestFramer) -> (
        RequestFramer.Verdict, taken: Int
    ) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let end = pieceSize >= bytes.count - offset ? bytes.count : offset + pieceSize
            let piece = bytes[offset..<end]
            let (taken, verdict) = piece.withUnsafeBufferPointer { framer.feed($0) }
            offset += taken
            if verdict != .needMore || taken < piece.count { return (verdict, offset) }
        }
        return (.needMore, offset)
    }

    static func verdict(_ text: String, pieceSize: Int = .max) -> RequestFramer.Verdict {
        var framer = RequestFramer(limits: limits)
        var (verdict, taken) = run(text, pieceSize: pieceSize, framer: &framer)
        if case .headComplete(_, isChunked: true) = verdict {
            let rest = String(decoding: Array(text.utf8)[taken...], as: UTF8.self)
            verdict = run(rest, pieceSize: pieceSize, framer: &framer).0
        }
        return verdict
    }

    @Test(arguments: [1, 7, Int.max])
    func head_inAnyPieces_completesAtItsBlankLine_andTakesNothingAfter(_ pieceSize: Int) {
        var framer = RequestFramer(limits: Self.limits, keepsScreeningValues: true)
        let head = "POST /body?x=1 HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nX-Request-Id: r-1\r\n\r\n"
        let (verdict, taken) = Self.run(
            head + "hello" + "GET / HTTP/1.1\r\nHost: t\r\n\r\n", pieceSize: pieceSize, framer: &framer)
        #expect(verdict == .headComplete(hasBody: true, isChunked: false))
        #expect(taken == head.utf8.count)
        #expect(framer.isFinished)
        #expect(framer.head.methodName == "POST")
        #expect(String(decoding: framer.head.path, as: UTF8.self) == "/body")
        #expect(framer.head.contentLength == 5)
        #expect(framer.head.requestID.map { String(decoding: $0, as: UTF8.self) } == "r-1")
    }

    @Test func reset_readsTheNextRequestFromScratch() {
        var framer = RequestFramer(limits: Self.limits, keepsScreeningValues: true)
        _ = Self.run("GET /a HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer x\r\n\r\n", framer: &framer)
        framer.reset()
        let (verdict, _) = Self.run("HEAD /b HTTP/1.0\n\n", framer: &framer)
        #expect(verdict == .headComplete(hasBody: false, isChunked: false))
        #expect(framer.head.methodName == "HEAD")
        #expect(framer.head.authorizationValues.isEmpty)
        #expect(String(decoding: framer.head.path, as: UTF8.self) == "/b")
    }

    /// `close` anywhere in a Connection list ends the connection (not only
    /// the exact value); HTTP/1.0 persists only when asked.
    @Test(arguments: [
        ("GET / HTTP/1.1\r\nHost: t\r\nConnection: close, keep-alive\r\n\r\n", true),
        ("GET / HTTP/1.1\r\nHost: t\r\nConnection: keep-alive\r\nConnection: Upgrade ,\tCLOSE\r\n\r\n", true),
        ("GET / HTTP/1.1\r\nHost: t\r\nConnection: keep-alive\r\n\r\n", false),
        ("GET / HTTP/1.1\r\nHost: t\r\nConnection: closed\r\n\r\n", false),
        ("GET / HTTP/1.1\r\nHost: t\r\n\r\n", false),
        ("GET / HTTP/1.0\r\n\r\n", true),
        ("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", false),
        ("GET / HTTP/1.0\r\nConnection: keep-alive, close\r\n\r\n", true),
    ])
    func connectionOptions_closeInTheList_closesTheConnection(_ request: String, closes: Bool) {
        var framer = RequestFramer(limits: Self.limits)
        let (verdict, _) = Self.run(request, framer: &framer)
        #expect(verdict == .headComplete(hasBody: false, isChunked: false))
        #expect(framer.head.closesConnection == closes, "\(request.debugDescription)")
    }

    /// Empty lines before the request line are counted as skipped, so the
    /// request's head is read from its request line.
    @Test func emptyLinesFirst_areSkippedAndCounted() {
        var framer = RequestFramer(limits: Self.limits)
        let (verdict, taken) = Self.run("\r\n\n\r\nGET / HTTP/1.1\r\nHost: t\r\n\r\n", framer: &framer)
        #expect(verdict == .headComplete(hasBody: false, isChunked: false))
        #expect(framer.skippedByteCount == 5)
        #expect(taken == 5 + "GET / HTTP/1.1\r\nHost: t\r\n\r\n".utf8.count)
        framer.reset()
        #expect(framer.skippedByteCount == 0)
    }

    /// Without screening, nothing of the head is copied but what a refusal echoes.
    @Test func withoutScreening_pathAndAuthorizationAreNotKept() {
        var framer = RequestFramer(limits: Self.limits)
        _ = Self.run(
            "GET /a HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer x\r\nX-Request-Id: r\r\n\r\n", framer: &framer)
        #expect(framer.head.path.isEmpty)
        #expect(framer.head.authorizationValues.isEmpty)
        #expect(framer.head.requestID == Array("r".utf8))
    }

    @Test(arguments: [1, 3, Int.max])
    func chunkedBody_inAnyPieces_endsAfterItsTrailers(_ pieceSize: Int) {
        let request =
            "POST /c HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: Chunked\r\n\r\n5\r\nhello\r\nA\r\n0123456789\r\n0\r\nX-T: v\r\n\r\n"
        var framer = RequestFramer(limits: Self.limits)
        let (head, taken) = Self.run(request + "GET", pieceSize: pieceSize, framer: &framer)
        #expect(head == .headComplete(hasBody: true, isChunked: true))
        let rest = String(decoding: Array((request + "GET").utf8)[taken...], as: UTF8.self)
        let (end, bodyTaken) = Self.run(rest, pieceSize: pieceSize, framer: &framer)
        #expect(end == .bodyComplete)
        #expect(taken + bodyTaken == request.utf8.count)
    }

    @Test func chunkedBody_ofMoreThanMaxChunks_isRefusedAtTheChunkPastIt() {
        let head = "POST /c HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
        let chunks = String(repeating: "1\r\na\r\n", count: RequestFramer.maxChunkCount)
        var framer = RequestFramer(limits: RequestFramer.Limits(maxHeaderBytes: 1_024, maxBodyBytes: 1_000_000))
        #expect(Self.run(head, framer: &framer).0 == .headComplete(hasBody: true, isChunked: true))
        #expect(Self.run(chunks, framer: &framer).0 == .needMore)
        #expect(framer.chunkCount == RequestFramer.maxChunkCount)
        var atLimit = framer
        #expect(Self.run("0\r\n\r\n", framer: &atLimit).0 == .bodyComplete)
        #expect(
            Self.run("1\r\na\r\n", framer: &framer).0
                == .refused(.badFraming(detail: "a chunked body has more than 1024 chunks")))
    }

    /// Chunks are counted however the reads cut them: `\r\n1\r\na` read by
    /// read as `1\r\na\r\n`, and `reset` starts the count again.
    @Test func chunkCount_isTheSameWhereverTheReadsEnd() {
        let head = "POST /c HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
        var endingReads = RequestFramer(limits: Self.limits)
        _ = Self.run(head, framer: &endingReads)
        _ = Self.run("1\r\na", framer: &endingReads)
        for _ in 0..<9 { _ = Self.run("\r\n1\r\na", framer: &endingReads) }
        #expect(endingReads.chunkCount == 10)
        var endingLines = RequestFramer(limits: Self.limits)
        _ = Self.run(head, framer: &endingLines)
        for _ in 0..<10 { _ = Self.run("1\r\na\r\n", framer: &endingLines) }
        #expect(endingLines.chunkCount == 10)
        endingReads.reset()
        #expect(endingReads.chunkCount == 0)
    }

    /// Each refused case and the kind of refusal (the cases of docs/adr/0016 and the head's own syntax).
    static let refused: [(id: String, request: String, status: Int)] = [
        ("two-content-lengths", "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n", 400),
        ("content-length-list", "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 1, 1\r\n\r\n", 400),
        ("content-length-plus", "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: +1\r\n\r\n", 400),
        (
            "length-and-chunked",
            "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400
        ),
        ("xchunked", "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: xchunked\r\n\r\n", 501),
        ("gzip-chunked", "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501),
        (
            "two-transfer-encodings",
            "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", 400
        ),
        ("chunked-on-http10", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("space-before-colon", "POST / HTTP/1.1\r\nHost: t\r\nContent-Length : 3\r\n\r\n", 400),
        ("obs-fold", "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding:\r\n chunked\r\n\r\n", 400),
        ("head-with-body", "HEAD / HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\n", 400),
        ("body-over-limit", "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 4097\r\n\r\n", 413),
        ("huge-length", "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999999999999999\r\n\r\n", 413),
        ("trace", "TRACE / HTTP/1.1\r\nHost: t\r\n\r\n", 501),
        ("unknown-method", "BREW / HTTP/1.1\r\nHost: t\r\n\r\n", 501),
        ("expect-other", "POST / HTTP/1.1\r\nHost: t\r\nExpect: 200-ok\r\nContent-Length: 1\r\n\r\n", 417),
        ("no-spaces", "GARBAGE\r\n\r\n", 400),
        ("version-2", "GET / HTTP/2.0\r\n\r\n", 400),
        // RFC 9112 section 3.2.2: absolute form is accepted, but its authority must be the Host.
        ("absolute-form-other-host", "GET http://x/ HTTP/1.1\r\nHost: t\r\n\r\n", 400),
        ("absolute-form-other-port", "GET http://x:81/ HTTP/1.1\r\nHost: x:80\r\n\r\n", 400),
        ("absolute-form-ftp", "GET ftp://x/ HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("absolute-form-userinfo", "GET http://u@x/ HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("absolute-form-no-authority", "GET http:///healthz HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        // RFC 9112 section 3.2: a Host that is not uri-host [":" port].
        ("host-with-space", "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400),
        ("host-with-userinfo", "GET / HTTP/1.1\r\nHost: a@b\r\n\r\n", 400),
        ("host-port-not-digits", "GET / HTTP/1.1\r\nHost: a:8o\r\n\r\n", 400),
        ("host-bad-escape", "GET / HTTP/1.1\r\nHost: a%zz\r\n\r\n", 400),
        ("host-open-bracket", "GET / HTTP/1.1\r\nHost: [::1\r\n\r\n", 400),
        ("double-slash", "GET //x HTTP/1.1\r\nHost: t\r\n\r\n", 400),
        ("nul-in-target", "GET /a\u{0}b HTTP/1.1\r\nHost: t\r\n\r\n", 400),
        ("no-colon", "GET / HTTP/1.1\r\nHost: t\r\nHost\r\n\r\n", 400),
        ("control-in-value", "GET / HTTP/1.1\r\nHost: t\r\nX: a\u{1}b\r\n\r\n", 400),
        ("lone-cr", "GET / HTTP/1.1\r\nHost: t\r\nX: a\rb\r\n\r\n", 400),
        ("head-too-large", "GET / HTTP/1.1\r\nHost: t\r\nX: " + String(repeating: "a", count: 1_100) + "\r\n\r\n", 431),
        ("chunk-0x", "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n0x5\r\nhello\r\n0\r\n\r\n", 400),
        (
            "chunk-extension",
            "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n5;a=b\r\nhello\r\n0\r\n\r\n", 400
        ),
        (
            "chunk-without-crlf", "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello0\r\n\r\n",
            400
        ),
        (
            "chunk-blank-line",
            "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n\r\n0\r\n\r\n", 400
        ),
        (
            "chunks-over-limit",
            "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n800\r\n"
                + String(repeating: "a", count: 2_048)
                + "\r\n801\r\n", 413
        ),
        (
            "chunk-size-overflow",
            "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000000c\r\n", 413
        ),
        (
            "framing-trailer",
            "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nContent-Length: 5\r\n\r\n", 400
        ),
        // RFC 9112 section 3.2: HTTP/1.1 needs exactly one Host, any version at most one.
        ("no-host", "GET / HTTP/1.1\r\n\r\n", 400),
        ("two-hosts", "GET / HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n", 400),
        ("two-hosts-http10", "GET / HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n", 400),
        (
            "chunk-size-33-digits",
            "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n" + String(repeating: "0", count: 32)
                + "5\r\n", 400
        ),
        ("fields-101", "GET / HTTP/1.1\r\nHost: t\r\n" + String(repeating: "a:\r\n", count: 100) + "\r\n", 431),
        (
            "trailers-201",
            "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n"
                + String(repeating: "a:\r\n", count: 201) + "\r\n", 431
        ),
    ]

    @Test(arguments: [
        "host-with-space", "host-with-userinfo", "host-port-not-digits", "absolute-form-other-host",
        "absolute-form-userinfo",
    ])
    func badHost_isRefusedAsInvalidHost(_ id: String) {
        let (_, request, _) = Self.refused.first { $0.id == id }!
        guard case .refused(.invalidHost) = Self.verdict(request) else {
            Issue.record("\(id): not refused as invalidHost")
            return
        }
    }

    @Test(arguments: [
        "example.com", "example.com:8080", "127.0.0.1:80", "[::1]:8080", "[v1.x]", "", "a-b_c~d.e", "%41b",
        "x:", "sub!$&'()*+,;=delims",
    ])
    func validHost_isAccepted(_ host: String) {
        let request = "GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n"
        #expect(Self.verdict(request) == .headComplete(hasBody: false, isChunked: false), "Host: \(host)")
    }

    @Test func absoluteFormTarget_withTheHostsAuthority_isAccepted_andItsPathKept() {
        for (target, host) in [
            ("http://Example.COM:8080/healthz?x=1", "example.com:8080"), ("HTTPS://x/body", "x"),
            ("http://x", "x"),
        ] {
            var framer = RequestFramer(limits: Self.limits, keepsScreeningValues: true)
            let (verdict, _) = Self.run("GET \(target) HTTP/1.1\r\nHost: \(host)\r\n\r\n", framer: &framer)
            #expect(verdict == .headComplete(hasBody: false, isChunked: false), "\(target)")
            let expected = target.hasSuffix("/body") ? "/body" : target.contains("/healthz") ? "/healthz" : ""
            #expect(String(decoding: framer.head.path, as: UTF8.self) == expected, "\(target)")
        }
    }

    @Test(arguments: refused.map(\.id))
    func ambiguousOrMalformedRequest_isRefused_inOnePieceAndByteByByte(_ id: String) {
        let (_, request, status) = Self.refused.first { $0.id == id }!
        for pieceSize in [Int.max, 1] {
            guard case .refused(let rejection) = Self.verdict(request, pieceSize: pieceSize) else {
                Issue.record("\(id) in pieces of \(pieceSize): not refused")
                continue
            }
            #expect(rejection.status == status, "\(id): \(rejection)")
        }
    }

    static let accepted: [(id: String, request: String)] = [
        ("get", "GET / HTTP/1.1\r\nHost: t\r\n\r\n"),
        ("bare-lf", "GET / HTTP/1.1\nHost: t\n\n"),
        ("asterisk", "OPTIONS * HTTP/1.1\r\nHost: t\r\n\r\n"),
        ("leading-zeros", "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 0012\r\n\r\n"),
        ("tab-before-value", "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding:\tchunked\r\n\r\n0\r\n\r\n"),
        ("head-without-body", "HEAD / HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n"),
        ("get-with-body", "GET / HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\n"),
        ("expect-continue", "POST / HTTP/1.1\r\nHost: t\r\nExpect: 100-Continue\r\nContent-Length: 3\r\n\r\n"),
        ("obs-text-value", "GET / HTTP/1.1\r\nHost: t\r\nX: caf\u{e9}\r\n\r\n"),
        ("no-host-http10", "GET / HTTP/1.0\r\n\r\n"),
        // RFC 9112 section 2.2: empty lines before the request line are ignored.
        ("empty-lines-first", "\r\n\n\r\nGET / HTTP/1.1\r\nHost: t\r\n\r\n"),
        // RFC 9112 section 7.1: a chunk size is 1*HEXDIG; leading zeros do not make it larger.
        (
            "chunk-size-leading-zeros",
            "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n000000000000000005\r\nhello\r\n0\r\n\r\n"
        ),
        ("fields-100", "GET / HTTP/1.1\r\nHost: t\r\n" + String(repeating: "a:\r\n", count: 99) + "\r\n"),
    ]

    @Test(arguments: accepted.map(\.id))
    func wellFramedRequest_isAccepted(_ id: String) {
        let request = Self.accepted.first { $0.id == id }!.request
        let verdict = Self.verdict(request)
        switch verdict {
        case .headComplete, .bodyComplete: break
        default: Issue.record("\(id): \(verdict)")
        }
    }
}
