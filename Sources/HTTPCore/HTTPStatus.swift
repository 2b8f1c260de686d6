/// The one status table: the reason phrase (RFC 9110's names) of every status
/// the service and the adapter answer with.
public enum HTTPStatus {
    /// The phrase of a status the table lists; nil for any other.
    ///
    /// Static strings: the adapter copies their bytes into a reply without a
    /// per-reply conversion.
    public static func listedReasonPhrase(_ status: Int) -> StaticString? {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 417: "Expectation Failed"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        default: nil
        }
    }

    /// The phrase for a status line: the table's, else its class's.
    public static func reasonPhrase(_ status: Int) -> StaticString {
        if let listed = listedReasonPhrase(status) { return listed }
        switch status {
        case ..<200: return "Informational"
        case ..<300: return "OK"
        case ..<400: return "Redirection"
        case ..<500: return "Client Error"
        default: return "Server Error"
        }
    }
}
