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
        var out: [UInt8] = []
        out.reserveCapacity(192 + requestID.utf8.count)
        out.append(contentsOf: #"{"time":""#.utf8)
        UTCTime.append(nanosecondsSinceEpoch: timeNanosecondsSinceEpoch, fractionDigits: 6, to: &out)
        out.append(contentsOf: #"","method":"#.utf8)
        if method.utf8.count <= maxMethodBytes {
            JSONWriter.appendQuoted(method, to: &out)
        } else {
            JSONWriter.appendQuoted(String(decoding: method.utf8.prefix(maxMethodBytes), as: UTF8.self), to: &out)
        }
        out.append(contentsOf: #","route":"#.utf8)
        JSONWriter.appendQuoted(route, to: &out)
        out.append(contentsOf: #","status":"#.utf8)
        JSONWriter.appendDecimal(status, to: &out)
        out.append(contentsOf: #","bytes":"#.utf8)
        JSONWriter.appendDecimal(bytes, to: &out)
        out.append(contentsOf: #","durationMicroseconds":"#.utf8)
        JSONWriter.appendDecimal(Int(clamping: durationNanoseconds / 1000), to: &out)
        out.append(contentsOf: #","requestId":"#.utf8)
        JSONWriter.appendQuoted(requestID, to: &out)
        out.append(contentsOf: "}\n".utf8)
        return out
    }
}
