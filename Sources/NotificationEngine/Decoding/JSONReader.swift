/// Reads one JSON text straight from its bytes, for a decoder that knows the
/// shape it expects: the decoder asks for an object, a string, an integer,
/// the next member's name, and the reader checks each byte it passes as
/// RFC 8259 says, without building a tape or a `String` per value.
///
/// It reads a text in one of two passes:
/// - not yet `validated`: nothing is known of the text but its UTF-8. Any
///   problem, an error in the text, a nested value the decoder does not know
///   (which could hide one), a name that may be repeated or a name the
///   object does not define stops the pass (`Stop`): then the parser checks
///   the whole text (its errors come first, in document order), and the
///   decoder reads it again;
/// - `validated`: the parser accepted the text, so the text cannot be at
///   fault; the pass stops at the first field problem (an unknown member's
///   among them), kept in `problem` (only this pass builds one: a field
///   problem of the first pass might follow a JSON error further on).
struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Whether the parser accepted the text.
    let validated: Bool
    private(set) var index = 0
    /// Where the name `memberName` last found unknown starts (its quote), in
    /// the validated pass: for the decoder's `unknown-member` problem.
    private(set) var unknownNameStart = 0
    /// Where the validated pass keeps the problem it stopped at.
    private let report: Report?

    init(_ bytes: UnsafeBufferPointer<UInt8>, validated: Bool) {
        self.bytes = bytes
        self.validated = validated
        self.report = validated ? Report() : nil
    }

    private final class Report {
        var problem: Problem?
    }

    /// Why the validated pass stopped.
    var problem: Problem? { report?.problem }

    /// A pass stopped: at a problem of the text, which the parser then
    /// reports, or (in a validated text) at `problem`. Empty, so a `try`
    /// costs a test of one register.
    struct Stop: Error {}

    /// Stops the pass at `problem`, made only in the validated pass.
    func stop(_ problem: @autoclosure () -> Problem) -> Stop {
        if let report, report.problem == nil { report.problem = problem() }
        return Stop()
    }

    // MARK: Structure

    /// Consumes an object's `{`; false when the object is empty (and closed).
    @inline(__always)
    mutating func openObject(at path: @autoclosure () -> String) throws(Stop) -> Bool {
        try open(UInt8(ascii: "{"), UInt8(ascii: "}"), expected: "an object", at: path())
    }

    /// Consumes an array's `[`; false when the array is empty (and closed).
    mutating func openArray(at path: @autoclosure () -> String) throws(Stop) -> Bool {
        try open(UInt8(ascii: "["), UInt8(ascii: "]"), expected: "an array", at: path())
    }

    @inline(__always)
    private mutating func open(
        _ opening: UInt8, _ closing: UInt8, expected: StaticString, at path: @autoclosure () -> String
    ) throws(Stop) -> Bool {
        guard peek() == opening else {
            throw stop(FieldDecoding.typeMismatch(path(), expected: "\(expected)", got: typeName()))
        }
        index &+= 1
        guard peek() == closing else { return true }
        index &+= 1
        return false
    }

    /// The number of elements of the array at `index`, read ahead without
    /// moving. - Precondition: `validated`.
    func elementCount() -> Int {
        precondition(validated, "counting ahead reads a validated text only")
        var ahead = self
        guard (try? ahead.openArray(at: "")) == true else { return 0 }
        var count = 0
        repeat {
            count += 1
            ahead.skipValidValue()
        } while (try? ahead.nextElement()) == true
        return count
    }

    /// After a member: true at `,` (another member follows), false at `}`.
    @inline(__always)
    mutating func nextMember() throws(Stop) -> Bool {
        try next(closing: UInt8(ascii: "}"))
    }

    /// After an element: true at `,` (another element follows), false at `]`.
    @inline(__always)
    mutating func nextElement() throws(Stop) -> Bool {
        try next(closing: UInt8(ascii: "]"))
    }

    @inline(__always)
    private mutating func next(closing: UInt8) throws(Stop) -> Bool {
        let byte = peek()
        index &+= 1
        if byte == UInt8(ascii: ",") { return true }
        guard byte == closing else { throw Stop() }
        return false
    }

    /// Moves past bytes the caller has read and checked itself (a notification
    /// of a known shape, `ComposeDecoder.decodeShapedNotification`).
    @inline(__always)
    mutating func move(to index: Int) {
        precondition(index >= self.index && index <= bytes.count, "a move outside the text")
        self.index = index
    }

    /// Checks that only whitespace follows the top-level value.
    mutating func end() throws(Stop) {
        guard peek() == nil else { throw Stop() }
    }

    /// The next member's name, as the member it names, and the `:` after it.
    /// A name written as in the previous object of the kind, at the same
    /// position, is known from one comparison; any other is scanned,
    /// unescaped when it has escapes, and looked up. A name the kind does not
    /// have stops the first pass; the validated pass notes where it starts
    /// (`unknownNameStart`) and returns nil, for the decoder to refuse it.
    @inline(__always)
    mutating func memberName<Member: JSONMember>(_ names: inout MemberNames<Member>) throws(Stop) -> Member? {
        guard peek() == UInt8(ascii: "\"") else { throw Stop() }
        if let repeated = names.repeatedName(from: index, in: bytes) {
            index &+= repeated.length
            guard names.insert(repeated.position) else { throw Stop() }
            return repeated.member
        }
        let start = index
        let string = try scanString()
        guard peek() == UInt8(ascii: ":") else { throw Stop() }
        index &+= 1
        if string.hasEscape {
            guard let found = try withUnescaped(string, { name throws(Stop) in try Self.member(name, &names) }) else {
                return try unknownName(at: start)
            }
            return found.0
        }
        let name = UnsafeBufferPointer(rebasing: bytes[string.start..<string.end])
        guard let member = try Self.member(name, &names) else { return try unknownName(at: start) }
        names.record(member.0, position: member.1, from: start, length: index &- start)
        return member.0
    }

    private static func member<Member: JSONMember>(
        _ name: UnsafeBufferPointer<UInt8>, _ names: inout MemberNames<Member>
    ) throws(Stop) -> (Member, Int)? {
        guard let found = names.table.member(named: name) else { return nil }
        guard names.insert(found.position) else { throw Stop() }
        return (found.member, found.position)
    }

    /// A name its object does not define, starting at `start`: the first
    /// pass stops (the parser's problems come first); the validated one
    /// notes where it is and returns nil.
    @inline(never)
    private mutating func unknownName<Member>(at start: Int) throws(Stop) -> Member? {
        guard validated else { throw Stop() }
        unknownNameStart = start
        return nil
    }

    /// The unescaped text of the string whose opening quote is at `start`
    /// (a member's name, for a problem). - Precondition: `validated`.
    func text(ofStringAt start: Int) -> String {
        precondition(validated, "a string is read back from a validated text only")
        var ahead = self
        ahead.index = start
        guard let string = try? ahead.scanString() else { return "" }
        if string.hasEscape {
            return (try? withUnescaped(string) { String(decoding: $0, as: UTF8.self) }) ?? ""
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[string.start..<string.end]), as: UTF8.self)
    }

    // MARK: Values

    /// A string value: where its bytes are, and whether they hold escapes
    /// (`withUnescaped` decodes, and so checks, them).
    @inline(__always)
    mutating func string(at path: @autoclosure () -> String) throws(Stop) -> (
        start: Int, end: Int, hasEscape: Bool
    ) {
        guard peek() == UInt8(ascii: "\"") else {
            throw stop(FieldDecoding.typeMismatch(path(), expected: "a string", got: typeName()))
        }
        return try scanString()
    }

    /// Calls `body` with the decoded UTF-8 of a string that has escapes.
    func withUnescaped<Value>(
        _ string: (start: Int, end: Int, hasEscape: Bool),
        _ body: (UnsafeBufferPointer<UInt8>) throws(Stop) -> Value
    ) throws(Stop) -> Value {
        try Self.withUnescaped(string, in: bytes, body)
    }

    /// `withUnescaped` for a string of `bytes`, for a caller that must not
    /// hold the reader (a reference it holds would be retained for the call).
    static func withUnescaped<Value>(
        _ string: (start: Int, end: Int, hasEscape: Bool), in bytes: UnsafeBufferPointer<UInt8>,
        _ body: (UnsafeBufferPointer<UInt8>) throws(Stop) -> Value
    ) throws(Stop) -> Value {
        let raw = UnsafeBufferPointer(rebasing: bytes[string.start..<string.end])
        let result = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count) {
            output -> Result<Value, Stop> in
            guard let count = try? JSONParser.unescape(raw, baseOffset: string.start, into: output) else {
                return .failure(Stop())
            }
            do throws(Stop) {
                return .success(try body(UnsafeBufferPointer(rebasing: output[0..<count])))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    mutating func bool(at path: @autoclosure () -> String) throws(Stop) -> Bool {
        if skipLiteral("true") { return true }
        if skipLiteral("false") { return false }
        throw stop(FieldDecoding.typeMismatch(path(), expected: "a boolean", got: typeName()))
    }

    /// An integer written as one (`-?digits`), within `range`: `FieldDecoding`'s rules.
    mutating func integer(in range: ClosedRange<Int>, at path: @autoclosure () -> String) throws(Stop) -> Int {
        guard let byte = peek(), byte == UInt8(ascii: "-") || Self.isDigit(byte) else {
            throw stop(FieldDecoding.typeMismatch(path(), expected: "an integer", got: typeName()))
        }
        let start = index
        let number = try self.number()
        let lexeme = UnsafeBufferPointer(rebasing: bytes[start..<index])
        do throws(Problem) {
            return try FieldDecoding.integer(
                number.value, isIntegerLexeme: number.isInteger, lexeme: String(decoding: lexeme, as: UTF8.self),
                in: range, at: path())
        } catch {
            throw stop(error)
        }
    }

    /// `integer(in:at:)` of 64 bits on every platform: the lexeme is read
    /// as `number()` reads it, its value accumulated in `Int64`.
    mutating func integer64(in range: ClosedRange<Int64>, at path: @autoclosure () -> String) throws(Stop) -> Int64 {
        guard let byte = peek(), byte == UInt8(ascii: "-") || Self.isDigit(byte) else {
            throw stop(FieldDecoding.typeMismatch(path(), expected: "an integer", got: typeName()))
        }
        guard let number = Self.number(at: index, in: bytes) else { throw Stop() }
        let lexeme = UnsafeBufferPointer(rebasing: bytes[index..<number.end])
        index = number.end
        var value: Int64? = 0
        for byte in lexeme where byte != UInt8(ascii: "-") {
            guard let current = value else { break }
            let (times10, overflow) = current.multipliedReportingOverflow(by: 10)
            let (next, carry) = times10.addingReportingOverflow(Int64(byte &- UInt8(ascii: "0")))
            value = overflow || carry ? nil : next
        }
        if lexeme.first == UInt8(ascii: "-") { value = value.map { -$0 } }
        do throws(Problem) {
            return try FieldDecoding.integer(
                value, isIntegerLexeme: number.isInteger, lexeme: String(decoding: lexeme, as: UTF8.self),
                in: range, at: path())
        } catch {
            throw stop(error)
        }
    }

    /// Skips `null` (true) when it is the next value.
    @inline(__always)
    mutating func skipNull() throws(Stop) -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        guard skipLiteral("null") else { throw Stop() }
        return true
    }

    /// Skips any value of a validated text: a scalar to the byte after it;
    /// an array or an object with its brackets counted and its strings
    /// scanned (a bracket inside one is text).
    private mutating func skipValidValue() {
        guard let first = peek() else { return }
        switch first {
        case UInt8(ascii: "\""):
            _ = try? scanString()
            return
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            break
        default:
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"): return
                default: index &+= 1
                }
            }
            return
        }
        var depth = 0
        repeat {
            guard let byte = peek() else { return }
            if byte == UInt8(ascii: "\"") {
                _ = try? scanString()
                continue
            }
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
            }
            index &+= 1
        } while depth > 0
    }

    /// The JSON type name of the value at `index`, for problems ("string", "object", …).
    /// - Precondition: `peek()` has skipped the whitespace before it.
    func typeName() -> String {
        switch index < bytes.count ? bytes[index] : nil {
        case UInt8(ascii: "\""): "string"
        case UInt8(ascii: "{"): "object"
        case UInt8(ascii: "["): "array"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): "boolean"
        case UInt8(ascii: "n"): "null"
        default: "number"
        }
    }

    // MARK: Bytes

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, RFC 8259's
    /// number: whether it is written as an integer, and then its value when
    /// it fits in `Int`.
    private mutating func number() throws(Stop) -> (isInteger: Bool, value: Int?) {
        guard let number = Self.number(at: index, in: bytes) else { throw Stop() }
        index = number.end
        return (number.isInteger, number.value)
    }

    /// The number at `start` in `bytes` as `number()` reads it, and where it
    /// ends; nil when no number starts there.
    static func number(at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (
        end: Int, isInteger: Bool, value: Int?
    )? {
        var cursor = start
        func digits() -> Int {
            let start = cursor
            while cursor < bytes.count, isDigit(bytes[cursor]) { cursor &+= 1 }
            return cursor &- start
        }
        guard cursor < bytes.count else { return nil }
        let negative = bytes[cursor] == UInt8(ascii: "-")
        if negative { cursor &+= 1 }
        let integerStart = cursor
        let integerDigits = digits()
        guard integerDigits > 0, bytes[integerStart] != UInt8(ascii: "0") || integerDigits == 1 else {
            return nil
        }
        var isInteger = true
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: ".") {
            cursor &+= 1
            guard digits() > 0 else { return nil }
            isInteger = false
        }
        if cursor < bytes.count, bytes[cursor] | 0x20 == UInt8(ascii: "e") {
            cursor &+= 1
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "+") || bytes[cursor] == UInt8(ascii: "-") {
                cursor &+= 1
            }
            guard digits() > 0 else { return nil }
            isInteger = false
        }
        guard isInteger else { return (cursor, false, nil) }
        // Accumulated negatively, so Int.min fits; an overflow means no value.
        var value = 0
        for position in integerStart..<integerStart &+ integerDigits {
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, borrow) = times10.subtractingReportingOverflow(Int(bytes[position] &- UInt8(ascii: "0")))
            if overflow || borrow { return (cursor, true, nil) }
            value = next
        }
        if negative { return (cursor, true, value) }
        return (cursor, true, value == Int.min ? nil : -value)
    }

    /// Skips `literal` (true) when the bytes at `index` spell it.
    private mutating func skipLiteral(_ literal: StaticString) -> Bool {
        guard Self.literal(literal, at: index, in: bytes) else { return false }
        index &+= literal.utf8CodeUnitCount
        return true
    }

    /// Whether the bytes at `start` spell `literal`.
    static func literal(_ literal: StaticString, at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = literal.utf8CodeUnitCount
        return start >= 0 && bytes.count &- start >= count
            && CodePoints.equalBytes(
                UnsafeBufferPointer(rebasing: bytes[start..<start &+ count]),
                UnsafeBufferPointer(start: literal.utf8Start, count: count))
    }

    /// Scans the string whose opening quote is at `index` to its closing
    /// quote (`JSONByteClass.stringEnd`, as the parser does): where its bytes
    /// are, and whether they hold escapes.
    @inline(__always)
    private mutating func scanString() throws(Stop) -> (start: Int, end: Int, hasEscape: Bool) {
        let start = index &+ 1
        guard case .quote(let end, let hasEscape) = JSONByteClass.stringEnd(in: bytes, from: start) else {
            throw Stop()
        }
        index = end &+ 1
        return (start, end, hasEscape)
    }

    /// Skips whitespace and returns the byte at `index`, nil at the end.
    @inline(__always)
    mutating func peek() -> UInt8? {
        if index < bytes.count, bytes[index] > 0x20 { return bytes[index] }
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index &+= 1
            default: return bytes[index]
            }
        }
        return nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }
}
