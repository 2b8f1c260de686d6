/// A parsed JSON document: the values of RFC 8259, nothing more.
///
/// Objects keep their members in document order; the parser has already
/// rejected duplicate names, so at most one member has a given name.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// Exact document equality: strings by code points (not Swift's canonical
    /// equivalence), numbers as written, object members in order.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): ExactName.sameCodePoints(a, b)
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a == b
        default: false
        }
    }

    /// The JSON type name used in error details ("string", "object", …).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// A JSON number, kept as written: the service only ever needs integers, and
/// keeping the lexeme means no precision is lost for numbers it ignores.
public struct JSONNumber: Sendable, Equatable {
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        ExactName.sameCodePoints(lhs.lexeme, rhs.lexeme)
    }

    /// The number exactly as written in the document (valid RFC 8259 syntax).
    public var lexeme: String
    /// The value when the lexeme is an integer (no fraction, no exponent) that
    /// fits in `Int`; nil otherwise, so `256.0` and `2.56e2` are not integers.
    public var integerValue: Int?

    public init(lexeme: String, integerValue: Int?) {
        self.lexeme = lexeme
        self.integerValue = integerValue
    }

    /// Whether the lexeme is written as an integer (`-?digits`), even one too large for `Int`.
    public var isIntegerLexeme: Bool {
        !lexeme.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }
}

/// A JSON object's members in document order, names unique.
public struct JSONObject: Sendable, Equatable {
    public var members: [(name: String, value: JSONValue)]

    public init(members: [(name: String, value: JSONValue)] = []) {
        self.members = members
    }

    /// The value of the member called `name`, if any.
    public subscript(name: String) -> JSONValue? {
        for member in members where ExactName.sameCodePoints(member.name, name) {
            return member.value
        }
        return nil
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy {
                ExactName.sameCodePoints($0.name, $1.name) && $0.value == $1.value
            }
    }
}
