import HTTPCore
import NotificationEngine

/// One JSON line per answered request:
/// `{"time","method","route","status","bytes","durationMicroseconds","requestId"}`.
///
/// - Important: only these fields, ever. No path (it could carry user data;
///   the route label is one of a fixed set), no query, no headers (so never
///   Authorization), no body, no problem detail.
struct AccessLog {
    /// Methods longer than this are cut (the adapter only passes real methods;
    /// this bounds the line regardless).
    static let maxMethodBytes = 16

    var timeNanosecondsSinceEpoch: Int64
    var method: String
    var route: String
    var status: Int
    var bytes: Int
    var durationNanoseconds: UInt64
    /// nil (logged as "-") for a response without one.
    var requestID: HTTPRequestID?

    /// The line, with its line feed.
    var line: [UInt8] {
        JSONWriter.bytes(capacity: 192 + (requestID?.utf8Count ?? 1)) { write(to: &$0) }
    }

    /// The line into `sink`: for a buffered one, straight into the calling
    /// thread's buffer, without an array of its own.
    func write(to sink: LogSink) {
        sink.writeLine(
            storing: { free in JSONWriter.write(into: free) { write(to: &$0) } }, orMaking: { line })
    }

    private func write(to json: inout JSONWriter) {
        json.raw(#"{"time":""#)
        UTCTime.withRFC3339(nanosecondsSinceEpoch: timeNanosecondsSinceEpoch, fractionDigits: 6) { json.raw($0) }
        json.raw(#"","method":"#)
        if method.utf8.count <= Self.maxMethodBytes {
            json.string(method)
        } else {
            json.string(String(decoding: method.utf8.prefix(Self.maxMethodBytes), as: UTF8.self))
        }
        json.raw(#","route":"#)
        json.string(route)
        json.raw(#","status":"#)
        json.integer(status)
        json.raw(#","bytes":"#)
        json.integer(bytes)
        json.raw(#","durationMicroseconds":"#)
        json.integer(Int(clamping: durationNanoseconds / 1000))
        json.raw(#","requestId":"#)
        // A caller's id is a string; a generated one, 32 bytes in four words
        // (HTTPRequestID), the writer reads in place (docs/adr/0053).
        if let ownText = requestID?.ownText {
            json.string(ownText)
        } else if let requestID {
            json.string(words: requestID.inlineWords)
        } else {
            json.string("-")
        }
        json.raw("}\n")
    }
}
