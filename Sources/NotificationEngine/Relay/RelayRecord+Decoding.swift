/// Reading a stored record back (`RelayRecord.write`'s JSON, or one written
/// by hand: members with a default may be left out).
extension RelayRecord {
    static let members: [StaticString] = [
        "recipient", "settings", "displayed", "stamp", "refresh", "due", "devices", "activeUntil",
    ]
    static let settingsMembers: [StaticString] = [
        "locale", "preview", "androidChannel", "maxAgeSeconds", "maxUnits", "app", "alertWindowSeconds",
    ]
    static let dueMembers: [StaticString] = ["at", "attempt"]
    static let deviceMembers: [StaticString] = [
        "id", "transport", "token", "topic", "badge", "attempt", "next", "outbox",
    ]
    static let entryMembers: [StaticString] = ["stamp", "kind", "group", "fallback", "end", "headers", "payload"]
    /// Unix milliseconds and seconds the core accepts: years 0000 to 9999 and then some.
    static let millisecondsRange: ClosedRange<Int64> = -62_167_219_200_000...253_402_300_799_999
    static let secondsRange: ClosedRange<Int64> = -62_167_219_200...253_402_300_799
    static let attemptRange = 0...1_000_000

    init(_ tape: JSONTape, _ index: Int, at path: String) throws(RelayProblem) {
        let fields = try RelayFields(tape, index, at: path, members: Self.members)
        recipient = try fields.requiredString("recipient")
        settings = try Settings(tape, fields.required("settings"), at: fields.path("settings"))
        if let displayed = fields.value("displayed") {
            _ = try fields.array("displayed")
            self.displayed = tape.jsonText(displayed)
        } else {
            self.displayed = Array("[]".utf8)
        }
        stamp = try fields.integer64("stamp", in: PushOptions.stampRange)
        refresh = try fields.bool("refresh") ?? false
        if let due = fields.value("due") {
            let dueFields = try RelayFields(tape, due, at: fields.path("due"), members: Self.dueMembers)
            guard let at = try dueFields.integer64("at", in: Self.millisecondsRange) else {
                throw RelayProblem.missing(dueFields.path("at"))
            }
            self.due = Due(
                atMilliseconds: at,
                attempt: try dueFields.integer("attempt", in: Self.attemptRange) ?? 0)
        } else {
            due = nil
        }
        activeUntil = try fields.string("activeUntil")
        if let activeUntil, Timestamp(rfc3339: activeUntil) == nil {
            throw RelayProblem(
                .invalidTimestamp, "\(fields.path("activeUntil")) must be an RFC 3339 date-time",
                at: fields.path("activeUntil"))
        }
        devices = []
        for (position, device) in (try fields.array("devices") ?? []).enumerated() {
            let device = try Device(tape, device, at: "\(fields.path("devices"))[\(position)]")
            guard !devices.contains(where: { $0.id == device.id }) else {
                throw RelayProblem(
                    .invalidValue, "\(fields.path("devices"))[\(position)].id repeats a device id",
                    at: "\(fields.path("devices"))[\(position)].id")
            }
            devices.append(device)
        }
    }
}

extension RelayRecord.Settings {
    /// A record's settings: `locale` and `preview` required, the rest with their defaults.
    init(_ tape: JSONTape, _ index: Int, at path: String) throws(RelayProblem) {
        let fields = try RelayFields(tape, index, at: path, members: RelayRecord.settingsMembers)
        self.init(
            locale: try fields.requiredString("locale"),
            preview: try fields.need(fields.word("preview", Self.previews), "preview"),
            androidChannel: nil, maxAgeSeconds: Self.defaultMaxAgeSeconds, maxUnits: Self.defaultMaxUnits, app: nil)
        try apply(fields)
    }

    /// Takes the members `fields` has (the optional ones of a record, or a
    /// `settings` event's changes).
    mutating func apply(_ fields: RelayFields) throws(RelayProblem) {
        if let locale = try fields.string("locale") { self.locale = locale }
        if let preview = try fields.word("preview", Self.previews) { self.preview = preview }
        if let channel = try fields.string("androidChannel") {
            guard PushOptions.isValidAndroidChannel(channel.unicodeScalars, byteCount: channel.utf8.count) else {
                throw RelayProblem(
                    .invalidValue,
                    "\(fields.path("androidChannel")) must be 1 to \(PushOptions.androidChannelByteRange.upperBound)"
                        + " bytes of UTF-8 without control characters",
                    at: fields.path("androidChannel"))
            }
            androidChannel = channel
        }
        if let seconds = try fields.integer("maxAgeSeconds", in: ComposeRequest.maxAgeSecondsRange) {
            maxAgeSeconds = seconds
        }
        if let units = try fields.integer("maxUnits", in: BodyRenderer.maxUnitsRange) { maxUnits = units }
        if let app = try fields.string("app") { self.app = app }
        if let window = try fields.integer("alertWindowSeconds", in: PushOptions.alertWindowRange) {
            alertWindowSeconds = window
        }
    }
}

extension RelayRecord.Device {
    static let registrationMembers: [StaticString] = ["id", "transport", "token", "topic"]

    init(_ tape: JSONTape, _ index: Int, at path: String, registration: Bool = false) throws(RelayProblem) {
        let fields = try RelayFields(
            tape, index, at: path, members: registration ? Self.registrationMembers : RelayRecord.deviceMembers)
        id = try fields.requiredString("id")
        transport =
            RelayRecord.Transport(
                rawValue: try fields.need(fields.word("transport", RelayRecord.Transport.names), "transport"))
            ?? .apns
        token = try fields.requiredString("token")
        topic = try fields.string("topic")
        if transport == .apns && topic == nil {
            throw RelayProblem(
                .missingField, "\(fields.path("topic")) is required for an APNs device (apns-topic)",
                at: fields.path("topic"))
        }
        badge = try fields.integer("badge", in: PushOptions.badgeRange)
        attempt = try fields.integer("attempt", in: RelayRecord.attemptRange) ?? 0
        nextMilliseconds = try fields.integer64("next", in: RelayRecord.millisecondsRange)
        outbox = []
        for (position, entry) in (try fields.array("outbox") ?? []).enumerated() {
            outbox.append(try RelayRecord.OutboxEntry(tape, entry, at: "\(fields.path("outbox"))[\(position)]"))
        }
    }
}

extension RelayRecord.OutboxEntry {
    init(_ tape: JSONTape, _ index: Int, at path: String) throws(RelayProblem) {
        let fields = try RelayFields(tape, index, at: path, members: RelayRecord.entryMembers)
        stamp = try fields.need(fields.integer64("stamp", in: PushOptions.stampRange), "stamp")
        kind =
            RelayRecord.EntryKind(rawValue: try fields.need(fields.word("kind", RelayRecord.EntryKind.names), "kind"))
            ?? .alert
        group = try fields.requiredString("group")
        fallback = try fields.bool("fallback") ?? false
        endSeconds = try fields.need(fields.integer64("end", in: RelayRecord.secondsRange), "end")
        headers = try fields.objectText("headers") ?? Array("{}".utf8)
        payload = try fields.need(fields.objectText("payload"), "payload")
    }
}
