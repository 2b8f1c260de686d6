/// One JSON line per answered request:
/// `{"time","method","route","status","bytes","durationMicroseconds","requestId"}`.
///
/// - Important: only these fields, ever. No path (it could carry user data;
///   the route label is one of a fixed set), no query, no headers (so never
///   Authorization), no body, no problem detail.
enum AccessLog {
    /// Methods longer than this are cut (the adapter only passes real methods;
    /// this bounds the line regardless).
    static let maxMethodBytes = 16

    static func line(
        timeNanosecondsSinceEpoch: Int64, method: String, route: String, status: Int,
        bytes: Int, durationNanoseconds: UInt64, requestID: String
    ) -> [UInt8] {
        JSONWriter.bytes(capacity: 192 + requestID.utf8.count) { json in
            json.raw(#"{"time":""#)
            UTCTime.withRFC3339(nanosecondsSinceEpoch: timeNanosecondsSinceEpoch, fractionDigits: 6) { json.raw($0) }
            json.raw(#"","method":"#)
            if method.utf8.count <= maxMethodBytes {
                json.string(method)
            } else {
                json.string(String(decoding: method.utf8.prefix(maxMethodBytes), as: UTF8.self))
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
            json.string(requestID)
            json.raw("}\n")
        }
    }
}
