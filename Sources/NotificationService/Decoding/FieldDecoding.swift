/// Typed access to request fields, with problems that name the field path
/// (`maxUnits`, `notifications[3].timestamp`). Paths are autoclosures, so a
/// path string is only built when there is an error to report.
///
/// Conventions every request field follows:
/// - `null` counts as absent: an optional field gets its default, a required
///   one is `missing-field`;
/// - integer fields take only integers written as such (`256`, not `256.0`
///   or `2.56e2`): anything else is `invalid-type`;
/// - unknown members are ignored (after the whole body was parsed as JSON).
enum FieldDecoding {
    static func object(_ value: JSONValue, at path: @autoclosure () -> String) throws(Problem) -> JSONObject {
        guard case .object(let object) = value else { throw typeMismatch(path(), expected: "an object", got: value) }
        return object
    }

    static func array(_ value: JSONValue, at path: @autoclosure () -> String) throws(Problem) -> [JSONValue] {
        guard case .array(let elements) = value else { throw typeMismatch(path(), expected: "an array", got: value) }
        return elements
    }

    static func string(_ value: JSONValue, at path: @autoclosure () -> String) throws(Problem) -> String {
        guard case .string(let string) = value else { throw typeMismatch(path(), expected: "a string", got: value) }
        return string
    }

    /// A string, or nil for `null`.
    static func optionalString(_ value: JSONValue, at path: @autoclosure () -> String) throws(Problem) -> String? {
        if case .null = value { return nil }
        return try string(value, at: path())
    }

    static func bool(_ value: JSONValue, at path: @autoclosure () -> String) throws(Problem) -> Bool {
        guard case .bool(let bool) = value else { throw typeMismatch(path(), expected: "a boolean", got: value) }
        return bool
    }

    /// An integer written without fraction or exponent, within `range`.
    static func integer(_ value: JSONValue, in range: ClosedRange<Int>, at path: @autoclosure () -> String) throws(Problem) -> Int {
        guard case .number(let number) = value else {
            throw typeMismatch(path(), expected: "an integer", got: value)
        }
        guard number.isIntegerLexeme else {
            throw Problem(.invalidType, "\(path()) must be an integer written without fraction or exponent, got \(boundedLexeme(number))")
        }
        guard let integer = number.integerValue, range.contains(integer) else {
            throw Problem(.outOfRange, "\(path()) must be an integer in \(range.lowerBound)…\(range.upperBound), got \(boundedLexeme(number))")
        }
        return integer
    }

    /// An array of at most `maxCount` elements.
    static func array(_ value: JSONValue, maxCount: Int, at path: @autoclosure () -> String) throws(Problem) -> [JSONValue] {
        let elements = try array(value, at: path())
        guard elements.count <= maxCount else {
            throw Problem(.outOfRange, "\(path()) has \(elements.count) items, at most \(maxCount) are allowed")
        }
        return elements
    }

    static func missing(_ path: String) -> Problem {
        Problem(.missingField, "\(path) is required")
    }

    static func typeMismatch(_ path: String, expected: String, got value: JSONValue) -> Problem {
        Problem(.invalidType, "\(path) must be \(expected), got \(value.typeName)")
    }

    /// A path to a member: `name` at the top, `parent.name` below.
    static func path(_ parent: String, _ name: String) -> String {
        parent.isEmpty ? name : parent + "." + name
    }

    /// A number as written, shortened so a huge lexeme cannot bloat a detail.
    private static func boundedLexeme(_ number: JSONNumber) -> String {
        let maxLength = 32
        let utf8 = number.lexeme.utf8
        guard utf8.count > maxLength else { return number.lexeme }
        return String(decoding: utf8.prefix(maxLength), as: UTF8.self) + "…"
    }
}
