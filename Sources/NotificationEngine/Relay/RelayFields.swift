/// One object of a `POST /relay` request read from its tape: its members
/// checked against the names the object defines (any other is
/// `unknown-member`, compose.md 2.2), and typed getters whose problems name
/// the field path, as `FieldDecoding`'s do. `null` counts as absent.
struct RelayFields {
    let tape: JSONTape
    /// The object's field path (`""`: the request; `record.devices[0]`).
    let path: String
    private var names: [String] = []
    private var values: [Int] = []

    /// The object at `index`; `members` are the names it defines, in the
    /// order a problem lists them.
    init(_ tape: JSONTape, _ index: Int, at path: String, members: [String]) throws(Problem) {
        self.tape = tape
        self.path = path
        guard tape.kind(index) == .object else {
            throw Problem(
                .invalidType,
                "\(path.isEmpty ? "the request body" : path) must be a JSON object, got \(tape.typeName(index))",
                at: path)
        }
        for (name, value) in tape.members(index) {
            let text = tape.string(name)
            guard members.contains(text) else {
                throw FieldDecoding.unknownMember(text, in: path, members: members)
            }
            guard tape.kind(value) != .null else { continue }
            names.append(text)
            values.append(value)
        }
    }

    /// The path of the member `name`.
    @inline(never)
    func path(_ name: String) -> String { FieldDecoding.path(path, name) }

    /// The value entry of `name`; nil when absent or null.
    @inline(never)
    func value(_ name: String) -> Int? {
        guard let position = names.firstIndex(of: name) else { return nil }
        return values[position]
    }

    @inline(never)
    func has(_ name: String) -> Bool { value(name) != nil }

    @inline(never)
    func required(_ name: String) throws(Problem) -> Int {
        guard let value = value(name) else { throw FieldDecoding.missing(path(name)) }
        return value
    }

    @inline(never)
    func string(_ name: String) throws(Problem) -> String? {
        guard let value = value(name) else { return nil }
        guard tape.kind(value) == .string else {
            throw FieldDecoding.typeMismatch(path(name), expected: "a string", got: tape.typeName(value))
        }
        return tape.string(value)
    }

    /// `value`, or `missing-field` for the member `name` (`??` rethrows untyped errors).
    @inline(never)
    func need<Value>(_ value: Value?, _ name: String) throws(Problem) -> Value {
        guard let value else { throw FieldDecoding.missing(path(name)) }
        return value
    }

    @inline(never)
    func requiredString(_ name: String) throws(Problem) -> String {
        guard let string = try string(name) else { throw FieldDecoding.missing(path(name)) }
        return string
    }

    /// A string that must be one of `words`.
    @inline(never)
    func word(_ name: String, _ words: [String]) throws(Problem) -> String? {
        guard let string = try string(name) else { return nil }
        guard words.contains(string) else {
            throw Problem(
                .invalidValue,
                "\(path(name)) must be one of \(words.joined(separator: ", ")), got \(JSONWriter.quotedForMessage(string))",
                at: path(name))
        }
        return string
    }

    @inline(never)
    func bool(_ name: String) throws(Problem) -> Bool? {
        guard let value = value(name) else { return nil }
        switch tape.kind(value) {
        case .true: return true
        case .false: return false
        default: throw FieldDecoding.typeMismatch(path(name), expected: "a boolean", got: tape.typeName(value))
        }
    }

    @inline(never)
    func integer(_ name: String, in range: ClosedRange<Int>) throws(Problem) -> Int? {
        guard let value = value(name) else { return nil }
        return try FieldDecoding.integer(tape, value, in: range, at: path(name))
    }

    /// An integer that may not fit a 32-bit `Int`: milliseconds, seconds, stamps.
    @inline(never)
    func integer64(_ name: String, in range: ClosedRange<Int64>) throws(Problem) -> Int64? {
        guard let value = value(name) else { return nil }
        guard tape.kind(value) == .number else {
            throw FieldDecoding.typeMismatch(path(name), expected: "an integer", got: tape.typeName(value))
        }
        return try FieldDecoding.integer(
            tape.integer64Value(value), isIntegerLexeme: tape.isIntegerLexeme(value), lexeme: tape.lexeme(value),
            in: range, at: path(name))
    }

    /// A number in 0…1 (`jitter`), exact to a millionth.
    @inline(never)
    func unitFraction(_ name: String) throws(Problem) -> Double? {
        guard let value = value(name) else { return nil }
        guard tape.kind(value) == .number else {
            throw FieldDecoding.typeMismatch(path(name), expected: "a number", got: tape.typeName(value))
        }
        guard let fraction = RelayFields.unitFraction(tape.lexeme(value)) else {
            throw Problem(
                .outOfRange, "\(path(name)) must be a number in 0…1, got \(tape.lexeme(value).prefix(32))",
                at: path(name))
        }
        return fraction
    }

    /// The value of a JSON number lexeme when it is in 0…1; nil otherwise.
    /// Written without `Double(String)`, which Embedded Swift lacks.
    static func unitFraction(_ lexeme: String) -> Double? {
        var mantissa: Int64 = 0
        var scale = 0
        var exponent = 0
        var part = 0  // 0: integer digits, 1: fraction, 2: exponent
        var exponentSign = 1
        for byte in lexeme.utf8 {
            switch byte {
            case UInt8(ascii: "-"):
                guard part == 2 else { return nil }
                exponentSign = -1
            case UInt8(ascii: "+"): continue
            case UInt8(ascii: "."): part = 1
            case UInt8(ascii: "e"), UInt8(ascii: "E"): part = 2
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = Int64(byte - UInt8(ascii: "0"))
                if part == 2 {
                    exponent = min(exponent * 10 + Int(digit), 400)
                } else if mantissa < 100_000_000_000_000 {
                    mantissa = mantissa * 10 + digit
                    if part == 1 { scale += 1 }
                } else if part == 0 {
                    return nil
                }
            default: return nil
            }
        }
        let power = exponentSign * exponent - scale
        var value = Double(mantissa)
        if power > 0 {
            for _ in 0..<min(power, 20) { value *= 10 }
        } else if power < 0 {
            for _ in 0..<min(-power, 400) { value /= 10 }
        }
        guard value >= 0, value <= 1 else { return nil }
        return value
    }

    /// The array at `name` as its element entries (nil when absent).
    @inline(never)
    func array(_ name: String) throws(Problem) -> [Int]? {
        guard let value = value(name) else { return nil }
        guard tape.kind(value) == .array else {
            throw FieldDecoding.typeMismatch(path(name), expected: "an array", got: tape.typeName(value))
        }
        return Array(tape.elements(value))
    }

    /// The object at `name` as JSON text (nil when absent).
    @inline(never)
    func objectText(_ name: String) throws(Problem) -> [UInt8]? {
        guard let value = value(name) else { return nil }
        guard tape.kind(value) == .object else {
            throw FieldDecoding.typeMismatch(path(name), expected: "an object", got: tape.typeName(value))
        }
        return tape.jsonText(value)
    }
}

extension JSONTape {
    /// The value of the number at `index` when it is written as an integer
    /// that fits in `Int64`; nil otherwise (`integerValue` in 64 bits, for
    /// the WebAssembly build, where `Int` has 32).
    func integer64Value(_ index: Int) -> Int64? {
        let entry = entries[index]
        guard entry.kind == .number, entry.flag else { return nil }
        var position = Int(entry.start)
        let end = Int(entry.end)
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        var value: Int64 = 0
        while position < end {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = times10.subtractingReportingOverflow(Int64(bytes[position] &- UInt8(ascii: "0")))
            if o1 || o2 { return nil }
            value = next
            position += 1
        }
        if negative { return value }
        return value == Int64.min ? nil : -value
    }

    /// The member `name` of the object at `index`; nil when it has none.
    func member(_ index: Int, _ name: StaticString) -> Int? {
        guard kind(index) == .object else { return nil }
        for (key, value) in members(index) where isName(key, name) { return value }
        return nil
    }

    /// The value at `index` as compact JSON (`writeValue`).
    func jsonText(_ index: Int) -> [UInt8] {
        JSONWriter.bytes(capacity: 256) { writeValue(index, into: &$0) }
    }

    /// Writes the value at `index` as compact JSON, as push.md P19 and P20
    /// write payloads: no spaces, strings escaped only where JSON must,
    /// numbers as written. What the engine wrote comes out byte for byte;
    /// a record a relay stored re-indented or `\u`-escaped comes out as the
    /// engine would have written it.
    func writeValue(_ index: Int, into json: inout JSONWriter) {
        switch kind(index) {
        case .null: json.raw("null")
        case .true: json.raw("true")
        case .false: json.raw("false")
        case .number:
            let entry = entries[index]
            bytes.withUnsafeBufferPointer {
                json.raw(UnsafeBufferPointer(rebasing: $0[Int(entry.start)..<Int(entry.end)]))
            }
        case .string: withStringBytes(index) { json.string($0) }
        case .array:
            json.raw("[")
            var first = true
            for element in elements(index) {
                if !first { json.raw(",") }
                first = false
                writeValue(element, into: &json)
            }
            json.raw("]")
        case .object:
            json.raw("{")
            var first = true
            for (name, value) in members(index) {
                if !first { json.raw(",") }
                first = false
                withStringBytes(name) { json.string($0) }
                json.raw(":")
                writeValue(value, into: &json)
            }
            json.raw("}")
        }
    }
}
