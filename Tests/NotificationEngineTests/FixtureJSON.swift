import Foundation
import Testing

@testable import NotificationEngine

/// A JSON value for comparing responses exactly: strings compare by code
/// points (Swift's `String ==` would call `"é"` and `"e\u{301}"` equal).
enum FixtureJSON: Equatable, Sendable {
    case null
    case string(String)
    case array([FixtureJSON])
    /// Members sorted by name, so member order does not matter.
    case object([(String, FixtureJSON)])
    /// Numbers and booleans, which compose responses never contain, kept as text.
    case other(String)

    init(any value: Any) {
        switch value {
        case is NSNull: self = .null
        case let string as String: self = .string(string)
        case let array as [Any]: self = .array(array.map(FixtureJSON.init(any:)))
        case let object as [String: Any]:
            self = .object(object.map { ($0.key, FixtureJSON(any: $0.value)) }.sorted { CodePoints.less($0.0, $1.0) })
        default: self = .other("\(value)")
        }
    }

    init(_ string: String?) {
        self = string.map(FixtureJSON.string) ?? .null
    }

    static func object(_ members: [String: FixtureJSON]) -> FixtureJSON {
        .object(members.map { ($0.key, $0.value) }.sorted { CodePoints.less($0.0, $1.0) })
    }

    /// The response as `POST /compose` returns it on the wire.
    init(_ response: ComposeResponse) {
        let n = response.notification
        self = .object([
            "kind": .string(response.kind.rawValue),
            "reason": FixtureJSON(response.reason?.rawValue),
            "notification": .object(
                Dictionary(uniqueKeysWithValues: AnswerMember.allCases.map { ($0.name, FixtureJSON(n[$0])) })),
            "shown": .array(response.shown.map(FixtureJSON.string)),
            "dropped": .array(
                response.dropped.map { .object(["key": .string($0.key), "reason": .string($0.reason.rawValue)]) }),
            "displayed": .array(
                response.displayed.map {
                    .object([
                        "key": $0.key.map(FixtureJSON.string) ?? .null, "timestamp": .string($0.timestamp.raw),
                        "group": $0.group.map(FixtureJSON.string) ?? .null,
                    ])
                }),
            "locale": .string(response.locale),
            "direction": .string(response.direction.rawValue),
        ])
    }

    static func == (lhs: FixtureJSON, rhs: FixtureJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.string(a), .string(b)), let (.other(a), .other(b)): return CodePoints.equal(a, b)
        case let (.array(a), .array(b)): return a.count == b.count && zip(a, b).allSatisfy { $0 == $1 }
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { CodePoints.equal($0.0, $1.0) && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The path of the first difference, e.g. `notification.body`, with both values.
    func firstDifference(from other: FixtureJSON, path: String = "response") -> String? {
        switch (self, other) {
        case let (.array(a), .array(b)):
            for (index, (x, y)) in zip(a, b).enumerated() {
                if let found = x.firstDifference(from: y, path: "\(path)[\(index)]") { return found }
            }
            return a.count == b.count ? nil : "\(path): expected \(a.count) elements, got \(b.count)"
        case let (.object(a), .object(b)):
            let names = Set(a.map(\.0) + b.map(\.0)).sorted { CodePoints.less($0, $1) }
            let x = Dictionary(a, uniquingKeysWith: { first, _ in first })
            let y = Dictionary(b, uniquingKeysWith: { first, _ in first })
            for name in names {
                if let found = (x[name] ?? .other("<missing>")).firstDifference(
                    from: y[name] ?? .other("<missing>"), path: "\(path).\(name)")
                {
                    return found
                }
            }
            return nil
        default:
            return self == other ? nil : "\(path): expected \(rendered), got \(other.rendered)"
        }
    }

    /// Compact JSON text with non-ASCII written as \u escapes (so invisible characters show).
    var rendered: String {
        switch self {
        case .null: return "null"
        case let .other(text): return text
        case let .string(text): return FixtureJSON.quote(text)
        case let .array(items): return "[" + items.map(\.rendered).joined(separator: ", ") + "]"
        case let .object(members):
            return "{" + members.map { FixtureJSON.quote($0.0) + ": " + $0.1.rendered }.joined(separator: ", ") + "}"
        }
    }

    static func quote(_ text: String) -> String {
        var out = "\""
        for unit in text.utf16 {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(unit, radix: 16).count) + String(unit, radix: 16)
            }
        }
        return out + "\""
    }
}

/// A fixture's case ids are unique and kebab-case (`a`–`z`, `0`–`9`, `-`,
/// not at either end), so every platform can name a case in a file name.
func expectUniqueKebabCaseIDs(_ ids: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(Set(ids).count == ids.count, "duplicate ids", sourceLocation: sourceLocation)
    for id in ids {
        let kebab =
            !id.isEmpty && !id.hasPrefix("-") && !id.hasSuffix("-")
            && id.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
        #expect(kebab, "id \(id) is not kebab-case", sourceLocation: sourceLocation)
    }
}
