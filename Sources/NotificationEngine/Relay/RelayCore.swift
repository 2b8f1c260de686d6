/// The relay's loop (docs/relay.md) as functions without IO: a stored
/// record and what happened in, the next record and what to do out. The
/// relay owns its store (compare-and-set on the record's JSON), clock,
/// fetch, push clients and timers; the core makes every decision, so a
/// relay in any language makes the same ones by calling it (`POST /relay`).
///
/// A request is one object whose `do` names the operation:
/// - `event`: a notification created or read, a settings change, a device
///   registered or unregistered: the record with `due` (and `refresh`) set;
/// - `loop`: the fetch's result: composes from the record and plans the
///   answer into the outboxes (steps 4 to 6), with the sends of step 7;
/// - `gave-up`: the compose could not be made: `due` with the backoff;
/// - `answer`: a push service's answer to a send: its outcome, the record
///   and the device's next send;
/// - `wake`: a timer fired: expired payloads dropped, the sends that are
///   due, whether the loop is due, and when to wake next.
package enum RelayCore {
    static let operations: [StaticString] = ["event", "loop", "gave-up", "answer", "wake"]

    /// The answer to a `POST /relay` body.
    /// - Parameters:
    ///   - appName, catalogs: the service's, for the loop's compose.
    ///   - kept: the caller's shapes and buffers, lent to the compose.
    package static func answer(request: [UInt8], appName: String, catalogs: CatalogSet, kept: KeptShapes)
        throws(Problem) -> [UInt8]
    {
        do throws(RelayProblem) {
            return try operation(request: request, appName: appName, catalogs: catalogs, kept: kept)
        } catch {
            throw error.problem
        }
    }

    static func operation(request: [UInt8], appName: String, catalogs: CatalogSet, kept: KeptShapes)
        throws(RelayProblem) -> [UInt8]
    {
        let tape: JSONTape
        do {
            tape = try JSONParser.tape(request)
        } catch {
            throw RelayProblem(Problem(error))
        }
        let root = JSONTape.root
        guard tape.kind(root) == .object else {
            throw RelayProblem(
                .invalidType, "the request body must be a JSON object, got \(tape.typeName(root))", at: "")
        }
        guard let operation = tape.member(root, "do"), tape.kind(operation) != .null else {
            throw RelayProblem.missing("do")
        }
        guard tape.kind(operation) == .string else {
            throw RelayProblem.typeMismatch("do", expected: "a string", got: tape.typeName(operation))
        }
        let name = tape.string(operation)
        switch name {
        case "event":
            return try event(
                RelayFields(tape, root, at: "", members: ["do", "record", "now", "event", "settings", "recipient"]))
        case "loop":
            let fields = try RelayFields(
                tape, root, at: "", members: ["do", "record", "now", "fetch", "notifications", "unread", "jitter"])
            return try loop(fields, appName: appName, catalogs: catalogs, kept: kept)
        case "gave-up":
            return try gaveUp(RelayFields(tape, root, at: "", members: ["do", "record", "now", "jitter"]))
        case "answer":
            let fields = try RelayFields(
                tape, root, at: "",
                members: [
                    "do", "record", "now", "device", "stamp", "status", "reason", "retryAfter", "tokenInvalid",
                    "jitter",
                ])
            return try pushAnswer(fields)
        case "wake":
            return try wake(RelayFields(tape, root, at: "", members: ["do", "record", "now"]))
        default:
            throw RelayProblem(
                .invalidValue,
                "do must be one of \(RelayFields.texts(operations).joined(separator: ", ")), got \(JSONWriter.quotedForMessage(name))",
                at: "do")
        }
    }

    // MARK: Reading the common members

    /// The loop's clock: `now` as written, and its Unix seconds and milliseconds (floored).
    struct Clock {
        let timestamp: Timestamp
        var raw: String { timestamp.raw }
        let seconds: Int64
        let milliseconds: Int64
    }

    static func clock(_ fields: RelayFields) throws(RelayProblem) -> Clock {
        let raw = try fields.requiredString("now")
        guard let timestamp = Timestamp(rfc3339: raw) else {
            throw RelayProblem(
                .invalidTimestamp,
                "now must be an RFC 3339 date-time such as \"2026-05-04T10:00:00Z\", got \(JSONWriter.quotedForMessage(raw))",
                at: "now")
        }
        let seconds = timestamp.instant.epochSeconds
        return Clock(
            timestamp: timestamp, seconds: seconds,
            milliseconds: seconds * 1000 + Int64(timestamp.instant.nanoseconds / 1_000_000))
    }

    static func record(_ fields: RelayFields) throws(RelayProblem) -> RelayRecord {
        try RelayRecord(fields.tape, fields.required("record"), at: "record")
    }

    /// `jitter`, the relay's random draw in 0…1 for the backoff; 1 (the bound) when absent.
    static func jitter(_ fields: RelayFields) throws(RelayProblem) -> Double {
        try fields.unitFraction("jitter") ?? 1
    }

    // MARK: event

    static let eventMembers: [StaticString] = [
        "type", "locale", "preview", "androidChannel", "maxAgeSeconds", "maxUnits", "alertWindowSeconds", "device",
        "until",
    ]
    static let eventTypes: [StaticString] = [
        "created", "read", "edited", "deleted", "settings", "register", "unregister", "active",
    ]

    /// Writes `due` first (docs/relay.md, "Events"): now, or earlier when it was.
    static func event(_ fields: RelayFields) throws(RelayProblem) -> [UInt8] {
        let now = try clock(fields)
        var record: RelayRecord
        if fields.has("record") {
            record = try Self.record(fields)
            if fields.has("settings") {
                throw RelayProblem(
                    .invalidValue, "settings is only for a new record (record null); change them with a settings event",
                    at: "settings")
            }
        } else {
            let settingsIndex = try fields.required("settings")
            record = RelayRecord(
                recipient: try fields.requiredString("recipient"),
                settings: try RelayRecord.Settings(fields.tape, settingsIndex, at: "settings"),
                displayed: Array("[]".utf8),
                stamp: nil, refresh: false, due: nil, devices: [])
        }
        let event = try RelayFields(fields.tape, fields.required("event"), at: "event", members: eventMembers)
        let type = try event.need(event.word("type", eventTypes), "type")
        let allowed: [StaticString] =
            switch type {
            case "settings":
                ["type", "locale", "preview", "androidChannel", "maxAgeSeconds", "maxUnits", "alertWindowSeconds"]
            case "register", "unregister": ["type", "device"]
            case "active": ["type", "until"]
            default: ["type"]
            }
        for member in eventMembers where event.has(member) {
            guard !allowed.contains(where: { RelayFields.same($0, member) }) else { continue }
            throw RelayProblem.unknownMember(
                RelayFields.text(member), in: "event", members: RelayFields.texts(allowed))
        }
        switch type {
        case "settings":
            try record.settings.apply(event)
            record.refresh = true
        case "register":
            let device = try RelayRecord.Device(
                fields.tape, event.required("device"), at: "event.device", registration: true)
            if let existing = record.devices.firstIndex(where: { $0.id == device.id }) {
                record.devices[existing] = device
            } else {
                record.devices.append(device)
            }
            record.refresh = true
        case "unregister":
            let id = try event.requiredString("device")
            record.devices.removeAll { $0.id == id }
        case "active":
            // The recipient is active elsewhere until `until` (null: no longer): the next compose holds its
            // alerts until then; a held loop waits no longer than the activity (compose.md S6).
            let until = try event.string("until")
            var untilMilliseconds = now.milliseconds
            if let until {
                guard let instant = Timestamp(rfc3339: until)?.instant else {
                    throw RelayProblem(
                        .invalidTimestamp, "event.until must be an RFC 3339 date-time", at: "event.until")
                }
                untilMilliseconds = max(
                    now.milliseconds, instant.epochSeconds * 1000 + Int64(instant.nanoseconds / 1_000_000))
            }
            record.activeUntil = until
            if record.due != nil { record.setDue(atMost: untilMilliseconds) }
        default:
            break
        }
        if type != "unregister" && type != "active" { record.setDue(atMost: now.milliseconds) }
        let written = record
        return JSONWriter.bytes(capacity: 1024) { json in
            json.put(#"{"record":"#)
            written.write(into: &json)
            json.put("}")
        }
    }

    // MARK: wake

    /// A timer fired: payloads past their lifetime leave the outboxes (an
    /// alert's sets `due` a second after its end, docs/relay.md "Retries"),
    /// and every device whose retry time came sends its outbox's first.
    static func wake(_ fields: RelayFields) throws(RelayProblem) -> [UInt8] {
        let now = try clock(fields)
        var record = try record(fields)
        record.dropExpired(nowSeconds: now.seconds)
        let sends = record.sends(now: now)
        let loop = record.due.map { $0.atMilliseconds <= now.milliseconds } ?? false
        let wakeAt = record.wakeAt(now: now.milliseconds, includingDue: !loop)
        let written = record
        return JSONWriter.bytes(capacity: 1024) { json in
            json.put(#"{"record":"#)
            written.write(into: &json)
            writeSends(sends, into: &json)
            json.put(loop ? #","loop":true,"wakeAt":"# : #","loop":false,"wakeAt":"#)
            json.integerOrNull(wakeAt)
            json.put("}")
        }
    }

    /// `,"sends":[…]`.
    static func writeSends(_ sends: [RelaySend], into json: inout JSONWriter) {
        json.put(#","sends":["#)
        for (position, send) in sends.enumerated() {
            if position > 0 { json.put(",") }
            send.write(into: &json)
        }
        json.put("]")
    }
}

extension RelayRecord {
    /// `due` becomes `at`, or stays when it is earlier; its attempts stay.
    mutating func setDue(atMost at: Int64) {
        if let due, due.atMilliseconds <= at { return }
        due = Due(atMilliseconds: at, attempt: due?.attempt ?? 0)
    }

    /// Drops the payloads whose lifetime is over (end ≤ ⌊now⌋), in every
    /// outbox or only those of `device`; a dropped alert sets `due` to a
    /// second after its end, when the loop's answer withdraws what it covered.
    mutating func dropExpired(nowSeconds: Int64, device: String? = nil, before stamp: Int64? = nil) {
        for index in devices.indices where device == nil || devices[index].id == device {
            var dueSeconds: Int64? = nil
            devices[index].outbox.removeAll { entry in
                guard entry.endSeconds <= nowSeconds, stamp.map({ entry.stamp < $0 }) ?? true else { return false }
                if entry.kind == .alert { dueSeconds = min(dueSeconds ?? entry.endSeconds, entry.endSeconds) }
                return true
            }
            if let dueSeconds { setDue(atMost: (dueSeconds + 1) * 1000) }
        }
    }

    /// The first payload of every outbox whose device is not waiting for a retry.
    func sends(now: RelayCore.Clock, only device: String? = nil) -> [RelaySend] {
        devices.compactMap { item in
            guard device == nil || item.id == device, item.isReady(atMilliseconds: now.milliseconds),
                let first = item.outbox.first
            else { return nil }
            return RelaySend(device: item, entry: first, nowSeconds: now.seconds)
        }
    }

    /// When the relay must call `wake` next: the earliest of `due` (unless
    /// the caller acts on it now) and the retry times still ahead; nil: none.
    func wakeAt(now: Int64, includingDue: Bool = true) -> Int64? {
        var earliest = includingDue ? due?.atMilliseconds : nil
        for device in devices where !device.outbox.isEmpty {
            guard let next = device.nextMilliseconds, next > now else { continue }
            earliest = min(earliest ?? next, next)
        }
        return earliest
    }
}
