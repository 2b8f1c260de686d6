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
/// - a member the object does not define is `unknown-member`, whatever its
///   value (compose.md 2.2), after the whole body was parsed as JSON.
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
    static func integer<Value: FixedWidthInteger>(
        _ value: Value?, isIntegerLexeme: Bool, lexeme: @autoclosure () -> String, in range: ClosedRange<Value>,
        at path: @autoclosure () -> String
    ) throws(Problem) -> Value {
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

    /// The problem of the member `name` (unescaped), which the object at the
    /// field path `parent` (`""`: the request) does not define; `members`
    /// are the names it does, in table order. The pointer holds the whole
    /// name; the detail quotes it (at most 64 characters), names the member
    /// it is likely a slip of, and lists the object's members.
    @inline(never)
    static func unknownMember(_ name: String, in parent: String, members: [String]) -> Problem {
        var detail = "\(parent.isEmpty ? "the request" : parent) has no member \(JSONWriter.quotedForMessage(name))"
        if let meant = likelyMeant(name, among: members) { detail += " (did you mean \"\(meant)\"?)" }
        detail += "; its members are " + members.joined(separator: ", ")
        return Problem(
            .unknownMember, detail, pointer: JSONPointer.pointer(fromPath: parent) + "/" + JSONPointer.token(name))
    }

    /// The member `name` is likely a slip of: the first in `members` equal
    /// to it but for ASCII case, else the first at the least edit distance
    /// (an insertion, a deletion, a substitution or two neighbours swapped)
    /// when that is 1, or 2 for a name of 6 or more characters; nil when none.
    static func likelyMeant(_ name: String, among members: [String]) -> String? {
        let typed = Array(name.unicodeScalars)
        guard typed.count <= 64 else { return nil }
        func folded(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
            scalars.map { ("A"..."Z").contains($0) ? Unicode.Scalar(UInt8($0.value) | 0x20) : $0 }
        }
        let typedFolded = folded(typed)
        if let member = members.first(where: { folded(Array($0.unicodeScalars)) == typedFolded }) { return member }
        let allowed = typed.count >= 6 ? 2 : 1
        var best: (member: String, distance: Int)? = nil
        for member in members {
            let distance = editDistance(typed, Array(member.unicodeScalars))
            if distance <= allowed && distance < (best?.distance ?? Int.max) { best = (member, distance) }
        }
        return best?.member
    }

    /// The optimal string alignment distance of `a` and `b`.
    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
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
