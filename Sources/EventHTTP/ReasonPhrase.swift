/// Reason phrases for the status line (RFC 9110 names); evhttp's own table
/// stops at 417 and predates 9110's names. Static strings: evhttp gets the
/// bytes without a per-reply conversion.
enum ReasonPhrase {
    static func forStatus(_ status: Int) -> StaticString {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        default: status < 300 ? "OK" : status < 500 ? "Client Error" : "Server Error"
        }
    }
}
