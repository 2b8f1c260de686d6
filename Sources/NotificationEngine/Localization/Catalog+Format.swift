/// Values for a message's arguments, as `String`s; an argument left out is
/// empty (a text) or 0 (a count).
package struct MessageArguments: Sendable {
    package var count: Int
    package var others: Int
    package var name: String
    package var text: String
    package var app: String
    package var a: String
    package var b: String
    package var c: String

    package init(
        count: Int = 0, others: Int = 0, name: String = "", text: String = "", app: String = "", a: String = "",
        b: String = "", c: String = ""
    ) {
        self.count = count
        self.others = others
        self.name = name
        self.text = text
        self.app = app
        self.a = a
        self.b = b
        self.c = c
    }
}

/// Values for a message's arguments as UTF-8 bytes: what the composer holds.
/// An argument left out is empty (a text) or 0 (a count).
struct MessageValues {
    static var none: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: nil, count: 0) }

    var count = 0
    var others = 0
    var name = none
    var text = none
    var app = none
    var a = none
    var b = none
    var c = none

    subscript(argument: MessageArgument) -> UnsafeBufferPointer<UInt8> {
        switch argument {
        case .name: return name
        case .text: return text
        case .app: return app
        case .a: return a
        case .b: return b
        case .c: return c
        case .count, .others: return MessageValues.none
        }
    }

    func number(_ argument: MessageArgument) -> Int {
        argument == .others ? others : count
    }
}

extension Catalog {
    /// The message of `key` formatted with `arguments` (compose-l10n.md
    /// section 5): the plural branch of each count (`=N`, else its CLDR
    /// category, else `other`), counts as ASCII digits, and `app`, `name`,
    /// `a`, `b` and `c` wrapped in U+2068 … U+2069 when they contain a
    /// character of the direction opposite to the catalog's.
    /// - Precondition: the counts are not negative.
    package func format(_ key: MessageKey, _ arguments: MessageArguments = MessageArguments()) -> String {
        if let constant = constants[key.rawValue] { return constant }
        // One buffer for every text argument, viewed in parts.
        let texts = [arguments.name, arguments.text, arguments.app, arguments.a, arguments.b, arguments.c]
        let joined = Array(texts.joined().utf8)
        return joined.withUnsafeBufferPointer { all in
            var offset = 0
            let views = texts.map { text in
                let count = text.utf8.count
                defer { offset += count }
                return UnsafeBufferPointer(rebasing: all[offset..<(offset + count)])
            }
            let values = MessageValues(
                count: arguments.count, others: arguments.others, name: views[0], text: views[1], app: views[2],
                a: views[3], b: views[4], c: views[5])
            return format(key, values: values)
        }
    }

    /// `format(_:_:)` over UTF-8 values.
    func format(_ key: MessageKey, values: MessageValues) -> String {
        if let constant = constants[key.rawValue] { return constant }
        precondition(values.count >= 0 && values.others >= 0, "counts are not negative")
        return String(unsafeUninitializedCapacity: maximumByteCount(key, values)) { buffer in
            writeUnchecked(key, values, into: buffer, at: 0)
        }
    }

    /// A bound on the UTF-8 length of `key` formatted with `values`: the
    /// room `write` needs. Tight enough that a text of up to 15 bytes fits a
    /// small `String`, which allocates nothing.
    func maximumByteCount(_ key: MessageKey, _ values: MessageValues) -> Int {
        let message = messages[key.rawValue]
        var total = message.literalByteCount
        // A count is its digits; an isolated text gains 6 bytes.
        if message.countSlots > 0 { total += message.countSlots * MessageWriter.digitCount(values.count) }
        if message.othersSlots > 0 { total += message.othersSlots * MessageWriter.digitCount(values.others) }
        for insertion in message.insertions { total += insertion.slots * (values[insertion.argument].count + 6) }
        return total
    }

    /// Writes `key` formatted with `values` at `offset` of `buffer`; the
    /// offset after it. Allocates nothing.
    /// - Precondition: `buffer` has `maximumByteCount(key, values)` bytes
    ///   from `offset`, and the counts are not negative. Every write is
    ///   checked against the end of `buffer` (`MessageWriter`), so a buffer
    ///   too small stops the process rather than being written past.
    func write(
        _ key: MessageKey, _ values: MessageValues, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int
    ) -> Int {
        precondition(values.count >= 0 && values.others >= 0, "counts are not negative")
        precondition(offset >= 0 && offset <= buffer.count, "the offset is outside the buffer")
        return writeUnchecked(key, values, into: buffer, at: offset)
    }

    /// `write` once its preconditions are known to hold.
    private func writeUnchecked(
        _ key: MessageKey, _ values: MessageValues, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int
    ) -> Int {
        let message = messages[key.rawValue]
        return message.bytes.withUnsafeBufferPointer { bytes in
            message.nodes.withUnsafeBufferPointer { nodes in
                message.branches.withUnsafeBufferPointer { branches in
                    var writer = MessageWriter(
                        bytes: bytes, nodes: nodes, branches: branches, values: values, direction: direction,
                        rules: pluralRules, output: buffer.baseAddress!, capacity: buffer.count, written: offset)
                    writer.write(message.root, pound: 0)
                    return writer.written
                }
            }
        }
    }

    /// Distinct sender names in the order given (section 4): the name itself,
    /// `senders.two`, `senders.three`, or `senders.more` with `others` =
    /// count − 2; `nil` for no names.
    /// - Precondition: `names` are distinct (the caller dedupes by code points).
    package func senderList(_ names: [String]) -> String? {
        let joined = Array(names.joined().utf8)
        return joined.withUnsafeBufferPointer { all in
            var offset = 0
            let views = names.map { name in
                let count = name.utf8.count
                defer { offset += count }
                return UnsafeBufferPointer(rebasing: all[offset..<(offset + count)])
            }
            return senderList(utf8: views)
        }
    }

    /// `senderList(_:)` of UTF-8 names.
    func senderList(utf8 names: [UnsafeBufferPointer<UInt8>]) -> String? {
        guard names.count > 1 else { return names.first.map { String(decoding: $0, as: UTF8.self) } }
        let (key, values) = names.withUnsafeBufferPointer { Catalog.senderMessage($0) }
        return format(key, values: values)
    }

    /// The message of a list of two or more distinct names and its values:
    /// `senders.two`, `senders.three`, or `senders.more` with `others` = count − 2.
    /// - Precondition: `names.count >= 2`.
    static func senderMessage(_ names: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>) -> (MessageKey, MessageValues) {
        switch names.count {
        case 2: return (.sendersTwo, MessageValues(a: names[0], b: names[1]))
        case 3: return (.sendersThree, MessageValues(a: names[0], b: names[1], c: names[2]))
        default: return (.sendersMore, MessageValues(others: names.count - 2, a: names[0], b: names[1]))
        }
    }
}

/// Walks a message's nodes, writing the formatted bytes.
struct MessageWriter {
    let bytes: UnsafeBufferPointer<UInt8>
    let nodes: UnsafeBufferPointer<Message.Node>
    let branches: UnsafeBufferPointer<Message.Branch>
    let values: MessageValues
    let direction: TextDirection
    let rules: PluralRules
    let output: UnsafeMutablePointer<UInt8>
    /// The bytes at `output`: every write checks it, so a wrong bound stops
    /// the process instead of writing past the buffer.
    let capacity: Int
    var written: Int

    mutating func write(_ range: Range<Int>, pound: Int) {
        for index in range {
            switch nodes[index] {
            case .text(let text):
                copy(UnsafeBufferPointer(rebasing: bytes[text]))
            case .argument(let argument) where argument.isCount:
                writeNumber(values.number(argument))
            case .argument(let argument):
                let value = values[argument]
                if argument.isIsolated, BidiStrongClass.containsOpposite(of: direction, in: value) {
                    // U+2068 FIRST STRONG ISOLATE … U+2069 POP DIRECTIONAL ISOLATE.
                    copyIsolate(0xA8)
                    copy(value)
                    copyIsolate(0xA9)
                } else {
                    copy(value)
                }
            case .pound:
                writeNumber(pound)
            case .plural(let argument, let choices):
                let n = values.number(argument)
                write(branches[branch(of: n, in: choices)].nodes, pound: n)
            }
        }
    }

    /// The branch for `n`: `=n`, else the keyword of its category, else `other`.
    func branch(of n: Int, in choices: Range<Int>) -> Int {
        let category = Message.Branch.match(rules.category(n))
        let other = Message.Branch.match(.other)
        var keyword = -1
        var fallback = choices.lowerBound
        for index in choices {
            let match = branches[index].match
            if match == n { return index }
            if match == category { keyword = index }
            if match == other { fallback = index }
        }
        return keyword >= 0 ? keyword : fallback
    }

    mutating func copy(_ source: UnsafeBufferPointer<UInt8>) {
        guard let base = source.baseAddress, !source.isEmpty else { return }
        precondition(capacity - written >= source.count, "message bound too small")
        // memcpy, as BodyRenderer's
        UnsafeMutableRawPointer(output + written).copyMemory(from: base, byteCount: source.count)
        written += source.count
    }

    mutating func copyIsolate(_ last: UInt8) {
        precondition(capacity - written >= 3, "message bound too small")
        output[written] = 0xE2
        output[written + 1] = 0x81
        output[written + 2] = last
        written += 3
    }

    /// How many digits `n` ≥ 0 has.
    static func digitCount(_ n: Int) -> Int {
        var digits = 1
        var rest = n / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        return digits
    }

    /// `n` in ASCII digits, no grouping.
    mutating func writeNumber(_ n: Int) {
        let digits = MessageWriter.digitCount(n)
        precondition(capacity - written >= digits, "message bound too small")
        var value = n
        for position in stride(from: written + digits - 1, through: written, by: -1) {
            output[position] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
        }
        written += digits
    }
}
