import EngineTestSupport
import Foundation
import HTTPCore
import NotificationText
import Testing

/// The library apps link (`NotificationText`) against the service's routes:
/// its JSON answers give the route's status and bytes for every fixture case
/// and for seeded random requests, and its plain-value composer gives the
/// values of those bytes. This file imports the library and not the engine,
/// so every name here is the library's public API.
@Suite struct LibraryAnswerTests {
    let harness = ServiceHarness()
    /// The harness's clock (`testNowNanoseconds`), for requests without `now`.
    static let serverNow = Timestamp(rfc3339: "2026-11-29T12:00:00.000000000Z")!

    @Test func bodyFixtures_answerAsTheRoute() throws {
        let cases = try Self.fixtureCases("test-fixtures/notification-body.json")
        #expect(cases.count >= 80)
        for fixture in cases {
            var request: [String: Any] = ["text": fixture["text"] as! String]
            if let maxUnits = fixture["maxUnits"] as? Int { request["maxUnits"] = maxUnits }
            let body = try JSONSerialization.data(withJSONObject: request)
            expectSameAnswer(body: Array(body), label: fixture["id"] as! String)
            // The plain path renders what the JSON says.
            let rendering = BodyRenderer.render(
                fixture["text"] as! String, maxUnits: fixture["maxUnits"] as? Int ?? BodyRenderer.defaultMaxUnits)
            #expect(Array(rendering.body.utf8) == Array((fixture["body"] as! String).utf8), "\(fixture["id"]!)")
            #expect(rendering.units == fixture["units"] as! Int, "\(fixture["id"]!)")
        }
    }

    @Test func composeFixtures_answerAsTheRoute() throws {
        let cases = try Self.fixtureCases("test-fixtures/compose.json")
        #expect(cases.count >= 50)
        for fixture in cases {
            let body = try JSONSerialization.data(withJSONObject: fixture["request"]!)
            expectSameAnswer(compose: Array(body), label: fixture["id"] as! String)
        }
    }

    @Test func sampleRequests_answerAsTheRoute() {
        expectSameAnswer(body: repositoryFile("test-fixtures/body-request.json"), label: "body-request.json")
        expectSameAnswer(compose: repositoryFile("test-fixtures/request.json"), label: "request.json")
    }

    /// Bodies the routes refuse: the library answers the same problem, byte for byte.
    @Test func refusedBodies_answerTheRouteProblem() {
        let bodies = [
            "", "{", "[]", "null", #"{"text":1}"#, #"{"maxUnits":300}"#, #"{"text":"a","maxUnits":5}"#,
            #"{"text":"a","text":"b"}"#, #"{"text":"\ud800"}"#, #"{"text":"a","maxUnits":1.5}"#,
            String(repeating: "[", count: 200) + String(repeating: "]", count: 200),
        ]
        for body in bodies {
            expectSameAnswer(body: Array(body.utf8), label: "body \(body.prefix(40))")
            expectSameAnswer(compose: Array(body.utf8), label: "compose \(body.prefix(40))")
        }
        let composes = [
            #"{"notifications":[{"id":"1","type":"message"}]}"#,
            #"{"notifications":[],"locale":"not a tag"}"#,
            #"{"notifications":[],"now":"yesterday"}"#,
            #"{"notifications":[],"maxAgeSeconds":-1}"#,
            #"{"notifications":[],"fetch":"maybe"}"#,
            #"{"notifications":[{"id":"1","source":"a:b","type":"message","timestamp":"2026-11-29T12:00:00Z"}]}"#,
        ]
        for body in composes { expectSameAnswer(compose: Array(body.utf8), label: body) }
        let invalid: [UInt8] = Array(#"{"text":""#.utf8) + [0xFF] + Array(#""}"#.utf8)
        expectSameAnswer(body: invalid, label: "invalid UTF-8")
        let answer = answer(bodyRequest: invalid)
        #expect(answer.status == 400 && answer.contentType == "application/problem+json")
    }

    /// Seeded random requests in all 18 built-in locales (and tags that
    /// fall back, or are malformed), some of them broken: the plain path, the
    /// JSON path and the route agree.
    @Test func randomRequests_agreeOnEveryPath() throws {
        var random = SplitMix64(seed: 28)
        let count = ProcessInfo.processInfo.environment["LIBRARY_DIFFERENTIAL_COUNT"].flatMap(Int.init) ?? 3000
        var composed = 0
        var refused = 0
        for round in 0..<count {
            let request = LibraryRequests.request(using: &random)
            var json = LibraryRequests.json(request.plain, wireNow: request.wireNow)
            if round % 10 == 9 { LibraryRequests.breakSomething(&json, using: &random) }
            let label = "round \(round): \(String(decoding: json, as: UTF8.self))"
            let answered = expectSameAnswer(compose: json, label: label)
            guard answered.status == 200 else {
                refused += 1
                continue
            }
            composed += 1
            var plainRequest = request.plain
            if !request.wireNow { plainRequest.now = Self.serverNow }
            var plain = Composer.compose(plainRequest)
            let decoded = try LibraryRequests.response(answered.body)
            try LibraryRequests.expectSamePush(plain.push, answered.body, label: label)
            plain.push = nil
            #expect(plain == decoded, "\(label)\nplain: \(plain)\nJSON: \(decoded)")
            if round % 7 == 0 {
                let text = request.plain.notifications.first?.text ?? "x"
                let body = try JSONSerialization.data(withJSONObject: [
                    "text": text, "maxUnits": request.plain.maxUnits,
                ])
                let bodyAnswer = expectSameAnswer(body: Array(body), label: "body of \(label)")
                if bodyAnswer.status == 200 {
                    let value = try JSONSerialization.jsonObject(with: Data(bodyAnswer.body)) as! [String: Any]
                    #expect(
                        BodyRenderer.render(text, maxUnits: request.plain.maxUnits).body == value["body"] as? String)
                }
            }
        }
        #expect(composed > count / 2 && refused > count / 20, "\(composed) composed, \(refused) refused")
    }

    // MARK: Helpers

    @discardableResult
    private func expectSameAnswer(body: [UInt8], label: String) -> JSONAnswer {
        let library = answer(bodyRequest: body)
        let route = harness.post("/body", bytes: body)
        #expect(library.status == route.status, "\(label)")
        #expect(library.contentType == route.header("Content-Type"), "\(label)")
        #expect(library.body == route.body, "\(label): \(String(decoding: library.body, as: UTF8.self))")
        return library
    }

    @discardableResult
    private func expectSameAnswer(compose body: [UInt8], label: String) -> JSONAnswer {
        let library = answer(composeRequest: body, now: Self.serverNow)
        let route = harness.post("/compose", bytes: body)
        #expect(library.status == route.status, "\(label)")
        #expect(library.contentType == route.header("Content-Type"), "\(label)")
        #expect(
            library.body == route.body,
            "\(label)\nlibrary: \(String(decoding: library.body, as: UTF8.self))\nroute: \(route.text)")
        return library
    }

    private static func fixtureCases(_ path: String) throws -> [[String: Any]] {
        let file = try JSONSerialization.jsonObject(with: Data(repositoryFile(path))) as! [String: Any]
        return file["cases"] as! [[String: Any]]
    }
}

/// Random compose requests as the library's values and as the JSON of the
/// same request.
enum LibraryRequests {
    static let locales = [
        "ar", "de", "en", "es", "fr", "he", "hi", "it", "ja", "ko", "pl", "pt-PT", "pt", "ru", "tr", "uk", "zh-Hans",
        "zh-Hant",
    ]
    static let otherLocales = ["pt-BR", "zh-TW", "en-GB", "sr-Latn", "xx", "de-CH-1996"]
    static let texts = [
        "hi", "**bold** and `code`", "See [the run](https://ci.example.com/r/1)", "Привет, **мир**", "مرحبا بالعالم",
        "שלום", "👍🏽 done ~~not~~", "line one\nline two\r\n\nnext", "  spaced\t out  ", "a\u{0301}\u{0302}",
        String(repeating: "long text ", count: 40), "# Title\n- item", "```\ncode\n```", "", " ",
        "tab\there \"quoted\" \\ back", "\u{202E}rtl override", "日本語のテキスト",
    ]
    static let names = ["Ana", "Bo", "Łukasz", "محمد", "李雷", "  Zoë  ", "", "O'Brien \"Bob\""]

    struct Request {
        var plain: NotificationText.ComposeRequest
        /// Whether the JSON carries `now` (else the server's clock).
        var wireNow: Bool
    }

    static func pick<T>(_ values: [T], using random: inout SplitMix64) -> T {
        values[Int.random(in: 0..<values.count, using: &random)]
    }

    static func maybe(_ percent: Int, using random: inout SplitMix64) -> Bool {
        Int.random(in: 0..<100, using: &random) < percent
    }

    /// A timestamp `offset` seconds from 2026-11-29T12:00:00Z, in one of the forms RFC 3339 allows.
    static func timestamp(_ offset: Int, using random: inout SplitMix64) -> Timestamp {
        let seconds = 43_200 + offset
        let day = 29 + seconds.floorDivided(by: 86_400)
        let rest = seconds - (day - 29) * 86_400
        let fraction = pick(["", ".5", ".123", ".000000001", ".999999999999"], using: &random)
        let zone = pick(["Z", "+00:00", "z"], using: &random)
        let text =
            "2026-11-\(two(day))T\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))\(fraction)\(zone)"
        return Timestamp(rfc3339: text)!
    }

    static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    static func request(using random: inout SplitMix64) -> Request {
        let count = Int.random(in: 0...6, using: &random)
        let thread = pick(["t1", "t2", nil], using: &random)
        var notifications: [PendingNotification] = []
        for index in 0..<count {
            let sender: PendingNotification.Sender? =
                maybe(80, using: &random)
                ? .init(
                    id: maybe(80, using: &random) ? pick(["u1", "u2", "me"], using: &random) : nil,
                    name: maybe(85, using: &random) ? pick(names, using: &random) : nil) : nil
            notifications.append(
                PendingNotification(
                    id: maybe(10, using: &random) ? "n0" : "n\(index)",
                    source: maybe(40, using: &random) ? pick(["wiki", "forum", ""], using: &random) : nil,
                    type: pick(["message", "mention", "reply", "like", "edit"], using: &random),
                    timestamp: timestamp(Int.random(in: -900...400, using: &random), using: &random),
                    read: maybe(15, using: &random),
                    thread: maybe(70, using: &random) ? thread ?? "t3" : nil,
                    threadTitle: maybe(50, using: &random) ? pick(["Deploys", "日本", "  x  "], using: &random) : nil,
                    sender: sender,
                    text: maybe(80, using: &random) ? pick(texts, using: &random) : nil,
                    defaultText: maybe(40, using: &random) ? pick(texts, using: &random) : nil,
                    url: maybe(50, using: &random) ? "https://example.com/\(index)" : nil))
        }
        var displayed: [DisplayedEntry] = []
        for index in 0..<Int.random(in: 0...3, using: &random) {
            let key =
                maybe(60, using: &random) && !notifications.isEmpty
                ? pick(notifications, using: &random).key : "old\(index)"
            displayed.append(
                DisplayedEntry(
                    key: key, timestamp: timestamp(-Int.random(in: 0...2000, using: &random), using: &random)))
        }
        let locale: String? =
            maybe(15, using: &random)
            ? nil : maybe(85, using: &random) ? pick(locales, using: &random) : pick(otherLocales, using: &random)
        let wireNow = maybe(80, using: &random)
        return Request(
            plain: ComposeRequest(
                notifications: notifications, displayed: displayed,
                now: wireNow
                    ? timestamp(Int.random(in: -60...60, using: &random), using: &random)
                    : LibraryAnswerTests.serverNow,
                maxAgeSeconds: maybe(70, using: &random)
                    ? ComposeRequest.defaultMaxAgeSeconds : Int.random(in: 0...1200, using: &random),
                maxUnits: maybe(70, using: &random)
                    ? BodyRenderer.defaultMaxUnits : Int.random(in: 256...400, using: &random),
                app: maybe(30, using: &random) ? pick(["Chat", " ", "Wiki Team"], using: &random) : nil,
                recipient: maybe(50, using: &random) ? "me" : nil,
                fetch: maybe(90, using: &random) ? .ok : pick([.failed, .timeout], using: &random),
                locale: locale, preview: pick(PreviewTier.allCases, using: &random),
                push: maybe(50, using: &random)
                    ? PushOptions(
                        badge: maybe(50, using: &random) ? Int.random(in: 0...99, using: &random) : nil,
                        androidChannel: maybe(50, using: &random) ? pick(["chat", "é\"\\"], using: &random) : nil,
                        reserveBytes: Int.random(in: 0...2048, using: &random),
                        stamp: maybe(50, using: &random)
                            ? Int64.random(in: PushOptions.stampRange, using: &random) : nil,
                        declarativeWebPush: maybe(50, using: &random), navigate: "https://chat.example/",
                        mutable: maybe(50, using: &random))
                    : nil),
            wireNow: wireNow)
    }

    static func json(_ request: NotificationText.ComposeRequest, wireNow: Bool) -> [UInt8] {
        var object: [String: Any] = [
            "notifications": request.notifications.map { notification -> [String: Any] in
                var value: [String: Any] = [
                    "id": notification.id, "type": notification.type, "timestamp": notification.timestamp.rfc3339,
                    "read": notification.read,
                ]
                value["source"] = notification.source
                value["thread"] = notification.thread
                value["threadTitle"] = notification.threadTitle
                value["text"] = notification.text
                value["defaultText"] = notification.defaultText
                value["url"] = notification.url
                if let sender = notification.sender {
                    var senderValue: [String: Any] = [:]
                    senderValue["id"] = sender.id
                    senderValue["name"] = sender.name
                    value["sender"] = senderValue
                }
                return value
            },
            "displayed": request.displayed.map { ["key": $0.key, "timestamp": $0.timestamp.rfc3339] },
            "maxAgeSeconds": request.maxAgeSeconds, "maxUnits": request.maxUnits, "fetch": request.fetch.rawValue,
        ]
        if wireNow { object["now"] = request.now.rfc3339 }
        object["app"] = request.app
        object["recipient"] = request.recipient
        object["locale"] = request.locale
        if request.preview != .full || request.maxUnits % 2 == 0 { object["preview"] = request.preview.rawValue }
        if let push = request.push {
            var value: [String: Any] = ["reserveBytes": push.reserveBytes]
            value["badge"] = push.badge
            value["androidChannel"] = push.androidChannel
            value["stamp"] = push.stamp
            value["webPush"] = push.declarativeWebPush ? "declarative" : "classic"
            value["navigate"] = push.navigate
            value["mutable"] = push.mutable
            object["push"] = value
        }
        return Array(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    /// Turns the JSON into a request the routes refuse (or, rarely, accept otherwise).
    static func breakSomething(_ json: inout [UInt8], using random: inout SplitMix64) {
        let text = String(decoding: json, as: UTF8.self)
        let broken: String
        switch Int.random(in: 0..<5, using: &random) {
        case 0: broken = String(text.dropLast())
        case 1: broken = text.replacingOccurrences(of: #""maxUnits":"#, with: #""maxUnits":-"#)
        case 2: broken = text.replacingOccurrences(of: #""fetch":""#, with: #""fetch":"x"#)
        case 3: broken = "{" + #""locale":"!!","# + text.dropFirst()
        default: broken = text.replacingOccurrences(of: #""displayed":["#, with: #""displayed":[1,"#)
        }
        json = Array(broken.utf8)
    }

    /// A `POST /compose` answer read back into the library's values.
    static func response(_ body: [UInt8]) throws -> ComposeResponse {
        let object = try JSONSerialization.jsonObject(with: Data(body)) as! [String: Any]
        let content = object["notification"] as! [String: Any]
        return ComposeResponse(
            kind: ComposeResponse.Kind(rawValue: object["kind"] as! String)!,
            reason: (object["reason"] as? String).map { ComposeResponse.FallbackReason(rawValue: $0)! },
            notification: try JSONDecoder().decode(
                ComposeResponse.Content.self, from: JSONSerialization.data(withJSONObject: content)),
            shown: object["shown"] as! [String],
            dropped: (object["dropped"] as! [[String: String]]).map {
                ComposeResponse.Drop(key: $0["key"]!, reason: ComposeResponse.DropReason(rawValue: $0["reason"]!)!)
            },
            displayed: (object["displayed"] as! [[String: Any]]).map {
                DisplayedEntry(
                    key: $0["key"] as? String, timestamp: Timestamp(rfc3339: $0["timestamp"] as! String)!,
                    group: $0["group"] as? String, digest: $0["digest"] as? String,
                    alerted: ($0["alerted"] as? String).flatMap(Timestamp.init(rfc3339:)), direct: $0["direct"] as? Bool
                )
            },
            locale: object["locale"] as! String,
            direction: ComposeResponse.TextDirection(rawValue: object["direction"] as! String)!)
    }

    /// The plain path's push answer has the values of the JSON's `push`
    /// (payloads compared as parsed JSON: Foundation does not keep member order).
    static func expectSamePush(_ plain: PushAnswer?, _ body: [UInt8], label: String) throws {
        let object = try JSONSerialization.jsonObject(with: Data(body)) as! [String: Any]
        guard let push = object["push"] as? [String: Any] else {
            #expect(plain == nil, "\(label): push only on the plain path")
            return
        }
        let values = try #require(plain, "\(label): push only in the JSON")
        #expect(values.send == push["send"] as? Bool && values.withdraw == push["withdraw"] as? [String], "\(label)")
        #expect(values.alert == push["alert"] as? Bool, "\(label)")
        let withdrawal = push["withdrawal"] as! [String: [String: Any]]
        for (name, payload, member) in [
            ("apns", values.withdrawal.apns, "payload"), ("fcm", values.withdrawal.fcm, "message"),
            ("webpush", values.withdrawal.webpush, "payload"),
        ] {
            let json = try JSONSerialization.jsonObject(with: Data(payload.json.utf8)) as! NSDictionary
            #expect(json == withdrawal[name]![member] as! NSDictionary, "\(label): withdrawal \(name)")
        }
        let cut = push["cut"] as! [String: [String]]
        for (name, payload, member) in [
            ("apns", values.apns, "payload"), ("fcm", values.fcm, "message"), ("webpush", values.webpush, "payload"),
        ] {
            let written = (push[name] as! [String: Any])[member] as! NSDictionary
            let json = try JSONSerialization.jsonObject(with: Data(payload.json.utf8)) as! NSDictionary
            #expect(json == written, "\(label): \(name)")
            #expect(payload.cut.map(\.rawValue) == cut[name], "\(label): \(name) cut")
            let headers = (push[name] as! [String: Any])["headers"] as? [String: String] ?? [:]
            #expect(
                Dictionary(uniqueKeysWithValues: payload.headers.map { ($0.name, $0.value) }) == headers,
                "\(label): \(name) headers")
        }
    }
}

extension Int {
    fileprivate func floorDivided(by divisor: Int) -> Int {
        (self >= 0 ? self : self - divisor + 1) / divisor
    }
}
