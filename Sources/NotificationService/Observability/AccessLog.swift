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
        append(#"{"time":""#, to: &out)
        UTCTime.append(nanosecondsSinceEpoch: timeNanosecondsSinceEpoch, fractionDigits: 6, to: &out)
        append(#"","method":"#, to: &out)
        if method.utf8.count <= maxMethodBytes {
            JSONWriter.appendQuoted(method, to: &out)
        } else {
            JSONWriter.appendQuoted(String(decoding: method.utf8.prefix(maxMethodBytes), as: UTF8.self), to: &out)
        }
        append(#","route":"#, to: &out)
        JSONWriter.appendQuoted(route, to: &out)
        append(#","status":"#, to: &out)
        JSONWriter.appendDecimal(status, to: &out)
        append(#","bytes":"#, to: &out)
        JSONWriter.appendDecimal(bytes, to: &out)
        append(#","durationMicroseconds":"#, to: &out)
        JSONWriter.appendDecimal(Int(clamping: durationNanoseconds / 1000), to: &out)
        append(#","requestId":"#, to: &out)
        JSONWriter.appendQuoted(requestID, to: &out)
        append("}\n", to: &out)
        return out
    }

    private static func append(_ text: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
