/// The problems of request fields, which name the field path (`maxUnits`,
/// `notifications[3].timestamp`), for every decoder: the tape's (`/body`)
/// and `JSONReader`'s (`/compose`). Paths are autoclosures, so a path string
/// is only built when there is an error to report. Each problem made here
/// also carries the path as a JSON Pointer (`Problem.pointer`).
///
/// Conventions every request field follows:
/// - `null` counts as absent: an optional field gets its default, a required
///   one is `missing-field`;
/// - integer fields take only integers written as such (`256`, not `256.0`
///   or `2.56e2`): anything else is `invalid-type`;
/// - unknown members are ignored (after the whole body was parsed as JSON).
enum FieldDecoding {
    /// An integer written without fraction or exponent, within `range`.
    static func integer(_ tape: JSONTape, _ value: Int, in range: ClosedRange<Int>, at path: @autoclosure () -> String)
        throws(Problem) -> Int
    {
        guard tape.kind(value) == .number else {
            throw typeMismatch(path(), expected: "an integer", got: tape.typeName(value))
        }
        return try integer(
            tape.integerValue(value), isIntegerLexeme: tape.isIntegerLexeme(value), lexeme: tape.lexeme(value),
            in: range, at: path())
    }

    /// A JSON number as an integer field: written as an integer (`-?digits`),
    /// with a `value` that fits in `Int` (nil when it does not) within `range`.
    static func integer(
        _ value: Int?, isIntegerLexeme: Bool, lexeme: @autoclosure () -> String, in range: ClosedRange<Int>,
        at path: @autoclosure () -> String
    ) throws(Problem) -> Int {
        guard isIntegerLexeme else {
            let path = path()
            throw Problem(
                .invalidType,
                "\(path) must be an integer written without fraction or exponent, got \(boundedLexeme(lexeme()))",
                at: path)
        }
        guard let value, range.contains(value) else {
            let path = path()
            throw Problem(
                .outOfRange,
                "\(path) must be an integer in \(range.lowerBound)…\(range.upperBound), got \(boundedLexeme(lexeme()))",
                at: path)
        }
        return value
    }

    static func missing(_ path: String) -> Problem {
        Problem(.missingField, "\(path) is required", at: path)
    }

    static func typeMismatch(_ path: String, expected: String, got typeName: String) -> Problem {
        Problem(.invalidType, "\(path) must be \(expected), got \(typeName)", at: path)
    }

    /// A path to a member: `name` at the top, `parent.name` below.
    static func path(_ parent: String, _ name: String) -> String {
        parent.isEmpty ? name : parent + "." + name
    }

    /// A number as written, shortened so a huge lexeme cannot bloat a detail.
    private static func boundedLexeme(_ lexeme: String) -> String {
        let maxLength = 32
        let utf8 = lexeme.utf8
        guard utf8.count > maxLength else { return lexeme }
        return String(decoding: utf8.prefix(maxLength), as: UTF8.self) + "…"
    }
}
