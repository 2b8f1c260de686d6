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
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw Problem(error)
        }
        return try decode(document, serverApp: serverApp, now: now)
    }

    static func decode(_ document: JSONValue, serverApp: String, now clock: () -> Timestamp) throws(Problem) -> ComposeRequest {
        guard case .object(let object) = document else {
            throw Problem(.invalidType, "the request body must be a JSON object, got \(document.typeName)")
        }
        var notifications: [PendingNotification]? = nil
        var displayed: [DisplayedEntry] = []
        var now: Timestamp? = nil
        var maxAgeSeconds = ComposeRequest.defaultMaxAgeSeconds
        var maxUnits = BodyRenderer.defaultMaxUnits
        var app: String? = nil
        var recipient: String? = nil
        var fetch = FetchOutcome.ok
        for (name, value) in object.members {
            if case .null = value { continue }
            switch name {
            case "notifications":
                let elements = try FieldDecoding.array(value, maxCount: ComposeRequest.maxNotifications, at: "notifications")
                var decoded: [PendingNotification] = []
                decoded.reserveCapacity(elements.count)
                for (index, element) in elements.enumerated() {
                    decoded.append(try PendingNotification.decode(element, at: "notifications[\(index)]"))
                }
                notifications = decoded
            case "displayed":
                let elements = try FieldDecoding.array(value, maxCount: ComposeRequest.maxDisplayedEntries, at: "displayed")
                displayed.reserveCapacity(elements.count)
                for (index, element) in elements.enumerated() {
                    displayed.append(try DisplayedEntry.decode(element, at: "displayed[\(index)]"))
                }
            case "now":
                now = try timestamp(value, at: "now")
            case "maxAgeSeconds":
                maxAgeSeconds = try FieldDecoding.integer(value, in: ComposeRequest.maxAgeSecondsRange, at: "maxAgeSeconds")
            case "maxUnits":
                maxUnits = try FieldDecoding.integer(value, in: BodyRenderer.maxUnitsRange, at: "maxUnits")
            case "app":
                app = try FieldDecoding.string(value, at: "app")
            case "recipient":
                recipient = try FieldDecoding.string(value, at: "recipient")
            case "fetch":
                let raw = try FieldDecoding.string(value, at: "fetch")
                // Exact spelling only: `OK` or `Failed` would hide a caller's bug.
                guard let outcome = FetchOutcome(rawValue: raw) else {
                    throw Problem(.invalidValue, "fetch must be one of \"ok\", \"failed\", \"timeout\", got \(JSONWriter.quotedForMessage(raw))")
                }
                fetch = outcome
            default:
                continue  // unknown members are ignored
            }
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
    static func timestamp(_ value: JSONValue, at path: @autoclosure () -> String) throws(Problem) -> Timestamp {
        let raw = try FieldDecoding.string(value, at: path())
        guard let timestamp = Timestamp(rfc3339: raw) else {
            throw Problem(.invalidTimestamp, "\(path()) must be an RFC 3339 date-time such as \"2026-05-04T10:00:00Z\", got \(JSONWriter.quotedForMessage(raw))")
        }
        return timestamp
    }
}

extension PendingNotification {
    static func decode(_ value: JSONValue, at path: @autoclosure () -> String) throws(Problem) -> PendingNotification {
        let object = try FieldDecoding.object(value, at: path())
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
        for (name, value) in object.members {
            if case .null = value { continue }
            switch name {
            case "id":
                id = try FieldDecoding.string(value, at: FieldDecoding.path(path(), name))
            case "source":
                let raw = try FieldDecoding.string(value, at: FieldDecoding.path(path(), name))
                // The key is `source:id`; a colon in the source would make keys ambiguous.
                if raw.utf8.contains(UInt8(ascii: ":")) {
                    throw Problem(.invalidValue, "\(FieldDecoding.path(path(), name)) must not contain ':'")
                }
                source = raw
            case "type":
                type = try FieldDecoding.string(value, at: FieldDecoding.path(path(), name))
            case "timestamp":
                timestamp = try ComposeRequest.timestamp(value, at: FieldDecoding.path(path(), name))
            case "read":
                read = try FieldDecoding.bool(value, at: FieldDecoding.path(path(), name))
            case "thread":
                thread = try FieldDecoding.string(value, at: FieldDecoding.path(path(), name))
            case "threadTitle":
                threadTitle = try FieldDecoding.string(value, at: FieldDecoding.path(path(), name))
            case "sender":
                sender = try Sender.decode(value, at: FieldDecoding.path(path(), name))
            case "text":
                text = try FieldDecoding.string(value, at: FieldDecoding.path(path(), name))
            case "defaultText":
                defaultText = try FieldDecoding.string(value, at: FieldDecoding.path(path(), name))
            case "url":
                url = try FieldDecoding.string(value, at: FieldDecoding.path(path(), name))
            default:
                continue
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
    static func decode(_ value: JSONValue, at path: @autoclosure () -> String) throws(Problem) -> PendingNotification.Sender {
        let object = try FieldDecoding.object(value, at: path())
        var sender = PendingNotification.Sender()
        for (name, value) in object.members {
            if case .null = value { continue }
            switch name {
            case "id": sender.id = try FieldDecoding.string(value, at: FieldDecoding.path(path(), name))
            case "name": sender.name = try FieldDecoding.string(value, at: FieldDecoding.path(path(), name))
            default: continue
            }
        }
        return sender
    }
}

extension DisplayedEntry {
    static func decode(_ value: JSONValue, at path: @autoclosure () -> String) throws(Problem) -> DisplayedEntry {
        let object = try FieldDecoding.object(value, at: path())
        var key: String? = nil
        var timestamp: Timestamp? = nil
        for (name, value) in object.members {
            if case .null = value { continue }
            switch name {
            case "key": key = try FieldDecoding.string(value, at: FieldDecoding.path(path(), name))
            case "timestamp": timestamp = try ComposeRequest.timestamp(value, at: FieldDecoding.path(path(), name))
            default: continue
            }
        }
        guard let key else { throw FieldDecoding.missing(FieldDecoding.path(path(), "key")) }
        guard let timestamp else { throw FieldDecoding.missing(FieldDecoding.path(path(), "timestamp")) }
        return DisplayedEntry(key: key, timestamp: timestamp)
    }
}
