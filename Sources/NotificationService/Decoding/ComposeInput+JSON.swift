import NotificationText

extension ComposeInput {
    /// Decodes and validates a `POST /compose` body (the request of
    /// `compose-rules.md`), so that the composer only ever sees valid input.
    /// Strings stay ranges of `bytes` (escaped ones are decoded and appended).
    ///
    /// - Parameters:
    ///   - serverApp: the configured app name, used when `app` is missing or empty.
    ///   - now: the server clock, read only when the request has no `now`.
    /// - Throws: the first problem in document order; a missing required field
    ///   is reported after the members of its object were checked.
    public static func decode(_ bytes: [UInt8], serverApp: String, now: () -> Timestamp) throws(Problem) -> ComposeInput
    {
        // Bodies of the usual shape decode in one pass; the rest, and every
        // error, take the general path below (ADR 0008).
        if let input = DirectComposeDecoder.decode(bytes, serverApp: serverApp, now: now) { return input }
        return try decodeGenerally(bytes, serverApp: serverApp, now: now)
    }

    /// The general path: the parser's tape, then the fields from it.
    static func decodeGenerally(_ bytes: [UInt8], serverApp: String, now: () -> Timestamp) throws(Problem)
        -> ComposeInput
    {
        let tape: JSONTape
        do {
            tape = try JSONParser.tape(bytes)
        } catch {
            throw Problem(error)
        }
        return try decode(tape, serverApp: serverApp, now: now)
    }

    static func decode(_ tape: JSONTape, serverApp: String, now clock: () -> Timestamp) throws(Problem) -> ComposeInput
    {
        let root = JSONTape.root
        guard tape.kind(root) == .object else {
            throw Problem(.invalidType, "the request body must be a JSON object, got \(tape.typeName(root))")
        }
        var input = ComposeInput(bytes: tape.bytes, serverApp: serverApp)
        var hasNotifications = false
        for (name, value) in tape.members(root) {
            if tape.kind(value) == .null { continue }
            if tape.isName(name, "notifications") {
                let elements = try FieldDecoding.array(
                    tape, value, maxCount: ComposeRequest.maxNotifications, at: "notifications")
                input.reserve(notifications: tape.count(value))
                for (index, element) in elements.enumerated() {
                    try input.appendNotification(tape, element, at: "notifications[\(index)]")
                }
                hasNotifications = true
            } else if tape.isName(name, "displayed") {
                let elements = try FieldDecoding.array(
                    tape, value, maxCount: ComposeRequest.maxDisplayedEntries, at: "displayed")
                input.reserve(displayed: tape.count(value))
                for (index, element) in elements.enumerated() {
                    try input.appendDisplayed(tape, element, at: "displayed[\(index)]")
                }
            } else if tape.isName(name, "now") {
                let range = try input.text(tape, value, at: "now")
                guard input.setNow(at: range) else { throw input.invalidTimestamp(range, at: "now") }
            } else if tape.isName(name, "maxAgeSeconds") {
                input.maxAgeSeconds = try FieldDecoding.integer(
                    tape, value, in: ComposeRequest.maxAgeSecondsRange, at: "maxAgeSeconds")
            } else if tape.isName(name, "maxUnits") {
                input.maxUnits = try FieldDecoding.integer(tape, value, in: BodyRenderer.maxUnitsRange, at: "maxUnits")
            } else if tape.isName(name, "app") {
                input.app = try input.text(tape, value, at: "app")
            } else if tape.isName(name, "recipient") {
                input.recipient = try input.text(tape, value, at: "recipient")
            } else if tape.isName(name, "fetch") {
                let raw = try FieldDecoding.string(tape, value, at: "fetch")
                // Exact spelling only: `OK` or `Failed` would hide a caller's bug.
                guard let outcome = FetchOutcome(rawValue: raw) else {
                    throw Problem(
                        .invalidValue,
                        "fetch must be one of \"ok\", \"failed\", \"timeout\", got \(JSONWriter.quotedForMessage(raw))")
                }
                input.fetch = outcome
            }
            // Unknown members are ignored.
        }
        if input.fetch == .ok && !hasNotifications {
            throw Problem(.missingField, "notifications is required when fetch is \"ok\"")
        }
        if input.nowText.isAbsent {
            _ = input.setNow(at: input.append(clock().raw))  // a `Timestamp` is valid
        }
        return input
    }

    /// The range of the string at `value`: its own bytes in the request, or
    /// (when it has escapes) its decoded bytes appended.
    mutating func text(_ tape: JSONTape, _ value: Int, at path: @autoclosure () -> String) throws(Problem) -> TextRange
    {
        guard tape.kind(value) == .string else {
            throw FieldDecoding.typeMismatch(path(), expected: "a string", got: tape.typeName(value))
        }
        if let range = tape.unescapedRange(value) { return TextRange(start: range.lowerBound, count: range.count) }
        return tape.withStringBytes(value) { append($0) }
    }

    /// An RFC 3339 date-time string, as `Timestamp` accepts it: its range and instant.
    mutating func timestamp(_ tape: JSONTape, _ value: Int, at path: @autoclosure () -> String) throws(Problem) -> (
        range: TextRange, moment: Moment
    ) {
        let range = try text(tape, value, at: path())
        guard let moment = moment(at: range) else { throw invalidTimestamp(range, at: path()) }
        return (range, moment)
    }

    /// The problem of a string at `range` that is not an RFC 3339 date-time.
    func invalidTimestamp(_ range: TextRange, at path: String) -> Problem {
        let raw = bytes.withUnsafeBufferPointer { String(decoding: $0[present: range], as: UTF8.self) }
        return Problem(
            .invalidTimestamp,
            "\(path) must be an RFC 3339 date-time such as \"2026-05-04T10:00:00Z\", got \(JSONWriter.quotedForMessage(raw))"
        )
    }

    /// One element of `notifications`.
    mutating func appendNotification(_ tape: JSONTape, _ value: Int, at path: @autoclosure () -> String) throws(Problem)
    {
        let members = try FieldDecoding.object(tape, value, at: path())
        var fields = NotificationFields()
        for (name, value) in members {
            if tape.kind(value) == .null { continue }
            // The path is built only for an error.
            func at(_ field: String) -> String { FieldDecoding.path(path(), field) }
            switch Self.notificationMember(tape, name) {
            case .id:
                fields.id = try self.text(tape, value, at: at("id"))
            case .source:
                fields.source = try self.text(tape, value, at: at("source"))
                if bytes.withUnsafeBufferPointer(fields.sourceHasColon) {
                    throw Problem(.invalidValue, "\(at("source")) must not contain ':'")
                }
            case .type:
                fields.type = try self.text(tape, value, at: at("type"))
            case .timestamp:
                fields.timestamp = try self.timestamp(tape, value, at: at("timestamp"))
            case .read:
                fields.read = try FieldDecoding.bool(tape, value, at: at("read"))
            case .thread:
                fields.thread = try self.text(tape, value, at: at("thread"))
            case .threadTitle:
                fields.threadTitle = try self.text(tape, value, at: at("threadTitle"))
            case .sender:
                fields.sender = try sender(tape, value, at: at("sender"))
            case .text:
                fields.text = try self.text(tape, value, at: at("text"))
            case .defaultText:
                fields.defaultText = try self.text(tape, value, at: at("defaultText"))
            case .url:
                fields.url = try self.text(tape, value, at: at("url"))
            case nil:
                break  // Unknown members are ignored.
            }
        }
        if !fields.hasRequiredMembers, let missing = fields.missingMember {
            throw FieldDecoding.missing(FieldDecoding.path(path(), missing))
        }
        fields.append(to: &self)
    }

    /// A notification's members as a decoder meets them (the tape decoder
    /// and `DirectComposeDecoder` alike), appended once all are read.
    struct NotificationFields {
        var id = TextRange.absent
        var source = TextRange.absent
        var type = TextRange.absent
        var timestamp: (range: TextRange, moment: Moment)? = nil
        var read = false
        var thread = TextRange.absent
        var threadTitle = TextRange.absent
        var sender = (id: TextRange.absent, name: TextRange.absent)
        var text = TextRange.absent
        var defaultText = TextRange.absent
        var url = TextRange.absent

        /// Whether `id`, `type` and `timestamp`, the required members, are
        /// there: `missingMember == nil`, tested without building the answer
        /// (on the direct decoder's path, ~800 instructions fewer a request).
        var hasRequiredMembers: Bool { !id.isAbsent && !type.isAbsent && timestamp != nil }

        /// The first required member that is absent, in the order the errors name them.
        var missingMember: String? {
            id.isAbsent ? "id" : type.isAbsent ? "type" : timestamp == nil ? "timestamp" : nil
        }

        /// Whether the source (in the input's `bytes`) holds a `:`: keys are
        /// `source:id`, so it would make them ambiguous.
        func sourceHasColon(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            bytes[present: source].contains(UInt8(ascii: ":"))
        }

        /// Appends the notification. - Precondition: `hasRequiredMembers`.
        @inline(__always)
        func append(to input: inout ComposeInput) {
            input.appendNotification(
                id: id, source: source, type: type, timestamp: timestamp!.range, moment: timestamp!.moment, read: read,
                thread: thread, threadTitle: threadTitle, senderID: sender.id, senderName: sender.name,
                text: text, defaultText: defaultText, url: url
            )
        }
    }

    /// The members of a notification object.
    enum NotificationMember: UInt8 {
        case id, source, type, timestamp, read, thread, threadTitle, sender, text, defaultText, url
    }

    /// Which member `name` is. The eleven names differ in length, first or
    /// last byte, so those pick the one candidate and a single comparison
    /// (a word or two) confirms it, rather than a walk down every name.
    @inline(__always)
    static func notificationMember(_ tape: JSONTape, _ name: Int) -> NotificationMember? {
        // A name's own bytes, unless it has escapes (then decoded aside).
        guard let range = tape.unescapedRange(name) else {
            return tape.withStringBytes(name) { notificationMember($0) }
        }
        return tape.bytes.withUnsafeBufferPointer { notificationMember(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    @inline(__always)
    static func notificationMember(_ name: UnsafeBufferPointer<UInt8>) -> NotificationMember? {
        guard name.count >= 2 else { return nil }
        func candidate(_ member: NotificationMember, _ spelling: StaticString) -> NotificationMember? {
            let expected = UnsafeBufferPointer(start: spelling.utf8Start, count: spelling.utf8CodeUnitCount)
            return CodePoints.equalBytes(name, expected) ? member : nil
        }
        let (first, last) = (name[0], name[name.count - 1])
        switch name.count {
        case 2: return candidate(.id, "id")
        case 3: return candidate(.url, "url")
        case 4:
            if first == UInt8(ascii: "r") { return candidate(.read, "read") }
            return last == UInt8(ascii: "e") ? candidate(.type, "type") : candidate(.text, "text")
        case 6:
            if first == UInt8(ascii: "t") { return candidate(.thread, "thread") }
            return last == UInt8(ascii: "e") ? candidate(.source, "source") : candidate(.sender, "sender")
        case 9: return candidate(.timestamp, "timestamp")
        case 11:
            return first == UInt8(ascii: "t")
                ? candidate(.threadTitle, "threadTitle") : candidate(.defaultText, "defaultText")
        default: return nil
        }
    }

    /// A notification's `sender`: its id and name.
    mutating func sender(_ tape: JSONTape, _ value: Int, at path: @autoclosure () -> String) throws(Problem) -> (
        id: TextRange, name: TextRange
    ) {
        let members = try FieldDecoding.object(tape, value, at: path())
        var sender = (id: TextRange.absent, name: TextRange.absent)
        for (name, value) in members {
            if tape.kind(value) == .null { continue }
            if tape.isName(name, "id") {
                sender.id = try text(tape, value, at: FieldDecoding.path(path(), "id"))
            } else if tape.isName(name, "name") {
                sender.name = try text(tape, value, at: FieldDecoding.path(path(), "name"))
            }
        }
        return sender
    }

    /// One element of `displayed`.
    mutating func appendDisplayed(_ tape: JSONTape, _ value: Int, at path: @autoclosure () -> String) throws(Problem) {
        let members = try FieldDecoding.object(tape, value, at: path())
        var key = TextRange.absent
        var timestamp: (range: TextRange, moment: Moment)? = nil
        for (name, value) in members {
            if tape.kind(value) == .null { continue }
            if tape.isName(name, "key") {
                key = try text(tape, value, at: FieldDecoding.path(path(), "key"))
            } else if tape.isName(name, "timestamp") {
                timestamp = try self.timestamp(tape, value, at: FieldDecoding.path(path(), "timestamp"))
            }
        }
        guard !key.isAbsent else { throw FieldDecoding.missing(FieldDecoding.path(path(), "key")) }
        guard let timestamp else { throw FieldDecoding.missing(FieldDecoding.path(path(), "timestamp")) }
        appendDisplayed(key: key, timestamp: timestamp.range, moment: timestamp.moment)
    }
}
