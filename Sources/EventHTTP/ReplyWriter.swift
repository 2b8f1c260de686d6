import CLibevent
import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

/// Writes an `HTTPResponse` into a connection's output buffer, head and
/// body in one reservation (ADR 0020, ADR 0047). One per event-loop thread.
///
/// The head: the status line in the request's version, the handler's own
/// fields in its order, its request id, then the fields that frame the
/// reply: the handler's `Date`, `Content-Length`, `Transfer-Encoding` and
/// `Connection` where it gave them, else `Date` and `Content-Length` made
/// here (no length where RFC 9112 section 6.3 has no content), and
/// `Connection: close` when the connection ends after this reply, or
/// `Connection: keep-alive` to an HTTP/1.0 client that asked to keep it.
struct ReplyWriter {
    private var dateField = DateField()
    /// The last field of the handler's found sendable and written as its
    /// own: a handler mostly sends the same field (its `Content-Type`, from
    /// a literal) on every reply, and a field equal to it needs no new look.
    private var lastOwnField: (name: String, value: String)?

    /// How a reply ends its exchange.
    struct Exchange {
        var isHEAD: Bool
        /// The request's HTTP/1.x minor version: the reply answers in kind.
        var minorVersion: Int
        /// An HTTP/1.0 request asked to keep the connection.
        var asksToKeepAlive: Bool
        /// The connection ends after this reply whatever the handler says.
        var closes: Bool
    }

    /// Where each of the handler's fields goes.
    private enum Placement: UInt8 {
        /// Not sendable, or a `Connection` field a closing reply replaces.
        case dropped
        /// Written in the handler's order before the request id.
        case own
        /// Written after the request id: `Date`, framing, `Connection`.
        case framing
    }

    /// Writes `response` at the end of `output`; returns whether the
    /// connection closes once it is out (the exchange closes, an HTTP/1.0
    /// client did not ask to keep it, or the handler's `Connection` is
    /// `close`). Out of memory, nothing is written and the write timeout
    /// ends the connection.
    mutating func write(_ response: HTTPResponse, to output: OpaquePointer, exchange: Exchange) -> Bool {
        let status = (100...599).contains(response.status) ? response.status : 500
        let reason = HTTPStatus.reasonPhrase(status)
        // RFC 9112 section 6.3: these replies have no content, and no length.
        let hasContent = !exchange.isHEAD && status >= 200 && status != 204 && status != 304
        var closes = exchange.closes || (exchange.minorVersion == 0 && !exchange.asksToKeepAlive)
        return response.headers.withUnsafeBufferPointer { fields in
            withUnsafeTemporaryAllocation(of: Placement.self, capacity: fields.count) { placement in
                var fieldsByteCount = 0
                var hasDate = false
                var hasFraming = false
                var replacesConnection = exchange.closes
                for index in fields.indices {
                    placement[index] = .dropped
                    let field = fields[index]
                    let isLastOwnField = lastOwnField.map { $0.name == field.name && $0.value == field.value } ?? false
                    guard isLastOwnField || ReplyHead.isSendable(name: field.name, value: field.value) else {
                        continue
                    }
                    let kind = isLastOwnField ? .other : ReplyHead.FieldKind(field.name)
                    switch kind {
                    case .other:
                        placement[index] = .own
                        if !isLastOwnField { lastOwnField = field }
                    case .date: hasDate = true
                    case .framing: hasFraming = true
                    case .connection:
                        // A closing reply says `close` once, in place of the first.
                        if replacesConnection {
                            replacesConnection = false
                            continue
                        }
                        if field.value.lowercased() == "close" { closes = true }
                    }
                    if placement[index] == .dropped { placement[index] = .framing }
                    fieldsByteCount += ReplyHead.fieldByteCount(
                        nameCount: field.name.utf8.count, valueCount: field.value.utf8.count)
                }
                let requestIDByteCount = ReplyHead.requestIDFieldByteCount(response.requestID)
                let bodyByteCount = hasContent ? response.body.count : 0
                let addsLength = !hasFraming && hasContent
                return dateField.withCurrentValue { date -> Bool in
                    let dateByteCount = !hasDate ? date.map { strlen($0) } ?? 0 : 0
                    var byteCount =
                        ReplyHead.statusLineByteCount(reason: reason) + fieldsByteCount + requestIDByteCount + 2
                        + bodyByteCount
                    if dateByteCount > 0 {
                        byteCount += ReplyHead.fieldByteCount(nameCount: 4, valueCount: dateByteCount)
                    }
                    if addsLength {
                        byteCount += ReplyHead.fieldByteCount(
                            nameCount: 14, valueCount: ReplyHead.decimalDigitCount(response.body.count))
                    }
                    let keepsAlive10 = exchange.minorVersion == 0 && !closes
                    if exchange.closes { byteCount += Self.closeFieldByteCount }
                    if keepsAlive10 { byteCount += Self.keepAliveFieldByteCount }
                    // Contiguous space for the whole reply.
                    var extent = iovec()
                    guard evbuffer_reserve_space(output, byteCount, &extent, 1) == 1, let base = extent.iov_base,
                        extent.iov_len >= byteCount
                    else { return closes }
                    var head = ReplyHead(at: base.assumingMemoryBound(to: UInt8.self))
                    head.appendStatusLine(minorVersion: exchange.minorVersion, status: status, reason: reason)
                    for index in fields.indices where placement[index] == .own {
                        head.appendField(name: fields[index].name, value: fields[index].value)
                    }
                    head.appendRequestIDField(response.requestID, measured: requestIDByteCount)
                    for index in fields.indices where placement[index] == .framing {
                        head.appendField(name: fields[index].name, value: fields[index].value)
                    }
                    if dateByteCount > 0, let date {
                        head.append("Date: ")
                        head.append(UnsafeRawPointer(date), count: dateByteCount)
                        head.append("\r\n")
                    }
                    if addsLength {
                        head.append("Content-Length: ")
                        head.appendDecimal(response.body.count)
                        head.append("\r\n")
                    }
                    if exchange.closes { head.append("Connection: close\r\n") }
                    if keepsAlive10 { head.append("Connection: keep-alive\r\n") }
                    head.append("\r\n")
                    if bodyByteCount > 0 {
                        response.body.withUnsafeBytes { head.append($0.baseAddress!, count: bodyByteCount) }
                    }
                    extent.iov_len = byteCount
                    evbuffer_commit_space(output, &extent, 1)
                    return closes
                }
            }
        }
    }

    private static var closeFieldByteCount: Int { ReplyHead.fieldByteCount(nameCount: 10, valueCount: 5) }
    private static var keepAliveFieldByteCount: Int { ReplyHead.fieldByteCount(nameCount: 10, valueCount: 10) }
}
