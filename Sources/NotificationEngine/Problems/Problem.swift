/// The service's one error type: rendered as RFC 9457 `application/problem+json`
/// with `type`, `title`, `status`, `detail` and the stable `code` member.
package struct Problem: Error, Sendable {
    /// HTTP status; for the service's own codes it is always `code`'s status.
    package var status: Int
    /// Stable machine-readable code (`invalid-json`, `out-of-range`, …).
    package var code: String
    /// Fixed per code.
    package var title: String
    /// This occurrence in words: the field path and what is wrong, never the
    /// caller's message text.
    package var detail: String
    /// The RFC 6901 JSON Pointer to the member at fault (`/notifications/1/timestamp`,
    /// `""` for the body as a whole), written as the extension member `pointer`;
    /// nil for a problem that is not about a member (the JSON text itself,
    /// routing, transport).
    package var pointer: String?
    /// Extra response headers (`Allow` for 405).
    package var headers: [(name: String, value: String)]

    package init(_ code: ProblemCode, _ detail: String, headers: [(name: String, value: String)] = []) {
        self.status = code.status
        self.code = code.rawValue
        self.title = code.title
        self.detail = detail
        self.pointer = nil
        self.headers = headers
    }

    /// A problem about the member at the field path `path` (`notifications[1].timestamp`,
    /// `""` for the whole body): its pointer is derived from the path (`JSONPointer`).
    package init(_ code: ProblemCode, _ detail: String, at path: String) {
        self.init(code, detail)
        pointer = JSONPointer.pointer(fromPath: path)
    }

    /// A problem about the member at `pointer`, an RFC 6901 JSON Pointer
    /// written by the caller (a name the request made up, which a field
    /// path could not carry: `JSONPointer.token`).
    package init(_ code: ProblemCode, _ detail: String, pointer: String) {
        self.init(code, detail)
        self.pointer = pointer
    }

    /// The problem type URI (see `ProblemCode.typeURI`).
    package var typeURI: String { ProblemCode.typeURIPrefix + code }

    /// The `application/problem+json` body.
    package func jsonBody() -> [UInt8] {
        JSONWriter.bytes(capacity: 160 + detail.utf8.count + (pointer?.utf8.count ?? 0)) { json in
            json.raw(#"{"type":"#)
            json.string(typeURI)
            json.raw(#","title":"#)
            json.string(title)
            json.raw(#","status":"#)
            json.integer(status)
            json.raw(#","detail":"#)
            json.string(detail)
            if let pointer {
                json.raw(#","pointer":"#)
                json.string(pointer)
            }
            json.raw(#","code":"#)
            json.string(code)
            json.raw("}")
        }
    }
}

extension Problem {
    /// Maps a parser error to its problem, keeping the byte offset in the detail.
    package init(_ error: JSONParseError) {
        let code: ProblemCode =
            switch error.kind {
            case .syntax: .invalidJSON
            case .invalidUTF8: .invalidUTF8
            case .loneSurrogate: .loneSurrogate
            case .nestingTooDeep: .nestingTooDeep
            case .duplicateName: .duplicateMember
            }
        self.init(code, "at byte \(error.offset): \(error.message)")
    }
}
