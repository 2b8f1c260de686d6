import EngineTestSupport
import Testing

@testable import NotificationEngine

/// `POST /compose` decodes a body into a `ComposeRequest` of ranges of the
/// body's bytes and writes its reply from them; a Swift caller's `init` lays
/// its `String`s out in a buffer of their own. Both must give the same reply
/// for the same request, whatever the JSON escapes, keys, ties and time
/// digits, and the response's values (`shown`, `dropped`, `displayed`) must be
/// what the reply says.
@Suite struct ComposeRequestJSONTests {

    private let serverApp = "Buzz"
    private let clock = Timestamp(rfc3339: "2026-11-29T12:00:00Z")!

    /// The service's path: JSON bytes to reply bytes.
    private func servicePath(_ json: [UInt8]) throws(Problem) -> [UInt8] {
        Composer.compose(try ComposeRequest.decode(json, serverApp: serverApp, now: { clock })).jsonBody()
    }

    /// A Swift caller's path for the request `json` encodes.
    private func stringPath(_ request: ComposeRequest) -> [UInt8] {
        Composer.compose(request).jsonBody()
    }

    @Test func randomRequests_giveTheSameReplyOnBothPaths() throws {
        var random = SplitMix64(seed: 2026)
        for round in 0..<400 {
            let request = RandomCompose.request(&random, clock: clock, serverApp: serverApp)
            let json = RandomCompose.json(request, escapeRate: round % 3 == 0 ? 0 : 0.2, using: &random)
            let expected = stringPath(request)
            let actual = try servicePath(json)
            let decoded = try ComposeRequest.decode(json, serverApp: serverApp, now: { clock })
            #expect(decoded == request, "round \(round): the decoded request has the values of the one encoded")
            #expect(actual == expected, "round \(round): \(String(decoding: json, as: UTF8.self))")
            #expect(
                ComposeResponseJSONTests.tree(Composer.compose(decoded)) == actual,
                "round \(round): the response's values are its reply's")
            if actual != expected { return }
        }
    }

    @Test func escapedKeysAndTimestamps_equalTheirPlainSpelling() throws {
        let plain =
            #"{"now":"2026-11-29T12:00:00Z","notifications":[{"id":"m1","source":"chat","type":"message","timestamp":"2026-11-29T11:59:00Z","thread":"t","sender":{"name":"Ana"},"text":"hi"},{"id":"m2","source":"chat","type":"message","timestamp":"2026-11-29T11:58:00Z","thread":"t","text":"yo"}],"displayed":[{"key":"chat:m0","timestamp":"2026-11-29T11:50:00Z"}]}"#
        let escaped =
            #"{"now":"2026-11-29T12:00:00\u005a","notifications":[{"id":"m\u0031","source":"c\u0068at","type":"mess\u0061ge","timestamp":"2026-11-29T11:59:00\u005A","thread":"\u0074","sender":{"name":"An\u0061"},"text":"h\u0069"},{"id":"m2","source":"chat","type":"message","timestamp":"2026-11-29T11:58:00Z","thread":"t","text":"yo"}],"displayed":[{"key":"chat:m\u0030","timestamp":"2026-11-29T11:50:00Z"}]}"#
        let reply = try servicePath(Array(plain.utf8))
        #expect(try servicePath(Array(escaped.utf8)) == reply)
        #expect(String(decoding: reply, as: UTF8.self).contains(#""shown":["chat:m1","chat:m2"]"#))
    }

    @Test func aRangeOutsideTheBytes_trapsInsteadOfReadingBeyondThem() async {
        await #expect(processExitsWith: .failure) {
            var input = ComposeRequest(bytes: Array("2026-11-29T12:00:00Z".utf8), serverApp: "Buzz")
            let timestamp = TextRange(start: 0, count: 20)
            var ranges = ComposeRequest.NotificationRanges()
            ranges[.id] = TextRange(start: 10, count: 20)
            ranges[.type] = timestamp
            ranges[.timestamp] = timestamp
            input.appendNotification(&ranges, ComposeRequest.ScalarSlots(), moment: input.moment(at: timestamp)!)
        }
    }

    @Test func digitsBeyondNanoseconds_orderAndEchoExactly() throws {
        // Equal to the nanosecond: the tenth digit decides, trailing zeros don't.
        let json =
            #"{"now":"2026-11-29T12:00:00.0000000005Z","notifications":[{"id":"a","type":"like","timestamp":"2026-11-29T11:59:00.0000000001Z"},{"id":"b","type":"like","timestamp":"2026-11-29T11:59:00.00000000020Z"},{"id":"c","type":"like","timestamp":"2026-11-29T11:59:00.000000000Z"},{"id":"d","type":"like","timestamp":"2026-11-29T11:59:00.0000000001000Z"}]}"#
        let reply = String(decoding: try servicePath(Array(json.utf8)), as: UTF8.self)
        #expect(reply.contains(#""shown":["b","a","d","c"]"#), "\(reply)")
        #expect(
            reply.contains(#"{"key":"d","timestamp":"2026-11-29T11:59:00.0000000001000Z","group":"summary"}"#),
            "\(reply)")
    }
}

/// Random compose requests from small pools, so duplicates, shared threads,
/// equal times and whitespace names are common; and their JSON, with a share
/// of characters written as `\u` escapes.
enum RandomCompose {
    static let timestamps = [
        "2026-11-29T11:59:00Z", "2026-11-29T11:59:00.000000000Z", "2026-11-29T13:59:00+02:00",
        "2026-11-29T11:59:00.0000000001Z", "2026-11-29T11:59:00.00000000010Z", "2026-11-29T11:55:00.123456789123Z",
        "2026-11-29T11:49:59Z", "2026-11-29T11:50:00Z", "2026-11-29T12:05:00Z", "2026-11-29T12:05:01Z",
        "2026-11-29t11:58:00z",
    ]
    static let names: [String?] = [
        nil, "Ana", "  Ana ", "Ana\u{A0}", "Bo\tB", "", "   ", "Cy", "D\u{E9}", "De\u{301}", "Eve Park", "F\u{1F600}",
    ]
    static let types = ["message", "mention", "reply", "like", "Message"]
    static let threads: [String?] = ["t1", "t1", "t2", "", nil]
    static let sources: [String?] = [nil, nil, "", "chat", "caf\u{E9}", "cafe\u{301}"]
    static let texts: [String?] = [
        nil, "", "hi **there**", "a\nb \"q\" \\ c", "  ", String(repeating: "long ", count: 80),
        "[x](https://e.io) `c` \u{1F469}\u{200D}\u{1F4BB}",
    ]
    static let titles: [String?] = [nil, "", "#release", " Team\u{2003}chat ", "\u{3000}"]

    static func request<R: RandomNumberGenerator>(_ random: inout R, clock: Timestamp, serverApp: String)
        -> ComposeRequest
    {
        func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }
        let notifications = (0..<Int.random(in: 0...8, using: &random)).map { _ in
            var sender: PendingNotification.Sender? =
                Bool.random(using: &random) ? .init(id: pick(["me", "u1", nil]), name: pick(names)) : nil
            // `"sender": {}` reads as no sender: the rules see no difference.
            if sender?.id == nil && sender?.name == nil { sender = nil }
            return PendingNotification(
                id: "m\(Int.random(in: 0..<6, using: &random))", source: pick(sources), type: pick(types),
                timestamp: Timestamp(rfc3339: pick(timestamps))!, read: Int.random(in: 0..<10, using: &random) == 0,
                thread: pick(threads), threadTitle: pick(titles),
                sender: sender,
                text: pick(texts), defaultText: pick([nil, "New reply on your page", ""]),
                url: pick([nil, "https://x.io/\u{1F600}?a=\"1\""])
            )
        }
        let displayed = (0..<Int.random(in: 0...3, using: &random)).map { _ in
            DisplayedEntry(
                key: pick(["m1", "chat:m2", "m3", "caf\u{E9}:m0"]), timestamp: Timestamp(rfc3339: pick(timestamps))!)
        }
        return ComposeRequest(
            notifications: notifications, displayed: displayed,
            now: Bool.random(using: &random) ? clock : Timestamp(rfc3339: "2026-11-29T12:00:00.0000000005Z")!,
            maxAgeSeconds: pick([600, 60, 0]), maxUnits: pick([256, 300]),
            app: pick([nil, "", "  Wiki  "]), serverApp: serverApp, recipient: pick([nil, "me"]),
            fetch: pick([.ok, .ok, .ok, .failed, .timeout])
        )
    }

    /// `request` as JSON; `now` is always written, so the clock is not read.
    static func json<R: RandomNumberGenerator>(
        _ request: ComposeRequest, escapeRate: Double, escapingNames: Bool = true, using random: inout R
    ) -> [UInt8] {
        var out = "{"
        func string(_ value: String, isName: Bool = false) {
            out += "\""
            for scalar in value.unicodeScalars {
                let escape = (escapingNames || !isName) && Double.random(in: 0..<1, using: &random) < escapeRate
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case _ where scalar.value < 0x20 || escape:
                    for unit in String(scalar).utf16 {
                        let hex = String(unit, radix: 16)
                        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    }
                default: out.unicodeScalars.append(scalar)
                }
            }
            out += "\""
        }
        func member(_ name: String, _ value: String?) {
            guard let value else { return }
            string(name, isName: true)  // names are escaped too, now and then (unless `escapingNames` is false)
            out += ":"
            string(value)
            out += ","
        }
        member("now", request.now.raw)
        out += "\"maxAgeSeconds\":\(request.maxAgeSeconds),\"maxUnits\":\(request.maxUnits),"
        member("app", request.app)
        member("recipient", request.recipient)
        member("fetch", request.fetch.rawValue)
        out += "\"displayed\":["
        for (index, entry) in request.displayed.enumerated() {
            out += index > 0 ? ",{" : "{"
            member("key", entry.key)
            member("timestamp", entry.timestamp.raw)
            out.removeLast()
            out += "}"
        }
        out += "],\"notifications\":["
        for (index, n) in request.notifications.enumerated() {
            out += index > 0 ? ",{" : "{"
            member("id", n.id)
            member("source", n.source)
            member("type", n.type)
            member("timestamp", n.timestamp.raw)
            out += n.read ? "\"read\":true," : ""
            member("thread", n.thread)
            member("threadTitle", n.threadTitle)
            if let sender = n.sender {
                out += "\"sender\":{"
                member("id", sender.id)
                member("name", sender.name)
                if out.hasSuffix(",") { out.removeLast() }
                out += "},"
            }
            member("text", n.text)
            member("defaultText", n.defaultText)
            member("url", n.url)
            out.removeLast()
            out += "}"
        }
        out += "]}"
        return Array(out.utf8)
    }
}
