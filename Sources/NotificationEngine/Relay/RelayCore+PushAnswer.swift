/// `answer`: a push service's answer to one send (docs/relay.md step 7 and
/// "What each push service answers").
extension RelayCore {
    static let statusRange = 0...999
    static let retryAfterRange = 0...2_147_483

    static func pushAnswer(_ fields: RelayFields) throws(RelayProblem) -> [UInt8] {
        let now = try clock(fields)
        var record = try record(fields)
        let deviceID = try fields.requiredString("device")
        guard let stamp = try fields.integer64("stamp", in: PushOptions.stampRange) else {
            throw RelayProblem.missing("stamp")
        }
        guard let status = try fields.integer("status", in: statusRange) else { throw RelayProblem.missing("status") }
        let answer = PushServiceAnswer(
            status: status, reason: try fields.string("reason"),
            retryAfterSeconds: try fields.integer("retryAfter", in: retryAfterRange),
            tokenInvalid: try fields.bool("tokenInvalid") ?? false)
        let jitter = try jitter(fields)
        // A device unregistered while its send was under way is gone already.
        var outcome = PushServiceAnswer.Outcome.gone
        if let index = record.devices.firstIndex(where: { $0.id == deviceID }) {
            outcome = answer.outcome(on: record.devices[index].transport)
            record.apply(outcome, of: answer, toDeviceAt: index, stamp: stamp, now: now.milliseconds, jitter: jitter)
        }
        record.dropExpired(nowSeconds: now.seconds, device: deviceID)
        let sends = record.sends(now: now, only: deviceID)
        let wakeAt = record.wakeAt(now: now.milliseconds)
        let written = record
        return JSONWriter.bytes(capacity: 1024) { json in
            json.put(#"{"record":"#)
            written.write(into: &json)
            json.put(#","outcome":"#)
            json.putString(outcome.name)
            writeSends(sends, into: &json)
            json.put(#","wakeAt":"#)
            json.integerOrNull(wakeAt)
            json.put("}")
        }
    }
}

extension RelayRecord {
    /// Accepted or refused for good: the payload leaves the outbox; gone:
    /// the device and its outbox are deleted; transient: the payload stays,
    /// and the device waits (`Retry-After`, or the backoff, and the 429 floors).
    mutating func apply(
        _ outcome: PushServiceAnswer.Outcome, of answer: PushServiceAnswer, toDeviceAt index: Int, stamp: Int64,
        now: Int64, jitter: Double
    ) {
        switch outcome {
        case .accepted, .bug:
            // The first with the stamp: sends always take the outbox's first,
            // and an alert and a withdrawal of one answer share a stamp.
            if let entry = devices[index].outbox.firstIndex(where: { $0.stamp == stamp }) {
                devices[index].outbox.remove(at: entry)
            }
            devices[index].attempt = 0
            devices[index].nextMilliseconds = nil
        case .gone:
            devices.remove(at: index)
        case .transient(let minimumSeconds):
            devices[index].attempt += 1
            let wait = answer.waitMilliseconds(
                minimumSeconds: minimumSeconds, attempt: devices[index].attempt, jitter: jitter)
            devices[index].nextMilliseconds = now + wait
        }
    }
}
