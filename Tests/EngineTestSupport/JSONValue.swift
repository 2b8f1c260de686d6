import NotificationEngine

/// A parsed JSON document as a tree, for tests to build, compare and write
/// documents: the values of RFC 8259, nothing more. The service itself reads
/// the parser's tape and never builds one.
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
        case let (.string(a), .string(b)): CodePoints.equal(a, b)
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
        CodePoints.equal(lhs.lexeme, rhs.lexeme)
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
        for member in members where CodePoints.equal(member.name, name) {
            return member.value
        }
        return nil
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy {
                CodePoints.equal($0.name, $1.name) && $0.value == $1.value
            }
    }
}

extension JSONParser {
    /// Parses one complete JSON text into a tree of values (the tape's checks and errors).
    package static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        try tape(bytes, maxDepth: maxDepth).value(at: JSONTape.root)
    }
}

extension JSONTape {
    /// The value at `index` as a tree.
    package func value(at index: Int) -> JSONValue {
        switch kind(index) {
        case .null:
            return .null
        case .false:
            return .bool(false)
        case .true:
            return .bool(true)
        case .number:
            return .number(JSONNumber(lexeme: lexeme(index), integerValue: integerValue(index)))
        case .string:
            return .string(string(index))
        case .array:
            return .array(elements(index).map { value(at: $0) })
        case .object:
            return .object(JSONObject(members: members(index).map { (string($0.name), value(at: $0.value)) }))
        }
    }
}

extension JSONValue {
    /// The value written compactly (numbers as they were written), by the service's writer.
    package var bytes: [UInt8] {
        JSONWriter.bytes(capacity: 256) { $0.value(self) }
    }
}

extension JSONWriter {
    /// `value` written compactly (numbers as they were written).
    package mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let b): raw(b ? "true" : "false")
        case .number(let n):
            var lexeme = n.lexeme
            lexeme.withUTF8 { raw($0) }
        case .string(let s): string(s)
        case .array(let elements):
            raw("[")
            for (index, element) in elements.enumerated() {
                if index > 0 { raw(",") }
                self.value(element)
            }
            raw("]")
        case .object(let object):
            raw("{")
            for (index, member) in object.members.enumerated() {
                if index > 0 { raw(",") }
                string(member.name)
                raw(":")
                self.value(member.value)
            }
            raw("}")
        }
    }
}
