import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

/// The syntax of a header or trailer field line: where its name ends and
/// its value lies, why a malformed line is refused (a fold, a missing colon,
/// a name that is not a token, a control character in the value), and a
/// name's kind: one of the fields the head reads, or any other (`fieldKind`).
extension RequestHead {
    /// Where a field line's name ends and its value (without the whitespace around it) lies.
    struct Field {
        var nameEnd = 0
        var valueStart = 0
        var valueEnd = 0
    }

    /// A field line's parts: the name is visible ASCII up to the colon (no
    /// whitespace: one reader would keep it in the name, a proxy might not);
    /// the value has no control character but HTAB (a NUL would end it early
    /// for a C reader, a CR could end the line for someone else). RFC 9110's
    /// token also leaves out a few visible delimiters; no framing field can
    /// be spelt with them, so they are let through rather than paid for on
    /// every name.
    static func split(
        _ line: UnsafePointer<UInt8>, count: Int, afterFramingField: Bool, into field: inout Field
    ) -> TransportRejection? {
        if line[0] == 0x20 || line[0] == 0x09 {
            return afterFramingField
                ? .badFraming(detail: "a framing field is folded over two lines")
                : .badRequest(detail: "a header field is folded over two lines (obs-fold)")
        }
        guard let found = memchr(line, 0x3A, count) else { return .badRequest(detail: "a header field has no colon") }
        let colon = UnsafeRawPointer(found) - UnsafeRawPointer(line)
        guard colon > 0 else { return .badRequest(detail: "a header field name is not a token") }
        guard isVisibleASCII(line, count: colon) else { return nameRejection(line, count: colon) }
        field.nameEnd = colon
        var start = colon + 1
        while start < count && (line[start] == 0x20 || line[start] == 0x09) { start += 1 }
        var end = count
        while end > start && (line[end - 1] == 0x20 || line[end - 1] == 0x09) { end -= 1 }
        guard !hasControlCharacter(line + start, count: end - start) else {
            return .badRequest(detail: "a header field value has a control character")
        }
        field.valueStart = start
        field.valueEnd = end
        return nil
    }

    /// Why a field name (the `count` bytes before the colon) that is not
    /// visible ASCII is refused: whitespace before the colon of a framing
    /// field is a framing question.
    private static func nameRejection(_ line: UnsafePointer<UInt8>, count: Int) -> TransportRejection {
        var end = count
        while end > 0 && (line[end - 1] == 0x20 || line[end - 1] == 0x09) { end -= 1 }
        let kind = fieldKind(line, count: end)
        return kind == .contentLength || kind == .transferEncoding
            ? .badFraming(detail: "a framing field has whitespace before its colon")
            : .badRequest(detail: "a header field name is not a token")
    }

    enum FieldKind: Equatable {
        case contentLength, transferEncoding, expect, authorization, requestID, host, connection, other
    }

    /// Most names differ in length from these and are never compared. Names
    /// are visible ASCII by now, so folding with 0x20 lowers exactly their
    /// letters (no visible byte folds onto a letter or "-"): eight bytes are
    /// compared at once.
    static func fieldKind(_ name: UnsafePointer<UInt8>, count: Int) -> FieldKind {
        switch count {
        case 14: foldedEquals(name, count, "content-length") ? .contentLength : .other
        case 17: foldedEquals(name, count, "transfer-encoding") ? .transferEncoding : .other
        case 6: foldedEquals(name, count, "expect") ? .expect : .other
        case 13: foldedEquals(name, count, "authorization") ? .authorization : .other
        case 12: foldedEquals(name, count, "x-request-id") ? .requestID : .other
        case 4: foldedEquals(name, count, "host") ? .host : .other
        case 10: foldedEquals(name, count, "connection") ? .connection : .other
        default: .other
        }
    }
}
