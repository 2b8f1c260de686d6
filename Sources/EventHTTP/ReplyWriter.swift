import CLibevent
import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

/// Writes an `HTTPResponse` as the reply to its evhttp request. One per
/// event-loop thread.
///
/// evhttp formats a reply's head itself: a `printf` per line, and a lookup
/// by name for each field it decides from. For the service's four fields
/// that costs more than the rest of the reply (ADR 0020; the figures are in
/// bench/README.md). So evhttp still does its bookkeeping through
/// `evhttp_send_reply` (whether the connection stays open, the callback once
/// the reply is out, reading the next request), but with the end of the
/// connection's output buffer frozen, so that nothing it formats gets there.
/// The reply is then written here in one reservation of the output buffer:
/// the status line, the handler's fields and its request id, the fields on evhttp's list as its
/// bookkeeping left them (`Date`, `Content-Length`, `Connection`), and the
/// body. The `Date` and `Content-Length` made here are `LentFields`, on the
/// list only during `evhttp_send_reply` and this write.
struct ReplyWriter {
    private var dateField = DateField()
    private let lentFields = LentFields()
    /// The last field of the handler's found sendable and written from here:
    /// a handler mostly sends the same field (its `Content-Type`, from a
    /// literal) on every reply, and a field equal to it needs no new look.
    private var lastOwnField: (name: String, value: String)?

    /// Sends `response`; `minorVersion` is the request's (HTTP/1.0 is
    /// answered in kind), and `closingConnection` adds `Connection: close`
    /// (the server is draining).
    mutating func send(
        _ response: HTTPResponse, for request: OpaquePointer, minorVersion: Int, closingConnection: Bool
    ) {
        let status = (100...599).contains(response.status) ? response.status : 500
        let reason = HTTPStatus.reasonPhrase(status)
        guard let connection = evhttp_request_get_connection(request),
            let bufferEvent = evhttp_connection_get_bufferevent(connection),
            let output = bufferevent_get_output(bufferEvent),
            let evhttpFields = evhttp_request_get_output_headers(request)
        else {
            // The connection is gone: evhttp frees the request and writes nothing.
            Self.sendReply(request, status: status, reason: reason)
            return
        }
        let isHEAD = evhttp_request_get_command(request) == EVHTTP_REQ_HEAD
        // RFC 9112 section 6.3: these replies have no content, and no length.
        let hasContent = !isHEAD && status >= 200 && status != 204 && status != 304

        response.headers.withUnsafeBufferPointer { fields in
            // Which of the handler's fields are written from here (sendable,
            // and not one evhttp decides from): known after one look at each.
            withUnsafeTemporaryAllocation(of: Bool.self, capacity: fields.count) { isOwnField in
                var ownFieldsByteCount = 0
                var hasDate = false
                var hasFraming = false
                for index in fields.indices {
                    isOwnField[index] = false
                    let isLastOwnField =
                        lastOwnField.map { $0.name == fields[index].name && $0.value == fields[index].value } ?? false
                    if !isLastOwnField {
                        guard ReplyHead.isSendable(name: fields[index].name, value: fields[index].value) else {
                            continue
                        }
                    }
                    let kind = isLastOwnField ? .other : ReplyHead.FieldKind(fields[index].name)
                    if kind == .other {
                        isOwnField[index] = true
                        ownFieldsByteCount += ReplyHead.fieldByteCount(
                            nameCount: fields[index].name.utf8.count, valueCount: fields[index].value.utf8.count)
                        if !isLastOwnField { lastOwnField = fields[index] }
                        continue
                    }
                    // The fields evhttp decides from go on its list.
                    fields[index].name.withCString { name in
                        fields[index].value.withCString { value in _ = evhttp_add_header(evhttpFields, name, value) }
                    }
                    hasDate = hasDate || kind == .date
                    hasFraming = hasFraming || kind == .framing
                }
                let requestIDByteCount = ReplyHead.requestIDFieldByteCount(response.requestID)
                ownFieldsByteCount += requestIDByteCount
                // evhttp would add these itself (gmtime and snprintf) if they
                // were missing; lent, they are back off its list before this returns.
                if !hasDate {
                    dateField.withCurrentValue { date in
                        if let date { lentFields.lendDate(date, to: evhttpFields) }
                    }
                }
                if !hasFraming && hasContent {
                    lentFields.lendContentLength(response.body.count, to: evhttpFields)
                }
                defer { lentFields.takeBack(from: evhttpFields) }
                if closingConnection {
                    _ = evhttp_remove_header(evhttpFields, "Connection")
                    _ = evhttp_add_header(evhttpFields, "Connection", "close")
                }

                // evhttp's bookkeeping. It adds `Connection: close` to its list
                // when the request asked for it, and `Connection: keep-alive`
                // for an HTTP/1.0 keep-alive; the head it formats is refused by
                // the frozen buffer (evhttp ignores a failed add).
                evbuffer_freeze(output, 0)
                Self.sendReply(request, status: status, reason: reason)
                evbuffer_unfreeze(output, 0)

                let bodyByteCount = hasContent ? response.body.count : 0
                var byteCount =
                    ReplyHead.statusLineByteCount(reason: reason) + ownFieldsByteCount + 2 + bodyByteCount
                Self.forEachField(of: evhttpFields, lent: lentFields) { _, nameCount, _, valueCount in
                    byteCount += ReplyHead.fieldByteCount(nameCount: nameCount, valueCount: valueCount)
                }
                // Contiguous space for the whole reply. Without it (out of
                // memory) nothing is sent and the connection's timeouts close
                // it, as when an add of evhttp's fails.
                var extent = iovec()
                guard evbuffer_reserve_space(output, byteCount, &extent, 1) == 1, let base = extent.iov_base,
                    extent.iov_len >= byteCount
                else { return }
                var head = ReplyHead(at: base.assumingMemoryBound(to: UInt8.self))
                head.appendStatusLine(minorVersion: minorVersion, status: status, reason: reason)
                for index in fields.indices where isOwnField[index] {
                    head.appendField(name: fields[index].name, value: fields[index].value)
                }
                head.appendRequestIDField(response.requestID, measured: requestIDByteCount)
                Self.forEachField(of: evhttpFields, lent: lentFields) { name, nameCount, value, valueCount in
                    head.appendField(name: name, nameCount: nameCount, value: value, valueCount: valueCount)
                }
                head.append("\r\n")
                if bodyByteCount > 0 {
                    response.body.withUnsafeBytes { head.append($0.baseAddress!, count: bodyByteCount) }
                }
                extent.iov_len = byteCount
                evbuffer_commit_space(output, &extent, 1)
            }
        }
    }

    private static func sendReply(_ request: OpaquePointer, status: Int, reason: StaticString) {
        reason.utf8Start.withMemoryRebound(to: CChar.self, capacity: reason.utf8CodeUnitCount + 1) {
            evhttp_send_reply(request, Int32(status), $0, nil)
        }
    }

    /// Each field on evhttp's list with its name's and value's lengths (the
    /// lent ones' known, the others' measured).
    private static func forEachField(
        of list: UnsafeMutablePointer<evkeyvalq>, lent: LentFields,
        _ body: (UnsafePointer<CChar>, Int, UnsafePointer<CChar>, Int) -> Void
    ) {
        var entry = clibevent_header_first(list)
        while let current = entry {
            if let name = current.pointee.key, let value = current.pointee.value {
                if let counts = lent.byteCounts(of: current) {
                    body(name, counts.name, value, counts.value)
                } else {
                    body(name, strlen(name), value, strlen(value))
                }
            }
            entry = clibevent_header_next(current)
        }
    }
}
