import Foundation
import Testing

@testable import NotificationEngine

/// Runs every case of `test-fixtures/compose.json` through `Composer.compose`.
@Suite struct ComposeFixtureTests {
    @Test(arguments: ComposeFixture.cases)
    func compose_matchesSharedFixtureCase(_ fixtureCase: ComposeFixture.Case) throws {
        let request = try #require(
            fixtureCase.request, "\(fixtureCase.id): request does not decode: \(fixtureCase.problem ?? "")")
        let actual = FixtureJSON(Composer.compose(request))
        let matches = actual == fixtureCase.expected
        #expect(
            matches,
            """
            \(fixtureCase.id): \(fixtureCase.description)
            \(fixtureCase.expected.firstDifference(from: actual) ?? "")
            expected: \(clipped(fixtureCase.expected.rendered))
            actual:   \(clipped(actual.rendered))
            """
        )
    }

    /// Whole responses of the large cases would bury the difference line.
    func clipped(_ text: String) -> String {
        text.count <= 2000 ? text : text.prefix(2000) + "… (\(text.count) characters)"
    }

    @Test func fixture_hasAtLeastFortyCasesWithUniqueKebabCaseIDs() {
        let ids = ComposeFixture.cases.map(\.id)
        #expect(ids.count >= 40)
        expectUniqueKebabCaseIDs(ids)
    }
}

/// The shared fixture, decoded once into model values (the wire decoding is
/// the service's; this is a small test-side equivalent for valid requests).
enum ComposeFixture {
    struct Case: Sendable, CustomTestStringConvertible {
        let id: String
        let description: String
        /// `nil` when the request did not decode; `problem` says why.
        let request: ComposeRequest?
        let problem: String?
        let expected: FixtureJSON
        var testDescription: String { id }
    }

    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("test-fixtures/compose.json")

    static let cases: [Case] = {
        guard let data = try? Data(contentsOf: url),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let cases = root["cases"] as? [[String: Any]]
        else {
            return [
                Case(
                    id: "fixture-file-unreadable", description: url.path, request: nil,
                    problem: "cannot read \(url.path)", expected: .null)
            ]
        }
        return cases.map { object in
            let id = object["id"] as? String ?? "missing-id"
            let expected = FixtureJSON(any: object["response"] as Any)
            do {
                let request = try decodeRequest(object["request"] as? [String: Any] ?? [:])
                return Case(
                    id: id, description: object["description"] as? String ?? "", request: request, problem: nil,
                    expected: expected)
            } catch {
                return Case(
                    id: id, description: object["description"] as? String ?? "", request: nil, problem: "\(error)",
                    expected: expected)
            }
        }
    }()

    struct DecodeError: Error, CustomStringConvertible {
        let description: String
    }

    static func decodeRequest(_ object: [String: Any]) throws -> ComposeRequest {
        func timestamp(_ value: Any?, _ field: String) throws -> Timestamp {
            guard let raw = value as? String, let timestamp = Timestamp(rfc3339: raw) else {
                throw DecodeError(description: "\(field) is not an RFC 3339 time")
            }
            return timestamp
        }
        var displayed: [DisplayedEntry] = []
        for entry in object["displayed"] as? [[String: Any]] ?? [] {
            displayed.append(
                DisplayedEntry(
                    key: entry["key"] as? String, timestamp: try timestamp(entry["timestamp"], "displayed.timestamp"),
                    group: entry["group"] as? String, digest: entry["digest"] as? String,
                    alerted: try entry["alerted"].flatMap { $0 is NSNull ? nil : try timestamp($0, "alerted") },
                    direct: entry["direct"] as? Bool))
        }
        var notifications: [PendingNotification] = []
        for n in object["notifications"] as? [[String: Any]] ?? [] {
            var texts: [ComposeRequest.NotificationRanges.Field: String] = [:]
            var scalars = ComposeDecoder.NotificationMember.defaultScalars
            try fill(&texts, &scalars, from: n, by: ComposeDecoder.NotificationMember.self)
            if let sender = n["sender"] as? [String: Any] {
                try fill(&texts, &scalars, from: sender, by: ComposeDecoder.SenderMember.self)
            }
            notifications.append(
                PendingNotification(
                    text: { texts[$0] }, timestamp: try timestamp(n["timestamp"], "timestamp"), scalars: scalars))
        }
        var request = ComposeRequest(
            notifications: notifications, displayed: displayed, now: try timestamp(object["now"], "now"))
        if let value = object["maxAgeSeconds"] { request.maxAgeSeconds = try cast(value, "maxAgeSeconds") }
        if let value = object["maxUnits"] { request.maxUnits = try cast(value, "maxUnits") }
        if let value = object["app"] { request.app = try cast(value, "app") }
        if let value = object["recipient"] { request.recipient = try cast(value, "recipient") }
        if let value = object["fetch"] {
            guard let fetch = FetchOutcome(rawValue: try cast(value, "fetch")) else {
                throw DecodeError(description: "fetch")
            }
            request.fetch = fetch
        }
        if let value = object["locale"], !(value is NSNull) {
            let locale: String = try cast(value, "locale")
            guard let catalog = CatalogSet.builtIn.catalog(forLocale: locale) else {
                throw DecodeError(description: "locale \(locale) is malformed")
            }
            request.catalog = catalog
        }
        if let value = object["preview"], !(value is NSNull) {
            guard let raw = value as? String, let tier = PreviewTier(rawValue: raw) else {
                throw DecodeError(description: "preview")
            }
            request.preview = tier
        }
        if let push = object["push"] as? [String: Any] {
            request.push = PushOptions(
                badge: push["badge"] as? Int, androidChannel: push["androidChannel"] as? String,
                reserveBytes: push["reserveBytes"] as? Int ?? 0, stamp: (push["stamp"] as? NSNumber)?.int64Value,
                alertWindowSeconds: push["alertWindowSeconds"] as? Int ?? PushOptions.defaultAlertWindowSeconds,
                activeUntil: try push["activeUntil"].map { try timestamp($0, "activeUntil") },
                declarativeWebPush: push["webPush"] as? String == PushOptions.WebPushFormat.declarative.rawValue,
                navigate: push["navigate"] as? String, mutable: push["mutable"] as? Bool ?? false)
        }
        return request
    }

    /// Puts each member of `object` in its slot by the wire table's row
    /// (`WireTable.swift`), as the service's decoder does, so a member added
    /// to the table is read here without a line of its own.
    static func fill<Member: WireMember>(
        _ texts: inout [ComposeRequest.NotificationRanges.Field: String], _ scalars: inout ComposeRequest.ScalarSlots,
        from object: [String: Any], by _: Member.Type
    ) throws {
        for (member, _) in Member.requiredTexts where object[member.rawValue] == nil {
            throw DecodeError(description: "\(member.rawValue) is missing")
        }
        for member in Member.allCases {
            guard let value = object[member.rawValue], !(value is NSNull) else { continue }
            switch member.field.slot {
            case .text(let slot): texts[slot] = try cast(value, member.rawValue) as String
            case .scalar(let slot, _):
                if case .boolean = member.field.kind {
                    scalars[slot] = try cast(value, member.rawValue) as Bool ? 1 : 0
                } else {
                    scalars[slot] = Int64(try cast(value, member.rawValue) as Int)
                }
            case .request, .members: continue
            }
        }
    }

    static func cast<T>(_ value: Any, _ field: String) throws -> T {
        guard let typed = value as? T else { throw DecodeError(description: "\(field) has the wrong type") }
        return typed
    }
}
