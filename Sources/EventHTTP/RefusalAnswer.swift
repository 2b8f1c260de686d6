import HTTPCore

/// The bytes of an answer the adapter writes itself, on a connection it has
/// taken from evhttp to refuse a request: the status line, the handler's
/// header fields, `Date`, `Content-Length`, `Connection: close`, and the body
/// (none for a HEAD request). Always HTTP/1.1.
enum RefusalAnswer {
    static func bytes(for response: HTTPResponse, toHEAD isHEAD: Bool, date: UnsafePointer<CChar>?) -> [UInt8] {
        let status = (100...599).contains(response.status) ? response.status : 500
        var out: [UInt8] = []
        out.reserveCapacity(256 + response.body.count)
        append("HTTP/1.1 ", to: &out)
        append(String(status), to: &out)
        out.append(0x20)
        let reason = HTTPStatus.reasonPhrase(status)
        out.append(contentsOf: UnsafeBufferPointer(start: reason.utf8Start, count: reason.utf8CodeUnitCount))
        append("\r\n", to: &out)
        for (name, value) in response.headers {
            switch name.lowercased() {
            case "connection", "content-length", "transfer-encoding", "date": continue
            default: break
            }
            // As evhttp does: no field whose name or value could end the line.
            guard !name.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x3A }),
                !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A })
            else { continue }
            append(name, to: &out)
            append(": ", to: &out)
            append(value, to: &out)
            append("\r\n", to: &out)
        }
        if let date {
            append("Date: ", to: &out)
            append(String(cString: date), to: &out)
            append("\r\n", to: &out)
        }
        append("Content-Length: ", to: &out)
        append(String(response.body.count), to: &out)
        append("\r\nConnection: close\r\n\r\n", to: &out)
        if !isHEAD { out.append(contentsOf: response.body) }
        return out
    }

    private static func append(_ text: String, to out: inout [UInt8]) {
        out.append(contentsOf: text.utf8)
    }
}
