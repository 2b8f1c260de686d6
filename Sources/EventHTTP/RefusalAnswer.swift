import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

/// The bytes of an answer the adapter writes itself, on a connection it has
/// taken over to refuse a request: the status line, the handler's
/// header fields and request id, `Date`, `Content-Length`, `Connection: close`, and the body
/// (none for a HEAD request). Always HTTP/1.1.
enum RefusalAnswer {
    static func bytes(for response: HTTPResponse, toHEAD isHEAD: Bool, date: UnsafePointer<CChar>?) -> [UInt8] {
        let status = (100...599).contains(response.status) ? response.status : 500
        let reason = HTTPStatus.reasonPhrase(status)
        // The handler's fields, less the ones written here for it.
        let fields = response.headers.filter { name, value in
            ReplyHead.isSendable(name: name, value: value) && ReplyHead.FieldKind(name) == .other
        }
        let dateByteCount = date.map { strlen($0) } ?? 0
        let body = isHEAD ? [] : response.body
        var byteCount = ReplyHead.statusLineByteCount(reason: reason) + body.count + 2
        for (name, value) in fields {
            byteCount += ReplyHead.fieldByteCount(nameCount: name.utf8.count, valueCount: value.utf8.count)
        }
        let requestIDByteCount = ReplyHead.requestIDFieldByteCount(response.requestID)
        byteCount += requestIDByteCount
        if date != nil { byteCount += ReplyHead.fieldByteCount(nameCount: 4, valueCount: dateByteCount) }
        byteCount += ReplyHead.fieldByteCount(
            nameCount: 14, valueCount: ReplyHead.decimalDigitCount(response.body.count))
        byteCount += ReplyHead.fieldByteCount(nameCount: 10, valueCount: 5)
        return [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initializedCount in
            var head = ReplyHead(at: buffer.baseAddress!)
            head.appendStatusLine(minorVersion: 1, status: status, reason: reason)
            for (name, value) in fields {
                head.appendField(name: name, value: value)
            }
            head.appendRequestIDField(response.requestID, measured: requestIDByteCount)
            if let date {
                head.append("Date: ")
                head.append(UnsafeRawPointer(date), count: dateByteCount)
                head.append("\r\n")
            }
            head.append("Content-Length: ")
            head.appendDecimal(response.body.count)
            head.append("\r\nConnection: close\r\n\r\n")
            body.withUnsafeBytes { if let base = $0.baseAddress { head.append(base, count: $0.count) } }
            initializedCount = head.end - buffer.baseAddress!
        }
    }
}
