import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

/// A strict reader of one request's framing, fed the bytes of a connection
/// as they arrive, ahead of evhttp (docs/adr/0012-request-framing.md).
///
/// evhttp decides where a body ends by rules that are lenient where a strict
/// reader refuses (it takes the first of two `Content-Length` fields, reads
/// `Transfer-Encoding: xchunked` as no body, accepts `0x` chunk sizes, ...),
/// and it reads a body before anyone can refuse it. The framer sees every byte
/// of a head and of a chunked body before evhttp does, accepts exactly one way
/// of framing a body, and otherwise says why the request is refused, so the
/// adapter answers it before evhttp reads further. Whatever it accepts, evhttp
/// parses the same way. It knows no route, token or problem code.
///
/// Pure: no libevent, no clock. One per connection, `reset` between requests.
struct RequestFramer {
    struct Limits: Equatable {
        /// The request line and header fields (and trailers), line ends included.
        var maxHeaderBytes: Int
        var maxBodyBytes: Int
    }

    /// What `feed` found.
    enum Verdict: Equatable {
        /// Every byte given was taken; the request goes on.
        case needMore
        /// The head ended; `head` describes it. A chunked body's bytes go on
        /// being fed; a `Content-Length` body is evhttp's to read.
        case headComplete
        /// A chunked body (trailers included) ended.
        case bodyComplete
        /// The request is refused; feed it nothing more.
        case refused(TransportRejection)
    }

    private enum Phase: Equatable {
        case requestLine
        case fields
        /// In a chunked body: a chunk size's hex digits, then its LF.
        case chunkSize
        case chunkSizeLF
        case chunkData(remaining: Int)
        case chunkDataCR
        case chunkDataLF
        case trailers
        /// The framer has nothing more to read for this request.
        case finished
    }

    let limits: Limits
    private(set) var head = RequestHead()
    private var phase = Phase.requestLine
    /// Head (and trailer) bytes so far, line ends included.
    private var headByteCount = 0
    /// A line that began in an earlier `feed` (its bytes up to now).
    private var partialLine: [UInt8] = []
    private var chunkSizeDigits = 0
    private var chunkSize = 0
    private var bodyByteCount = 0

    init(limits: Limits) {
        self.limits = limits
    }

    /// Ready for the next request on the connection; keeps its buffers' storage.
    mutating func reset() {
        head.reset()
        phase = .requestLine
        headByteCount = 0
        partialLine.removeAll(keepingCapacity: true)
        chunkSizeDigits = 0
        chunkSize = 0
        bodyByteCount = 0
    }

    /// True once a chunked body has ended (or a head without a chunked body).
    var isFinished: Bool { phase == .finished }

    /// Reads `bytes`, the next bytes of the connection: returns how many it
    /// took and what it found. Bytes past the head of a request whose body
    /// is not chunked, or past the end of a chunked body, are not taken.
    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) -> (taken: Int, verdict: Verdict) {
        var offset = 0
        while offset < bytes.count {
            switch phase {
            case .requestLine, .fields, .trailers:
                let (taken, verdict) = feedLines(UnsafeBufferPointer(rebasing: bytes[offset...]))
                offset += taken
                if verdict != .needMore { return (offset, verdict) }
            case .chunkSize, .chunkSizeLF, .chunkData, .chunkDataCR, .chunkDataLF:
                let (taken, verdict) = feedChunks(UnsafeBufferPointer(rebasing: bytes[offset...]))
                offset += taken
                if verdict != .needMore { return (offset, verdict) }
            case .finished:
                return (offset, .needMore)
            }
        }
        return (offset, .needMore)
    }

    // MARK: Lines (the head and the trailers)

    private mutating func feedLines(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int, Verdict) {
        var offset = 0
        while offset < bytes.count {
            let rest = UnsafeBufferPointer(rebasing: bytes[offset...])
            guard let lineFeed = Self.firstIndex(of: 0x0A, in: rest) else {
                // No line end yet: keep the start of the line for the next feed.
                if headByteCount + partialLine.count + rest.count > limits.maxHeaderBytes {
                    return (bytes.count, .refused(.headersTooLarge(maxBytes: limits.maxHeaderBytes)))
                }
                partialLine.append(contentsOf: rest)
                return (bytes.count, .needMore)
            }
            offset += lineFeed + 1
            headByteCount += partialLine.count + lineFeed + 1
            if headByteCount > limits.maxHeaderBytes {
                return (offset, .refused(.headersTooLarge(maxBytes: limits.maxHeaderBytes)))
            }
            let verdict: Verdict
            if partialLine.isEmpty {
                verdict = takeLine(UnsafeBufferPointer(rebasing: rest[..<lineFeed]))
            } else {
                partialLine.append(contentsOf: UnsafeBufferPointer(rebasing: rest[..<lineFeed]))
                verdict = partialLine.withUnsafeBufferPointer { takeLine($0) }
                partialLine.removeAll(keepingCapacity: true)
            }
            if verdict != .needMore { return (offset, verdict) }
            if phase != .requestLine && phase != .fields && phase != .trailers { return (offset, .needMore) }
        }
        return (offset, .needMore)
    }

    /// One line without its LF (a CR before the LF is still there).
    private mutating func takeLine(_ raw: UnsafeBufferPointer<UInt8>) -> Verdict {
        var line = raw
        if let last = line.last, last == 0x0D { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
        switch phase {
        case .requestLine:
            if let rejection = head.takeRequestLine(line) { return .refused(rejection) }
            phase = .fields
            return .needMore
        case .fields:
            if line.isEmpty { return endOfHead() }
            if let rejection = head.takeField(line) { return .refused(rejection) }
            return .needMore
        case .trailers:
            if line.isEmpty {
                phase = .finished
                return .bodyComplete
            }
            if let rejection = head.takeTrailer(line) { return .refused(rejection) }
            return .needMore
        default:
            return .needMore
        }
    }

    private mutating func endOfHead() -> Verdict {
        if let rejection = head.framingRejection(maxBodyBytes: limits.maxBodyBytes) { return .refused(rejection) }
        phase = head.isChunked ? .chunkSize : .finished
        return .headComplete
    }

    // MARK: Chunked body (RFC 9112 section 7.1, without extensions)

    private mutating func feedChunks(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int, Verdict) {
        var offset = 0
        while offset < bytes.count {
            switch phase {
            case .chunkData(let remaining):
                let taken = min(remaining, bytes.count - offset)
                offset += taken
                phase = taken == remaining ? .chunkDataCR : .chunkData(remaining: remaining - taken)
                continue
            case .chunkSize:
                let byte = bytes[offset]
                offset += 1
                if let digit = Self.hexValue(byte) {
                    chunkSizeDigits += 1
                    chunkSize = chunkSize &* 16 &+ digit
                    // 15 hex digits cannot overflow; the body limit ends it far sooner.
                    if chunkSizeDigits > 15 || bodyByteCount + chunkSize > limits.maxBodyBytes {
                        return (offset, .refused(.bodyTooLarge(maxBytes: limits.maxBodyBytes)))
                    }
                } else if byte == 0x0D && chunkSizeDigits > 0 {
                    phase = .chunkSizeLF
                } else if byte == 0x3B {
                    return (offset, .refused(.badFraming(detail: "chunk extensions are not accepted")))
                } else {
                    return (offset, .refused(.badFraming(detail: "a chunk size must be hex digits and CRLF")))
                }
            case .chunkSizeLF:
                guard bytes[offset] == 0x0A else {
                    return (offset, .refused(.badFraming(detail: "a chunk size must be hex digits and CRLF")))
                }
                offset += 1
                bodyByteCount += chunkSize
                if chunkSize == 0 {
                    phase = .trailers
                    return (offset, .needMore)
                }
                phase = .chunkData(remaining: chunkSize)
                chunkSize = 0
                chunkSizeDigits = 0
            case .chunkDataCR, .chunkDataLF:
                let expected: UInt8 = phase == .chunkDataCR ? 0x0D : 0x0A
                guard bytes[offset] == expected else {
                    return (offset, .refused(.badFraming(detail: "chunk data must end with CRLF")))
                }
                offset += 1
                phase = phase == .chunkDataCR ? .chunkDataLF : .chunkSize
            default:
                return (offset, .needMore)
            }
        }
        return (offset, .needMore)
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte &- 0x30)
        case 0x41...0x46: Int(byte &- 0x41 &+ 10)
        case 0x61...0x66: Int(byte &- 0x61 &+ 10)
        default: nil
        }
    }

    static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress, !bytes.isEmpty,
            let found = memchr(base, Int32(byte), bytes.count)
        else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
}
