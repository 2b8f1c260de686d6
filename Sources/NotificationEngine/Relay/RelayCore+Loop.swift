/// `loop` and `gave-up`: docs/relay.md steps 4 to 7 after the fetch of step 3.
extension RelayCore {
    static let fetchWords: [StaticString] = ["ok", "failed", "timeout"]

    static func loop(_ fields: RelayFields, appName: String, catalogs: CatalogSet, kept: KeptShapes)
        throws(RelayProblem)
        -> [UInt8]
    {
        let now = try clock(fields)
        var record = try record(fields)
        guard let fetch = try fields.word("fetch", fetchWords) else { throw RelayProblem.missing("fetch") }
        let jitter = try jitter(fields)
        var unread: Int? = nil
        if fetch == "ok" {
            _ = try fields.need(fields.array("notifications"), "notifications")
            guard let count = try fields.integer("unread", in: PushOptions.badgeRange) else {
                throw RelayProblem.missing("unread")
            }
            unread = count
        } else if fields.has("notifications") {
            throw RelayProblem(
                .invalidValue, "notifications is only for fetch ok (the fetch's result)", at: "notifications")
        } else if fields.has("unread") {
            throw RelayProblem(.invalidValue, "unread is only for fetch ok (the fetch's result)", at: "unread")
        }
        // P22: newer than every stamp given before, and than ⌊now⌋ in ms.
        let stamp = min(max((record.stamp ?? -1) + 1, now.milliseconds, 0), PushOptions.stampRange.upperBound)
        let request = composeRequest(record, fields: fields, now: now, fetch: fetch, badge: unread, stamp: stamp)
        let answerBytes: [UInt8]
        do throws(Problem) {
            let timestamp = now.timestamp
            answerBytes = try RequestAnswers.compose(
                request: request, appName: appName, catalogs: catalogs, now: { timestamp }, kept: kept)
        } catch {
            throw RelayProblem(relocated(error))
        }
        let composed = ComposedAnswer(answerBytes, nowSeconds: now.seconds)
        record.plan(composed, badge: unread)
        record.displayed = composed.displayed
        record.stamp = stamp
        if let held = composed.heldUntilMilliseconds {
            // Held while the recipient is active elsewhere: compose again when the activity ends.
            record.due = RelayRecord.Due(atMilliseconds: max(held, now.milliseconds), attempt: 0)
        } else if fetch == "ok" {
            record.due = nil
            record.refresh = false
        } else {
            record.backOff(now: now.milliseconds, jitter: jitter)
        }
        record.dropExpired(nowSeconds: now.seconds, before: stamp)
        let sends = record.sends(now: now)
        let wakeAt = record.wakeAt(now: now.milliseconds)
        let written = record
        return JSONWriter.bytes(capacity: 2 * answerBytes.count + 1024) { json in
            json.put(#"{"record":"#)
            written.write(into: &json)
            json.put(#","answer":"#)
            json.put(answerBytes)
            writeSends(sends, into: &json)
            json.put(#","wakeAt":"#)
            json.integerOrNull(wakeAt)
            json.put("}")
        }
    }

    /// The compose could not be made (step 4, both tries failed): `due` with the backoff.
    static func gaveUp(_ fields: RelayFields) throws(RelayProblem) -> [UInt8] {
        let now = try clock(fields)
        var record = try record(fields)
        record.backOff(now: now.milliseconds, jitter: try jitter(fields))
        let wakeAt = record.wakeAt(now: now.milliseconds)
        let written = record
        return JSONWriter.bytes(capacity: 1024) { json in
            json.put(#"{"record":"#)
            written.write(into: &json)
            json.put(#","wakeAt":"#)
            json.integerOrNull(wakeAt)
            json.put("}")
        }
    }

    /// The `POST /compose` request of step 4, from the record and the fetch.
    static func composeRequest(
        _ record: RelayRecord, fields: RelayFields, now: Clock, fetch: String, badge: Int?, stamp: Int64
    ) -> [UInt8] {
        let settings = record.settings
        var reserveBytes = 0
        for device in record.devices {
            switch device.transport {
            // `,"token":"…"`: FCM tokens need no escape (relay.md step 4).
            case .fcm: reserveBytes = max(reserveBytes, device.token.utf8.count + 11)
            // `,"mutable-content":1`.
            case .apns: reserveBytes = max(reserveBytes, 20)
            case .webpush: break
            }
        }
        reserveBytes = min(reserveBytes, PushOptions.reserveBytesRange.upperBound)
        let notifications = fields.value("notifications")
        let tape = fields.tape
        return JSONWriter.bytes(capacity: (notifications == nil ? 0 : tape.bytes.count) + record.displayed.count + 512)
        {
            json in
            json.put("{")
            if let notifications {
                json.put(#""notifications":"#)
                tape.writeValue(notifications, into: &json)
                json.put(",")
            }
            json.put(#""displayed":"#)
            json.put(record.displayed)
            json.put(#","now":"#)
            json.putString(now.raw)
            json.putMember(#","maxAgeSeconds":"#, settings.maxAgeSeconds)
            json.putMember(#","maxUnits":"#, settings.maxUnits)
            json.putMember(#","app":"#, settings.app)
            json.put(#","recipient":"#)
            json.putString(record.recipient)
            json.put(#","fetch":"#)
            json.putString(fetch)
            json.put(#","locale":"#)
            json.putString(settings.locale)
            json.put(#","preview":"#)
            json.putString(settings.preview)
            json.put(#","push":{"stamp":"#)
            json.putInteger(stamp)
            json.put(#","reserveBytes":"#)
            json.putInteger(reserveBytes)
            json.putMember(#","badge":"#, badge)
            json.putMember(#","androidChannel":"#, settings.androidChannel)
            json.putMember(#","alertWindowSeconds":"#, settings.alertWindowSeconds)
            json.putMember(#","activeUntil":"#, record.activeUntil)
            json.put("}}")
        }
    }

    /// A problem of the compose request, pointed at where its value came
    /// from in the relay's request: the fetch's `notifications`, or the record.
    static func relocated(_ problem: Problem) -> Problem {
        guard let pointer = problem.pointer else { return problem }
        var relocated = problem
        let moves: [(from: StaticString, to: StaticString)] = [
            ("/notifications", "/notifications"), ("/displayed", "/record/displayed"),
            ("/recipient", "/record/recipient"), ("/push/androidChannel", "/record/settings/androidChannel"),
            ("/locale", "/record/settings/locale"), ("/preview", "/record/settings/preview"),
            ("/maxAgeSeconds", "/record/settings/maxAgeSeconds"), ("/maxUnits", "/record/settings/maxUnits"),
            ("/app", "/record/settings/app"),
        ]
        // Compared as bytes: every `from` is ASCII, and a pointer below it goes on with "/".
        let bytes = Array(pointer.utf8)
        for move in moves {
            let count = move.from.utf8CodeUnitCount
            guard bytes.count >= count, bytes.count == count || bytes[count] == UInt8(ascii: "/"),
                bytes.withUnsafeBufferPointer({
                    RelayFields.same(UnsafeBufferPointer(rebasing: $0[..<count]), move.from)
                })
            else { continue }
            relocated.pointer = RelayFields.text(move.to) + String(decoding: bytes[count...], as: UTF8.self)
            break
        }
        relocated.detail = "the compose request: " + problem.detail
        return relocated
    }
}

extension RelayRecord {
    /// A failed fetch or a compose given up: the next attempt after the backoff.
    mutating func backOff(now: Int64, jitter: Double) {
        let attempt = (due?.attempt ?? 0) + 1
        due = Due(atMilliseconds: now + Backoff.milliseconds(attempt: attempt, jitter: jitter), attempt: attempt)
    }

    /// Step 5: what the answer sends each device, into its outbox.
    mutating func plan(_ answer: ComposedAnswer, badge: Int?) {
        guard answer.hasPush else { return }
        // A held answer sends no alert: the device keeps what `displayed` records (compose.md S6).
        let alertGoes = answer.heldUntilMilliseconds == nil && (answer.send || (refresh && answer.shownCount > 0))
        for index in devices.indices {
            let transport = devices[index].transport
            var planned: [OutboxEntry] = []
            if alertGoes { planned.append(answer.alert(for: transport)) }
            // Not to Web Push: a push there must show a notification (screen.md
            // section 6); the next alert's floor takes back what it would have.
            if transport != .webpush
                && (answer.withdrawCount > 0 || (badge != nil && badge != devices[index].badge && !alertGoes))
            {
                planned.append(answer.withdrawal(for: transport))
            }
            for entry in planned {
                supersede(in: index, by: entry)
                devices[index].outbox.append(entry)
            }
            if !planned.isEmpty, let badge { devices[index].badge = badge }
        }
    }

    /// What a new payload makes useless in the device's outbox, as the
    /// device would (docs/relay.md step 5, screen.md section 2): an alert
    /// drops the queued alerts of its group, and one whose kind is not
    /// `fallback` every older queued alert; a withdrawal drops the queued
    /// alerts of the groups it names and the queued withdrawals whose groups
    /// it names all. Nothing else: a queued withdrawal is what takes its
    /// groups off the device, and a withdrawal's answer may keep a group it
    /// does not name without sending it again.
    mutating func supersede(in index: Int, by entry: OutboxEntry) {
        let transport = devices[index].transport
        switch entry.kind {
        case .alert:
            devices[index].outbox.removeAll { queued in
                queued.kind == .alert
                    && (RelayRecord.same(queued.group, entry.group) || (!entry.fallback && queued.stamp < entry.stamp))
            }
        case .withdrawal:
            let named = entry.withdrawnGroups(on: transport)
            devices[index].outbox.removeAll { queued in
                if queued.kind == .alert { return named.contains { RelayRecord.same($0, queued.group) } }
                return queued.withdrawnGroups(on: transport).allSatisfy { group in
                    named.contains { RelayRecord.same($0, group) }
                }
            }
        }
    }

    /// Whether two group keys are the same bytes.
    @inline(never)
    static func same(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { x in b.withUTF8 { y in x.count == y.count && CodePoints.equalBytes(x, y) } }
    }
}

extension RelayRecord.OutboxEntry {
    /// The groups a withdrawal names: APNs' `withdraw` array, FCM's data
    /// `withdraw` (the keys joined by spaces, push.md P21); none for an alert.
    func withdrawnGroups(on transport: RelayRecord.Transport) -> [String] {
        guard kind == .withdrawal, let tape = try? JSONParser.tape(payload) else { return [] }
        let root = JSONTape.root
        switch transport {
        case .apns:
            guard let withdraw = tape.member(root, "withdraw"), tape.kind(withdraw) == .array else { return [] }
            return tape.elements(withdraw).compactMap { tape.kind($0) == .string ? tape.string($0) : nil }
        case .fcm:
            guard let data = tape.member(root, "data"), let withdraw = tape.member(data, "withdraw"),
                tape.kind(withdraw) == .string
            else { return [] }
            // Split at the spaces by byte, empty keys left out.
            return tape.withStringBytes(withdraw) { bytes in
                var groups: [String] = []
                var start = 0
                for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: " ") {
                    if end > start {
                        groups.append(
                            String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
                    }
                    start = end + 1
                }
                return groups
            }
        case .webpush:
            return []
        }
    }
}
