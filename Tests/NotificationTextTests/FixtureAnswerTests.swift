import Foundation
import NotificationText
import Testing

/// The library as its own oracle: the shared fixtures through its public
/// API, the JSON answers compared with each case's expected response
/// (parsed by Foundation, independent of the engine's JSON).
@Suite struct FixtureAnswerTests {
    static let now = Timestamp(rfc3339: "2026-11-29T12:00:00Z")!

    static func cases(_ file: String) -> [[String: Any]] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../\(file)")
        guard let data = try? Data(contentsOf: url),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [] }
        return object["cases"] as? [[String: Any]] ?? []
    }

    @Test func bodyFixtures_renderAndAnswerTheExpectedBody() throws {
        let cases = Self.cases("test-fixtures/notification-body.json")
        #expect(cases.count >= 80, "test-fixtures/notification-body.json did not load")
        for fixture in cases {
            let id = fixture["id"] as! String
            let text = fixture["text"] as! String
            let maxUnits = fixture["maxUnits"] as? Int ?? BodyRenderer.defaultMaxUnits
            let expected = BodyRendering(
                body: fixture["body"] as! String, units: fixture["units"] as! Int,
                truncated: fixture["truncated"] as! Bool, inputCut: fixture["inputCut"] as! Bool)
            let rendering = BodyRenderer.render(text, maxUnits: maxUnits)
            #expect(Array(rendering.body.unicodeScalars) == Array(expected.body.unicodeScalars), "[\(id)]")
            #expect(rendering == expected, "[\(id)]")
            let request = try JSONSerialization.data(withJSONObject: ["text": text, "maxUnits": maxUnits])
            let answer = answer(bodyRequest: Array(request))
            #expect(answer.status == 200 && answer.contentType == "application/json", "[\(id)]")
            let value = try JSONSerialization.jsonObject(with: Data(answer.body)) as! [String: Any]
            #expect(value["body"] as? String == expected.body && value["units"] as? Int == expected.units, "[\(id)]")
        }
    }

    @Test func composeFixtures_answerTheExpectedResponse() throws {
        let cases = Self.cases("test-fixtures/compose.json")
        #expect(cases.count >= 50, "test-fixtures/compose.json did not load")
        for fixture in cases {
            let id = fixture["id"] as! String
            let request = try JSONSerialization.data(withJSONObject: fixture["request"]!)
            let answer = answer(composeRequest: Array(request), now: Self.now)
            #expect(answer.status == 200, "[\(id)] \(String(decoding: answer.body, as: UTF8.self))")
            let actual = try JSONSerialization.jsonObject(with: Data(answer.body)) as! NSDictionary
            let expected = fixture["response"] as! NSDictionary
            #expect(actual == expected, "[\(id)]\nactual: \(actual)\nexpected: \(expected)")
        }
    }

    /// push.json through the JSON entry point, and its plain-value
    /// `Composer`: the members push.md decides, and each payload's size.
    @Test func pushFixtures_answerTheExpectedMembers() throws {
        let cases = Self.cases("test-fixtures/push.json")
        #expect(cases.count >= 60, "test-fixtures/push.json did not load")
        let members = ["kind", "reason", "notification", "locale", "direction", "displayed", "push"]
        for fixture in cases {
            let id = fixture["id"] as! String
            let request = try JSONSerialization.data(withJSONObject: fixture["request"]!)
            let answer = answer(composeRequest: Array(request), now: Self.now)
            #expect(answer.status == 200, "[\(id)] \(String(decoding: answer.body, as: UTF8.self))")
            let actual = try JSONSerialization.jsonObject(with: Data(answer.body)) as! [String: Any]
            let expected = fixture["response"] as! [String: Any]
            let decided = NSDictionary(dictionary: actual.filter { members.contains($0.key) })
            #expect(decided == NSDictionary(dictionary: expected), "[\(id)]\nactual: \(decided)")

            // The plain values: the same payloads, sizes and cuts.
            let plain = Composer.compose(try Self.plainRequest(fixture["request"] as! [String: Any]))
            #expect(plain.direction.rawValue == expected["direction"] as? String, "[\(id)] direction")
            #expect(plain.notification.body == (expected["notification"] as! [String: Any])["body"] as? String)
            guard let push = expected["push"] as? [String: Any] else {
                #expect(plain.push == nil, "[\(id)] push")
                continue
            }
            let values = try #require(plain.push, "[\(id)] no push")
            let sizes = fixture["sizes"] as! [String: Int]
            #expect(values.apns.json.utf8.count == sizes["apns"], "[\(id)] apns")
            #expect(values.fcm.json.utf8.count == sizes["fcm"], "[\(id)] fcm")
            #expect(values.webpush.json.utf8.count == sizes["webpush"], "[\(id)] webpush")
            #expect(values.send == push["send"] as? Bool && values.withdraw == push["withdraw"] as? [String])
            #expect(values.alert == push["alert"] as? Bool, "[\(id)] alert")
            #expect(values.heldUntil?.description == push["heldUntil"] as? String, "[\(id)] heldUntil")
            // The withdrawal payloads: their sizes and their JSON.
            let withdrawal = push["withdrawal"] as! [String: [String: Any]]
            for (name, payload, member) in [
                ("apns", values.withdrawal.apns, "payload"), ("fcm", values.withdrawal.fcm, "message"),
                ("webpush", values.withdrawal.webpush, "payload"),
            ] {
                #expect(payload.json.utf8.count == sizes["withdrawal-" + name], "[\(id)] withdrawal \(name)")
                let written = try JSONSerialization.jsonObject(with: Data(payload.json.utf8)) as! NSDictionary
                #expect(written == withdrawal[name]![member] as! NSDictionary, "[\(id)] withdrawal \(name)")
            }
            let cut = push["cut"] as! [String: [String]]
            #expect(values.apns.cut.map(\.rawValue) == cut["apns"], "[\(id)] cut")
            #expect(values.webpush.cut.map(\.rawValue) == cut["webpush"], "[\(id)] cut")
            let apns = (push["apns"] as! [String: Any])["payload"] as! NSDictionary
            let written = try JSONSerialization.jsonObject(with: Data(values.apns.json.utf8)) as! NSDictionary
            #expect(written == apns, "[\(id)] apns payload")
            let headers = (push["webpush"] as! [String: Any])["headers"] as! [String: String]
            #expect(Dictionary(uniqueKeysWithValues: values.webpush.headers.map { ($0.name, $0.value) }) == headers)
            // push.md P9 and P24: the importance, the sender and the conversation, as values and as
            // an extension decodes them from the APNs payload.
            #expect(values.importance.rawValue == push["importance"] as? String, "[\(id)] importance")
            let sender = push["sender"] as? [String: String]
            #expect(
                (values.sender == nil) == (sender == nil) && values.sender?.id == sender?["id"]
                    && values.sender?.name == sender?["name"] && values.sender?.avatar == sender?["avatar"],
                "[\(id)] sender")
            let conversation = push["conversation"] as? [String: Any]
            #expect(
                (values.conversation == nil) == (conversation == nil)
                    && values.conversation?.id == conversation?["id"] as? String
                    && values.conversation?.title == conversation?["title"] as? String
                    && values.conversation?.isGroup == conversation?["group"] as? Bool, "[\(id)] conversation")
            if let object = apns["sender"] {
                let decoded = try JSONDecoder().decode(
                    CommunicationSender.self, from: JSONSerialization.data(withJSONObject: object))
                #expect(decoded == values.sender, "[\(id)] sender decoded")
            }
            if let object = apns["conversation"] {
                let decoded = try JSONDecoder().decode(
                    CommunicationConversation.self, from: JSONSerialization.data(withJSONObject: object))
                #expect(decoded == values.conversation, "[\(id)] conversation decoded")
            }
        }
    }

    /// A fixture request as the library's plain values (the members push.json uses).
    static func plainRequest(_ object: [String: Any]) throws -> ComposeRequest {
        let notifications = (object["notifications"] as? [[String: Any]] ?? []).map { n in
            let sender = (n["sender"] as? [String: Any]).map {
                PendingNotification.Sender(
                    id: $0["id"] as? String, name: $0["name"] as? String, avatar: $0["avatar"] as? String)
            }
            return PendingNotification(
                id: n["id"] as! String, source: n["source"] as? String, type: n["type"] as! String,
                timestamp: Timestamp(rfc3339: n["timestamp"] as! String)!, read: n["read"] as? Bool ?? false,
                thread: n["thread"] as? String, threadTitle: n["threadTitle"] as? String,
                threadIsGroup: n["threadIsGroup"] as? Bool ?? false, sender: sender,
                text: n["text"] as? String, defaultText: n["defaultText"] as? String, url: n["url"] as? String,
                importance: (n["importance"] as? String).flatMap(Importance.init(rawValue:)) ?? .normal)
        }
        let displayed = (object["displayed"] as? [[String: Any]] ?? []).map {
            DisplayedEntry(
                key: $0["key"] as? String, timestamp: Timestamp(rfc3339: $0["timestamp"] as! String)!,
                group: $0["group"] as? String, digest: $0["digest"] as? String,
                alerted: ($0["alerted"] as? String).flatMap(Timestamp.init(rfc3339:)), direct: $0["direct"] as? Bool)
        }
        let push = (object["push"] as? [String: Any]).map {
            PushOptions(
                badge: $0["badge"] as? Int, androidChannel: $0["androidChannel"] as? String,
                reserveBytes: $0["reserveBytes"] as? Int ?? 0, stamp: ($0["stamp"] as? NSNumber)?.int64Value,
                alertWindowSeconds: $0["alertWindowSeconds"] as? Int ?? PushOptions.defaultAlertWindowSeconds,
                activeUntil: ($0["activeUntil"] as? String).flatMap(Timestamp.init(rfc3339:)),
                declarativeWebPush: $0["webPush"] as? String == "declarative", navigate: $0["navigate"] as? String,
                mutable: $0["mutable"] as? Bool ?? false)
        }
        return ComposeRequest(
            notifications: notifications, displayed: displayed,
            now: Timestamp(rfc3339: object["now"] as! String)!,
            maxAgeSeconds: object["maxAgeSeconds"] as? Int ?? ComposeRequest.defaultMaxAgeSeconds,
            maxUnits: object["maxUnits"] as? Int ?? BodyRenderer.defaultMaxUnits, app: object["app"] as? String,
            recipient: object["recipient"] as? String,
            fetch: FetchOutcome(rawValue: object["fetch"] as? String ?? "ok")!, locale: object["locale"] as? String,
            preview: PreviewTier(rawValue: object["preview"] as? String ?? "full")!, push: push)
    }
}
