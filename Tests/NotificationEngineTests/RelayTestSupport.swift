import Foundation
import Testing

@testable import NotificationEngine

/// Calls the relay's core as `POST /relay` does, with hand-written records.
enum RelayCall {
    /// 2026-11-29T12:00:00Z in Unix milliseconds.
    static let noonMilliseconds: Int64 = 1_795_953_600_000
    static let noon = "2026-11-29T12:00:00Z"

    static let apnsToken = "a1b2c3d4a1b2c3d4a1b2c3d4a1b2c3d4a1b2c3d4a1b2c3d4a1b2c3d4a1b2c3d4"
    static let fcmToken = "fcm-token-0123456789"

    static func apnsDevice(_ id: String = "phone", badge: Int? = nil, outbox: [[String: Any]] = []) -> [String: Any] {
        [
            "id": id, "transport": "apns", "token": apnsToken, "topic": "chat.example.app",
            "badge": badge.map { $0 as Any } ?? NSNull(), "attempt": 0, "next": NSNull(), "outbox": outbox,
        ]
    }

    static func fcmDevice(_ id: String = "android", badge: Int? = nil, outbox: [[String: Any]] = []) -> [String: Any] {
        [
            "id": id, "transport": "fcm", "token": fcmToken, "badge": badge.map { $0 as Any } ?? NSNull(),
            "attempt": 0, "next": NSNull(), "outbox": outbox,
        ]
    }

    static func webDevice(_ id: String = "laptop", badge: Int? = nil, outbox: [[String: Any]] = []) -> [String: Any] {
        [
            "id": id, "transport": "webpush", "token": "https://push.example/sub/1",
            "badge": badge.map { $0 as Any } ?? NSNull(), "attempt": 0, "next": NSNull(), "outbox": outbox,
        ]
    }

    static func record(
        devices: [[String: Any]], displayed: [[String: Any]] = [], stamp: Int64? = nil, refresh: Bool = false,
        due: [String: Any]? = nil
    ) -> [String: Any] {
        [
            "recipient": "me",
            "settings": ["locale": "en", "preview": "full", "maxAgeSeconds": 600, "maxUnits": 256],
            "displayed": displayed, "stamp": stamp.map { $0 as Any } ?? NSNull(), "refresh": refresh,
            "due": due ?? NSNull(), "devices": devices,
        ]
    }

    /// An outbox entry as the core writes one.
    static func entry(
        stamp: Int64, kind: String = "alert", group: String = "t1", fallback: Bool = false, end: Int64,
        headers: [String: Any] = [:], payload: [String: Any] = ["stamp": 1]
    ) -> [String: Any] {
        [
            "stamp": stamp, "kind": kind, "group": group, "fallback": fallback, "end": end, "headers": headers,
            "payload": payload,
        ]
    }

    /// A message notification `id` of thread `thread`, `secondsAgo` before noon.
    static func message(_ id: String, thread: String = "t1", secondsAgo: Int = 60) -> [String: Any] {
        let time = Date(timeIntervalSince1970: Double(noonMilliseconds / 1000 - Int64(secondsAgo)))
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return [
            "id": id, "source": "chat", "type": "message", "timestamp": formatter.string(from: time),
            "thread": thread, "threadTitle": "Design", "sender": ["id": "ana", "name": "Ana"], "text": "Hello",
        ]
    }

    /// The answer's JSON object; records a failure (and returns [:]) for a problem.
    static func answer(_ request: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) -> [String: Any] {
        let bytes = [UInt8](try! JSONSerialization.data(withJSONObject: request))
        do {
            let answer = try RequestAnswers.relay(
                request: bytes, appName: "Chat", catalogs: .builtIn, kept: KeptShapes())
            return try! JSONSerialization.jsonObject(with: Data(answer)) as! [String: Any]
        } catch {
            Issue.record("problem \(error.code): \(error.detail)", sourceLocation: sourceLocation)
            return [:]
        }
    }

    /// The problem a request gets; nil when it is answered.
    static func problem(_ body: String) -> Problem? {
        do {
            _ = try RequestAnswers.relay(
                request: Array(body.utf8), appName: "Chat", catalogs: .builtIn, kept: KeptShapes())
            return nil
        } catch {
            return error
        }
    }
}

extension Dictionary where Key == String, Value == Any {
    subscript(object name: String) -> [String: Any] { self[name] as? [String: Any] ?? [:] }
    subscript(array name: String) -> [[String: Any]] { self[name] as? [[String: Any]] ?? [] }
    subscript(int name: String) -> Int64? { (self[name] as? NSNumber)?.int64Value }
    subscript(string name: String) -> String? { self[name] as? String }
    func isNull(_ name: String) -> Bool { self[name] is NSNull }

    /// The device `id` of a record.
    func device(_ id: String) -> [String: Any] { self[array: "devices"].first { $0[string: "id"] == id } ?? [:] }

    /// The JSON object in a send's `body`.
    var bodyObject: [String: Any] {
        guard let body = self[string: "body"] else { return [:] }
        return (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
    }
}
