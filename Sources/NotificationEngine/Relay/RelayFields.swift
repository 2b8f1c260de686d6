/// One object of a `POST /relay` request read from its tape: its members
/// checked against the names the object defines (any other is
/// `unknown-member`, compose.md 2.2), and typed getters whose problems name
/// the field path, as `FieldDecoding`'s do. `null` counts as absent.
struct RelayFields {
    let tape: JSONTape
    /// The object's field path (`""`: the request; `record.devices[0]`).
    let path: String
    /// The names the object defines, static: a name is compared as bytes,
    /// never made a `String` except for a problem's text.
    private let members: [StaticString]
    /// The value entry of each of `members`, -1 when absent or null.
    private var values: [Int]

    /// The object at `index`; `members` are the names it defines, in the
    /// order a problem lists them.
    init(_ tape: JSONTape, _ index: Int, at path: String, members: [StaticString]) throws(RelayProblem) {
        self.tape = tape
        self.path = path
        self.members = members
        values = [Int](repeating: -1, count: members.count)
        guard tape.kind(index) == .object else {
            throw RelayProblem(
                .invalidType,
                "\(path.isEmpty ? "the request body" : path) must be a JSON object, got \(tape.typeName(index))",
                at: path)
        }
        for (name, value) in tape.members(index) {
            guard let position = tape.withStringBytes(name, { Self.position(of: $0, in: members) }) else {
                throw RelayProblem.unknownMember(tape.string(name), in: path, members: Self.texts(members))
            }
            if tape.kind(value) != .null && values[position] < 0 { values[position] = value }
        }
    }

    /// Where `name` is in `members`; nil when it is not.
    @inline(never)
    static func position(of name: UnsafeBufferPointer<UInt8>, in members: [StaticString]) -> Int? {
        for (position, member) in members.enumerated() where same(name, member) { return position }
        return nil
    }

    /// Whether `bytes` are exactly `name`'s.
    @inline(never)
    static func same(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        bytes.count == name.utf8CodeUnitCount
            && CodePoints.equalBytes(bytes, UnsafeBufferPointer(start: name.utf8Start, count: bytes.count))
    }

    /// Whether two static names are the same bytes.
    static func same(_ a: StaticString, _ b: StaticString) -> Bool {
        same(UnsafeBufferPointer(start: a.utf8Start, count: a.utf8CodeUnitCount), b)
    }

    /// `name` as a `String`, for a problem's text or a word read.
    @inline(never)
    static func text(_ name: StaticString) -> String {
        name.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
    }

    @inline(never)
    static func texts(_ names: [StaticString]) -> [String] { names.map { text($0) } }

    /// The path of the member `name`.
    @inline(never)
    func path(_ name: StaticString) -> String { FieldDecoding.path(path, Self.text(name)) }

    /// The value entry of `name`; nil when absent or null.
    @inline(never)
    func value(_ name: StaticString) -> Int? {
        for (position, member) in members.enumerated() where Self.same(member, name) {
            return values[position] < 0 ? nil : values[position]
        }
        return nil
    }

    @inline(never)
    func has(_ name: StaticString) -> Bool { value(name) != nil }

    @inline(never)
    func required(_ name: StaticString) throws(RelayProblem) -> Int {
        guard let value = value(name) else { throw RelayProblem.missing(path(name)) }
        return value
    }

    @inline(never)
    func string(_ name: StaticString) throws(RelayProblem) -> String? {
        guard let value = value(name) else { return nil }
        guard tape.kind(value) == .string else {
            throw RelayProblem.typeMismatch(path(name), expected: "a string", got: tape.typeName(value))
        }
        return tape.string(value)
    }

    /// `value`, or `missing-field` for the member `name` (`??` rethrows untyped errors).
    @inline(never)
    func need<Value>(_ value: Value?, _ name: StaticString) throws(RelayProblem) -> Value {
        guard let value else { throw RelayProblem.missing(path(name)) }
        return value
    }

    @inline(never)
    func requiredString(_ name: StaticString) throws(RelayProblem) -> String {
        guard let string = try string(name) else { throw RelayProblem.missing(path(name)) }
        return string
    }

    /// A string that must be one of `words`.
    @inline(never)
    func word(_ name: StaticString, _ words: [StaticString]) throws(RelayProblem) -> String? {
        guard let value = value(name) else { return nil }
        guard tape.kind(value) == .string else {
            throw RelayProblem.typeMismatch(path(name), expected: "a string", got: tape.typeName(value))
        }
        guard let position = tape.withStringBytes(value, { Self.position(of: $0, in: words) }) else {
            throw RelayProblem(
                .invalidValue,
                "\(path(name)) must be one of \(Self.texts(words).joined(separator: ", ")), got \(JSONWriter.quotedForMessage(tape.string(value)))",
                at: path(name))
        }
        return Self.text(words[position])
    }

    @inline(never)
    func bool(_ name: StaticString) throws(RelayProblem) -> Bool? {
        guard let value = value(name) else { return nil }
        switch tape.kind(value) {
        case .true: return true
        case .false: return false
        default: throw RelayProblem.typeMismatch(path(name), expected: "a boolean", got: tape.typeName(value))
        }
    }

    @inline(never)
    func integer(_ name: StaticString, in range: ClosedRange<Int>) throws(RelayProblem) -> Int? {
        guard let value = value(name) else { return nil }
        do throws(Problem) {
            return try FieldDecoding.integer(tape, value, in: range, at: path(name))
        } catch {
            throw RelayProblem(error)
        }
    }

    /// An integer that may not fit a 32-bit `Int`: milliseconds, seconds, stamps.
    @inline(never)
    func integer64(_ name: StaticString, in range: ClosedRange<Int64>) throws(RelayProblem) -> Int64? {
        guard let value = value(name) else { return nil }
        guard tape.kind(value) == .number else {
            throw RelayProblem.typeMismatch(path(name), expected: "an integer", got: tape.typeName(value))
        }
        do throws(Problem) {
            return try FieldDecoding.integer(
                tape.integer64Value(value), isIntegerLexeme: tape.isIntegerLexeme(value), lexeme: tape.lexeme(value),
                in: range, at: path(name))
        } catch {
            throw RelayProblem(error)
        }
    }

    /// A number in 0…1 (`jitter`), exact to a millionth.
    @inline(never)
    func unitFraction(_ name: StaticString) throws(RelayProblem) -> Double? {
        guard let value = value(name) else { return nil }
        guard tape.kind(value) == .number else {
            throw RelayProblem.typeMismatch(path(name), expected: "a number", got: tape.typeName(value))
        }
        let lexeme = tape.lexeme(value)
        guard let fraction = RelayFields.unitFraction(lexeme) else {
            throw RelayProblem(
                .outOfRange,
                "\(path(name)) must be a number in 0…1, got \(String(decoding: lexeme.utf8.prefix(32), as: UTF8.self))",
                at: path(name))
        }
        return fraction
    }

    /// The value of a JSON number lexeme when it is in 0…1; nil otherwise.
    /// Written without `Double(String)`, which Embedded Swift lacks.
    @inline(never)
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
    func array(_ name: StaticString) throws(RelayProblem) -> [Int]? {
        guard let value = value(name) else { return nil }
        guard tape.kind(value) == .array else {
            throw RelayProblem.typeMismatch(path(name), expected: "an array", got: tape.typeName(value))
        }
        return Array(tape.elements(value))
    }

    /// The object at `name` as JSON text (nil when absent).
    @inline(never)
    func objectText(_ name: StaticString) throws(RelayProblem) -> [UInt8]? {
        guard let value = value(name) else { return nil }
        guard tape.kind(value) == .object else {
            throw RelayProblem.typeMismatch(path(name), expected: "an object", got: tape.typeName(value))
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
        case .null: json.put("null")
        case .true: json.put("true")
        case .false: json.put("false")
        case .number:
            let entry = entries[index]
            bytes.withUnsafeBufferPointer {
                json.put(UnsafeBufferPointer(rebasing: $0[Int(entry.start)..<Int(entry.end)]))
            }
        case .string: withStringBytes(index) { json.putString($0) }
        case .array:
            json.put("[")
            var first = true
            for element in elements(index) {
                if !first { json.put(",") }
                first = false
                writeValue(element, into: &json)
            }
            json.put("]")
        case .object:
            json.put("{")
            var first = true
            for (name, value) in members(index) {
                if !first { json.put(",") }
                first = false
                withStringBytes(name) { json.putString($0) }
                json.put(":")
                writeValue(value, into: &json)
            }
            json.put("}")
        }
    }
}
