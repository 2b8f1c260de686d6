import CLibevent
import HTTPCore

/// Hands an `HTTPResponse` to evhttp as the reply to its request: header
/// fields, the `Date` and `Content-Length` evhttp would otherwise format
/// itself, the body, and the status line. One per event-loop thread.
struct ReplyWriter {
    private var dateField = DateField()

    /// Sends `response`; `closingConnection` adds `Connection: close` (the
    /// server is draining).
    mutating func send(_ response: HTTPResponse, for request: OpaquePointer, closingConnection: Bool) {
        let status = (100...599).contains(response.status) ? response.status : 500
        if let headers = evhttp_request_get_output_headers(request) {
            var hasFraming = false
            var hasDate = false
            for header in response.headers {
                // withCString lends a native string's own bytes; passing the
                // String straight to C would copy it into a new array each time.
                header.name.withCString { name in
                    header.value.withCString { value in
                        // evhttp refuses names and values with CR or LF (no header injection).
                        _ = evhttp_add_header(headers, name, value)
                    }
                }
                // Fields evhttp would add are not added twice. Most names
                // differ in length from these and need no lowercasing.
                switch header.name.utf8.count {
                case 4: hasDate = hasDate || header.name.lowercased() == "date"
                case 14: hasFraming = hasFraming || header.name.lowercased() == "content-length"
                case 17: hasFraming = hasFraming || header.name.lowercased() == "transfer-encoding"
                default: break
                }
            }
            // Added here so evhttp does not: it formats both with snprintf per reply.
            if !hasDate {
                dateField.withCurrentValue { date in
                    if let date { _ = evhttp_add_header(headers, "Date", date) }
                }
            }
            // Where evhttp would add Content-Length (a reply that has content),
            // and also for HTTP/1.0 without keep-alive, where it is harmless.
            if !hasFraming && status >= 200 && status != 204 && status != 304
                && evhttp_request_get_command(request) != EVHTTP_REQ_HEAD
            {
                Self.withDecimal(response.body.count) { _ = evhttp_add_header(headers, "Content-Length", $0) }
            }
            if closingConnection {
                _ = evhttp_remove_header(headers, "Connection")
                _ = evhttp_add_header(headers, "Connection", "close")
            }
        }
        if let output = evhttp_request_get_output_buffer(request), !response.body.isEmpty {
            response.body.withUnsafeBytes { bytes in
                _ = evbuffer_add(output, bytes.baseAddress, bytes.count)
            }
        }
        let reason = HTTPStatus.reasonPhrase(status)
        reason.utf8Start.withMemoryRebound(to: CChar.self, capacity: reason.utf8CodeUnitCount + 1) {
            evhttp_send_reply(request, Int32(status), $0, nil)
        }
    }

    /// `value` in decimal, NUL-terminated, without snprintf.
    private static func withDecimal<Result>(_ value: Int, _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 24) { digits in
            var remaining = UInt(max(0, value))
            var index = 23
            digits[index] = 0
            repeat {
                index -= 1
                digits[index] = CChar(0x30 + remaining % 10)
                remaining /= 10
            } while remaining > 0
            return body(UnsafePointer(digits.baseAddress! + index))
        }
    }
}
