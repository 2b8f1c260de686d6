import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

/// A strict reader of one request's framing, fed the bytes of a connection
/// as they arrive (docs/adr/0016-request-framing.md): the only reading of
/// where a request and its body end.
///
/// Lenient framing rules are where smuggling lives (taking the first of two
/// `Content-Length` fields, reading `Transfer-Encoding: xchunked` as no
/// body, accepting `0x` chunk sizes, ...). The framer sees every byte of a
/// head and of a chunked body, accepts exactly one way of framing a body,
/// and otherwise says why the request is refused, so the adapter answers it
/// before reading further. It knows no route, token or problem code.
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
        /// being fed; a `Content-Length` body is counted by length. (The two
        /// facts the adapter acts on come along, so it need not copy `head`.)
        case headComplete(hasBody: Bool, isChunked: Bool)
        /// A chunked body (trailers included) ended.
        case bodyComplete
        /// The request is refused; feed it nothing more.
        case refused(TransportRejection)
    }

    /// No payloads: the per-line path compares it as a byte.
    private enum Phase: UInt8 {
        case requestLine
        case fields
        /// In a chunked body: a chunk size's hex digits, then its LF, the
        /// data (`chunkRemaining` bytes of it), its CR and LF.
        case chunkSize
        case chunkSizeLF
        case chunkData
        case chunkDataCR
        case chunkDataLF
        case trailers
        /// The framer has nothing more to read for this request.
        case finished

        var readsLines: Bool { self == .requestLine || self == .fields || self == .trailers }
    }

    let limits: Limits
    private(set) var head: RequestHead
    private var phase = Phase.requestLine
    /// Head (and trailer) bytes so far, line ends included.
    private var headByteCount = 0
    /// The empty lines before the request line (RFC 9112 section 2.2: a
    /// server should ignore at least one): the request's head begins after them.
    private(set) var skippedByteCount = 0
    /// A line that began in an earlier `feed` (its bytes up to now).
    private var partialLine: [UInt8] = []
    private var chunkSizeDigits = 0
    /// Digits a chunk size may have, its leading zeros included.
    private static var maxChunkSizeDigits: Int { 32 }
    private var chunkSize = 0
    private var chunkRemaining = 0
    private var bodyByteCount = 0
    /// The chunked body's chunks so far (the last, empty one not counted).
    private(set) var chunkCount = 0
    /// A chunked body has at most this many chunks: each costs a size line
    /// read twice (here, and when its data is taken), so the count bounds
    /// the work a body of tiny chunks makes the loop do.
    static var maxChunkCount: Int { 1_024 }

    /// `keepsScreeningValues`: keep the path and `Authorization` values for `HTTPHandler.screen`.
    init(limits: Limits, keepsScreeningValues: Bool = false) {
        self.limits = limits
        head = RequestHead(keepsScreeningValues: keepsScreeningValues)
    }

    /// Ready for the next request on the connection; keeps its buffers' storage.
    mutating func reset() {
        head.reset()
        phase = .requestLine
        headByteCount = 0
        skippedByteCount = 0
        // Usually empty: removeAll(keepingCapacity:) is not free even then.
        if !partialLine.isEmpty { partialLine.removeAll(keepingCapacity: true) }
        chunkSizeDigits = 0
        chunkSize = 0
        chunkRemaining = 0
        bodyByteCount = 0
        chunkCount = 0
    }

    /// True once a chunked body has ended (or a head without a chunked body).
    var isFinished: Bool { phase == .finished }

    /// True until the head has ended (also before its first byte).
    var isReadingHead: Bool { phase == .requestLine || phase == .fields }

    /// The head's bytes received so far, line ends included.
    var headBytesReceived: Int { headByteCount + partialLine.count }

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
                guard case .needMore = verdict else { return (offset, verdict) }
            case .chunkSize, .chunkSizeLF, .chunkData, .chunkDataCR, .chunkDataLF:
                let (taken, verdict) = feedChunks(UnsafeBufferPointer(rebasing: bytes[offset...]))
                offset += taken
                guard case .needMore = verdict else { return (offset, verdict) }
            case .finished:
                return (offset, .needMore)
            }
        }
        return (offset, .needMore)
    }

    // MARK: Lines (the head and the trailers)

    private mutating func feedLines(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int, Verdict) {
        guard let base = bytes.baseAddress else { return (0, .needMore) }
        let count = bytes.count
        var offset = 0
        while offset < count {
            let start = base + offset
            let available = count - offset
            guard let found = memchr(start, 0x0A, available) else {
                // No line end yet: keep the start of the line for the next feed.
                if headByteCount + partialLine.count + available > limits.maxHeaderBytes {
                    return (count, .refused(.headersTooLarge(maxBytes: limits.maxHeaderBytes)))
                }
                partialLine.append(contentsOf: UnsafeBufferPointer(start: start, count: available))
                return (count, .needMore)
            }
            let lineLength = UnsafeRawPointer(found) - UnsafeRawPointer(start)
            offset += lineLength + 1
            headByteCount += partialLine.count + lineLength + 1
            if headByteCount > limits.maxHeaderBytes {
                return (offset, .refused(.headersTooLarge(maxBytes: limits.maxHeaderBytes)))
            }
            let outcome: LineOutcome
            if partialLine.isEmpty {
                outcome = takeLine(start, count: lineLength)
            } else {
                partialLine.append(contentsOf: UnsafeBufferPointer(start: start, count: lineLength))
                outcome = partialLine.withUnsafeBufferPointer { takeLine($0.baseAddress!, count: $0.count) }
                partialLine.removeAll(keepingCapacity: true)
            }
            switch outcome {
            case .more:
                if !phase.readsLines { return (offset, .needMore) }
            case .headEnded: return (offset, .headComplete(hasBody: head.hasBody, isChunked: head.isChunked))
            case .bodyEnded: return (offset, .bodyComplete)
            case .refused: return (offset, .refused(head.rejection ?? .badRequest(detail: "the head is malformed")))
            }
        }
        return (offset, .needMore)
    }

    /// One line without its LF (a CR before the LF is still there).
    /// What one line did (a refusal's reason is `head.rejection`): no
    /// payload, so the per-line path moves a byte, not a rejection.
    private enum LineOutcome {
        case more, headEnded, bodyEnded, refused
    }

    private mutating func takeLine(_ line: UnsafePointer<UInt8>, count rawCount: Int) -> LineOutcome {
        let count = rawCount > 0 && line[rawCount - 1] == 0x0D ? rawCount - 1 : rawCount
        switch phase {
        case .requestLine:
            if count == 0 {
                // Counted in the head's bytes, so a stream of them ends at the head limit.
                skippedByteCount += rawCount + 1
                return .more
            }
            guard head.takeRequestLine(line, count: count) else { return .refused }
            phase = .fields
        case .fields:
            if count > 0 {
                return head.takeField(line, count: count) ? .more : .refused
            }
            guard head.checkFraming(maxBodyBytes: limits.maxBodyBytes) else { return .refused }
            phase = head.isChunked ? .chunkSize : .finished
            return .headEnded
        case .trailers:
            if count == 0 {
                phase = .finished
                return .bodyEnded
            }
            return head.takeTrailer(line, count: count) ? .more : .refused
        default:
            break
        }
        return .more
    }

    // MARK: Chunked body (RFC 9112 section 7.1, without extensions)

    private mutating func feedChunks(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int, Verdict) {
        var offset = 0
        while offset < bytes.count {
            switch phase {
            case .chunkData:
                let taken = min(chunkRemaining, bytes.count - offset)
                offset += taken
                chunkRemaining -= taken
                if chunkRemaining == 0 { phase = .chunkDataCR }
                continue
            case .chunkSize:
                let byte = bytes[offset]
                offset += 1
                if let digit = Self.hexValue(byte) {
                    // Leading zeros are part of the number's spelling, not of
                    // its size (RFC 9112 section 7.1: 1*HEXDIG), but a size
                    // line no longer than a 64-bit size needs is all we read.
                    chunkSizeDigits += 1
                    guard chunkSizeDigits <= Self.maxChunkSizeDigits else {
                        return (offset, .refused(.badFraming(detail: "a chunk size has more than 32 digits")))
                    }
                    chunkSize = chunkSize &* 16 &+ digit
                    // Below the body limit (at most Int32.max) it cannot overflow.
                    if bodyByteCount + chunkSize > limits.maxBodyBytes {
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
                chunkCount += 1
                guard chunkCount <= Self.maxChunkCount else {
                    return (
                        offset,
                        .refused(.badFraming(detail: "a chunked body has more than \(Self.maxChunkCount) chunks"))
                    )
                }
                phase = .chunkData
                chunkRemaining = chunkSize
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

    /// The value of a hex digit (a chunk size's), nil for any other byte.
    static func hexValue(_ byte: UInt8) -> Int? {
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
