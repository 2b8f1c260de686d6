import HTTPCore
import NotificationEngine

/// What a POST body may be labelled as.
///
/// - `Content-Type` `application/json` or any `application/*+json`, with any
///   parameters; a `charset` parameter, if present, must be `utf-8` (JSON has
///   no other encoding, RFC 8259 section 8.1). Compared case-insensitively.
/// - No `Content-Type` at all: treated as JSON. The body is checked as strictly
///   either way, and refusing would only punish clients that forget the header.
/// - `Content-Encoding` other than `identity`: refused (no compressed bodies).
/// Anything else is 415 `unsupported-media-type`.
enum RequestContent {
    static func check(_ request: HTTPRequest) throws(Problem) {
        if let encoding = request.header("content-encoding"), encoding != "identity", !trimmed(encoding).isEmpty,
            trimmed(encoding).lowercased() != "identity"
        {
            throw Problem(
                .unsupportedMediaType, "Content-Encoding is not supported; send the JSON uncompressed",
                headers: [("Accept-Encoding", "identity")])
        }
        guard let contentType = request.header("content-type") else { return }
        // The common spellings skip the general parse below.
        if contentType == "application/json" || contentType == "application/json; charset=utf-8" { return }
        var parts = contentType.split(separator: ";", omittingEmptySubsequences: false).makeIterator()
        let mediaType = trimmed(parts.next() ?? "").lowercased()
        guard isJSON(mediaType) else {
            throw Problem(
                .unsupportedMediaType,
                "Content-Type must be application/json, got \(JSONWriter.quotedForMessage(mediaType))",
                headers: [("Accept-Post", "application/json")])
        }
        while let parameter = parts.next() {
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, trimmed(pair[0]).lowercased() == "charset" else { continue }
            var value = trimmed(pair[1])
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = value.dropFirst().dropLast()
            }
            let charset = value.lowercased()
            guard charset == "utf-8" || charset == "utf8" else {
                throw Problem(
                    .unsupportedMediaType,
                    "the JSON must be UTF-8, got charset \(JSONWriter.quotedForMessage(charset))",
                    headers: [("Accept-Post", "application/json")])
            }
        }
    }

    /// `application/json` or `application/<anything>+json`.
    static func isJSON(_ mediaType: String) -> Bool {
        if mediaType == "application/json" { return true }
        guard mediaType.hasPrefix("application/"), mediaType.hasSuffix("+json") else { return false }
        return mediaType.utf8.count > "application/".utf8.count + "+json".utf8.count
    }

    private static func trimmed<S: StringProtocol>(_ text: S) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        var sub = Substring(text)
        while let first = sub.first, isSpace(first) { sub.removeFirst() }
        while let last = sub.last, isSpace(last) { sub.removeLast() }
        return sub
    }
}
