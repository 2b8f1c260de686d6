import NotificationText

extension ComposeRequest {
    /// Decodes and validates a `POST /compose` body (the request of
    /// `compose-rules.md`), so that the composer only ever sees valid input.
    ///
    /// - Parameters:
    ///   - serverApp: the configured app name, used when `app` is missing or empty.
    ///   - now: the server clock, read only when the request has no `now`.
    /// - Throws: the first problem in document order; a missing required field
    ///   is reported after the members of its object were checked.
    public static func decode(_ bytes: [UInt8], serverApp: String, now: () -> Timestamp) throws(Problem) -> ComposeRequest {
        let tape: JSONTape
        do {
            tape = try JSONParser.tape(bytes)
        } catch {
            throw Problem(error)
        }
        return try decode(tape, serverApp: serverApp, now: now)
    }

    static func decode(_ tape: JSONTape, serverApp: String, now clock: () -> Timestamp) throws(Problem) -> ComposeRequest {
        let root = JSONTape.root
        guard tape.kind(root) == .object else {
            throw Problem(.invalidType, "the request body must be a JSON object, got \(tape.typeName(root))")
        }
        var notifications: [PendingNotification]? = nil
        var displayed: [DisplayedEntry] = []
        var now: Timestamp? = nil
        var maxAgeSeconds = ComposeRequest.defaultMaxAgeSeconds
        var maxUnits = BodyRenderer.defaultMaxUnits
        var app: String? = nil
        var recipient: String? = nil
        var fetch = FetchOutcome.ok
        for (name, value) in tape.members(root) {
            if tape.kind(value) == .null { continue }
            if tape.isName(name, "notifications") {
                let elements = try FieldDecoding.array(tape, value, maxCount: ComposeRequest.maxNotifications, at: "notifications")
                var decoded: [PendingNotification] = []
                decoded.reserveCapacity(tape.count(value))
                for (index, element) in elements.enumerated() {
                    decoded.append(try PendingNotification.decode(tape, element, at: "notifications[\(index)]"))
                }
                notifications = decoded
            } else if tape.isName(name, "displayed") {
                let elements = try FieldDecoding.array(tape, value, maxCount: ComposeRequest.maxDisplayedEntries, at: "displayed")
                displayed.reserveCapacity(tape.count(value))
                for (index, element) in elements.enumerated() {
                    displayed.append(try DisplayedEntry.decode(tape, element, at: "displayed[\(index)]"))
                }
            } else if tape.isName(name, "now") {
                now = try timestamp(tape, value, at: "now")
            } else if tape.isName(name, "maxAgeSeconds") {
                maxAgeSeconds = try FieldDecoding.integer(tape, value, in: ComposeRequest.maxAgeSecondsRange, at: "maxAgeSeconds")
            } else if tape.isName(name, "maxUnits") {
                maxUnits = try FieldDecoding.integer(tape, value, in: BodyRenderer.maxUnitsRange, at: "maxUnits")
            } else if tape.isName(name, "app") {
                app = try FieldDecoding.string(tape, value, at: "app")
            } else if tape.isName(name, "recipient") {
                recipient = try FieldDecoding.string(tape, value, at: "recipient")
            } else if tape.isName(name, "fetch") {
                let raw = try FieldDecoding.string(tape, value, at: "fetch")
                // Exact spelling only: `OK` or `Failed` would hide a caller's bug.
                guard let outcome = FetchOutcome(rawValue: raw) else {
                    throw Problem(.invalidValue, "fetch must be one of \"ok\", \"failed\", \"timeout\", got \(JSONWriter.quotedForMessage(raw))")
                }
                fetch = outcome
            }
            // Unknown members are ignored.
        }
        if fetch == .ok && notifications == nil {
            throw Problem(.missingField, "notifications is required when fetch is \"ok\"")
        }
        return ComposeRequest(
            notifications: notifications ?? [],
            displayed: displayed,
            now: now ?? clock(),
            maxAgeSeconds: maxAgeSeconds,
            maxUnits: maxUnits,
            app: app,
            serverApp: serverApp,
            recipient: recipient,
            fetch: fetch
        )
    }

    /// An RFC 3339 date-time string, as `Timestamp` accepts it.
    static func timestamp(_ tape: JSONTape, _ value: Int, at path: @autoclosure () -> String) throws(Problem) -> Timestamp {
        let raw = try FieldDecoding.string(tape, value, at: path())
        guard let timestamp = Timestamp(rfc3339: raw) else {
            throw Problem(.invalidTimestamp, "\(path()) must be an RFC 3339 date-time such as \"2026-05-04T10:00:00Z\", got \(JSONWriter.quotedForMessage(raw))")
        }
        return timestamp
    }
}

extension PendingNotification {
    static func decode(_ tape: JSONTape, _ value: Int, at path: @autoclosure () -> String) throws(Problem) -> PendingNotification {
        let members = try FieldDecoding.object(tape, value, at: path())
        var id: String? = nil
        var source: String? = nil
        var type: String? = nil
        var timestamp: Timestamp? = nil
        var read = false
        var thread: String? = nil
        var threadTitle: String? = nil
        var sender: Sender? = nil
        var text: String? = nil
        var defaultText: String? = nil
        var url: String? = nil
        for (name, value) in members {
            if tape.kind(value) == .null { continue }
            // The path is built only for an error.
            func at(_ field: String) -> String { FieldDecoding.path(path(), field) }
            if tape.isName(name, "id") {
                id = try FieldDecoding.string(tape, value, at: at("id"))
            } else if tape.isName(name, "source") {
                let raw = try FieldDecoding.string(tape, value, at: at("source"))
                // The key is `source:id`; a colon in the source would make keys ambiguous.
                if tape.withStringBytes(value, { $0.contains(UInt8(ascii: ":")) }) {
                    throw Problem(.invalidValue, "\(at("source")) must not contain ':'")
                }
                source = raw
            } else if tape.isName(name, "type") {
                type = try FieldDecoding.string(tape, value, at: at("type"))
            } else if tape.isName(name, "timestamp") {
                timestamp = try ComposeRequest.timestamp(tape, value, at: at("timestamp"))
            } else if tape.isName(name, "read") {
                read = try FieldDecoding.bool(tape, value, at: at("read"))
            } else if tape.isName(name, "thread") {
                thread = try FieldDecoding.string(tape, value, at: at("thread"))
            } else if tape.isName(name, "threadTitle") {
                threadTitle = try FieldDecoding.string(tape, value, at: at("threadTitle"))
            } else if tape.isName(name, "sender") {
                sender = try Sender.decode(tape, value, at: at("sender"))
            } else if tape.isName(name, "text") {
                text = try FieldDecoding.string(tape, value, at: at("text"))
            } else if tape.isName(name, "defaultText") {
                defaultText = try FieldDecoding.string(tape, value, at: at("defaultText"))
            } else if tape.isName(name, "url") {
                url = try FieldDecoding.string(tape, value, at: at("url"))
            }
        }
        guard let id else { throw FieldDecoding.missing(FieldDecoding.path(path(), "id")) }
        guard let type else { throw FieldDecoding.missing(FieldDecoding.path(path(), "type")) }
        guard let timestamp else { throw FieldDecoding.missing(FieldDecoding.path(path(), "timestamp")) }
        return PendingNotification(
            id: id, source: source, type: type, timestamp: timestamp, read: read,
            thread: thread, threadTitle: threadTitle, sender: sender,
            text: text, defaultText: defaultText, url: url
        )
    }
}

extension PendingNotification.Sender {
    static func decode(_ tape: JSONTape, _ value: Int, at path: @autoclosure () -> String) throws(Problem) -> PendingNotification.Sender {
        let members = try FieldDecoding.object(tape, value, at: path())
        var sender = PendingNotification.Sender()
        for (name, value) in members {
            if tape.kind(value) == .null { continue }
            if tape.isName(name, "id") {
                sender.id = try FieldDecoding.string(tape, value, at: FieldDecoding.path(path(), "id"))
            } else if tape.isName(name, "name") {
                sender.name = try FieldDecoding.string(tape, value, at: FieldDecoding.path(path(), "name"))
            }
        }
        return sender
    }
}

extension DisplayedEntry {
    static func decode(_ tape: JSONTape, _ value: Int, at path: @autoclosure () -> String) throws(Problem) -> DisplayedEntry {
        let members = try FieldDecoding.object(tape, value, at: path())
        var key: String? = nil
        var timestamp: Timestamp? = nil
        for (name, value) in members {
            if tape.kind(value) == .null { continue }
            if tape.isName(name, "key") {
                key = try FieldDecoding.string(tape, value, at: FieldDecoding.path(path(), "key"))
            } else if tape.isName(name, "timestamp") {
                timestamp = try ComposeRequest.timestamp(tape, value, at: FieldDecoding.path(path(), "timestamp"))
            }
        }
        guard let key else { throw FieldDecoding.missing(FieldDecoding.path(path(), "key")) }
        guard let timestamp else { throw FieldDecoding.missing(FieldDecoding.path(path(), "timestamp")) }
        return DisplayedEntry(key: key, timestamp: timestamp)
    }
}
