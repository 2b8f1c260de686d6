/// One catalog message, parsed once from the subset of ICU MessageFormat that
/// compose-l10n.md section 5 defines, into nodes the formatter walks without
/// allocating.
///
/// The nodes of every branch are in one array (`nodes`), the branches of every
/// plural in another (`branches`); a message, a branch and a plural refer to
/// theirs by a range. Texts are ranges of the message's own bytes.
final class Message: Sendable {
    enum Node: Sendable {
        /// Literal text: a range of `bytes`.
        case text(Range<Int>)
        /// `{name}`.
        case argument(MessageArgument)
        /// `#` inside a branch: the count of the innermost plural.
        case pound
        /// `{count, plural, …}`: the argument and a range of `branches`.
        case plural(MessageArgument, Range<Int>)
    }

    enum Selector: Equatable, Sendable {
        /// `=N`.
        case exact(Int)
        /// `zero`, `one`, `two`, `few`, `many` or `other`.
        case category(PluralCategory)
    }

    struct Branch: Sendable {
        let selector: Selector
        /// A range of `nodes`.
        let nodes: Range<Int>
        /// `selector` as one integer the formatter compares: N for `=N`,
        /// −1 − the category's raw value for a keyword.
        let match: Int

        init(selector: Selector, nodes: Range<Int>) {
            self.selector = selector
            self.nodes = nodes
            switch selector {
            case .exact(let n): match = n
            case .category(let category): match = Branch.match(category)
            }
        }

        static func match(_ category: PluralCategory) -> Int { -1 - Int(category.rawValue) }
    }

    /// The message as written, in UTF-8.
    let bytes: [UInt8]
    let nodes: [Node]
    let branches: [Branch]
    /// The top-level nodes: a range of `nodes`.
    let root: Range<Int>

    /// The most bytes of literal text any choice of branches writes: with
    /// `slots`, an upper bound on a formatting's length.
    let literalByteCount: Int
    /// The most times any choice of branches writes each argument (a count
    /// by `{count}`, `{others}` or `#`), by `MessageArgument.rawValue`.
    let slots: [Int]
    /// `slots` of `count` and `others`.
    let countSlots: Int
    let othersSlots: Int
    /// The text arguments written at least once, with their `slots`.
    let insertions: [(argument: MessageArgument, slots: Int)]

    /// Every argument the message inserts or selects on.
    var usedArguments: Set<MessageArgument> {
        var used = Set<MessageArgument>()
        for node in nodes {
            switch node {
            case .argument(let argument), .plural(let argument, _): used.insert(argument)
            case .text, .pound: break
            }
        }
        return used
    }

    /// Every plural: its argument and selectors.
    var plurals: [(argument: MessageArgument, selectors: [Selector])] {
        nodes.compactMap { node in
            guard case .plural(let argument, let range) = node else { return nil }
            return (argument, branches[range].map { $0.selector })
        }
    }

    /// Parses `text`.
    /// - Throws: `MessageSyntaxError` at the first byte that breaks the grammar,
    ///   an ASCII apostrophe, an unknown argument, a plural over an argument
    ///   that is not a count, a repeated selector, or a plural without `other`.
    init(_ text: String) throws(MessageSyntaxError) {
        var parser = MessageParser(bytes: Array(text.utf8))
        root = try parser.parseMessage(plural: nil)
        bytes = parser.bytes
        nodes = parser.nodes
        branches = parser.branches
        let (literal, slots) = Message.measure(root, pound: nil, nodes: parser.nodes, branches: parser.branches)
        literalByteCount = literal
        self.slots = slots
        countSlots = slots[MessageArgument.count.rawValue]
        othersSlots = slots[MessageArgument.others.rawValue]
        insertions = MessageArgument.allCases.filter { !$0.isCount && slots[$0.rawValue] > 0 }.map {
            ($0, slots[$0.rawValue])
        }
    }

    /// The literal bytes and argument slots of `range`, a plural taking the
    /// most of each over its branches (a bound: one branch need not have both).
    static func measure(
        _ range: Range<Int>, pound: MessageArgument?, nodes: [Node], branches: [Branch]
    ) -> (literal: Int, slots: [Int]) {
        var literal = 0
        var slots = [Int](repeating: 0, count: MessageArgument.allCases.count)
        for node in nodes[range] {
            switch node {
            case .text(let text): literal += text.count
            case .argument(let argument): slots[argument.rawValue] += 1
            case .pound: slots[(pound ?? .count).rawValue] += 1
            case .plural(let argument, let choices):
                var most = (literal: 0, slots: [Int](repeating: 0, count: slots.count))
                for branch in branches[choices] {
                    let inner = measure(branch.nodes, pound: argument, nodes: nodes, branches: branches)
                    most.literal = max(most.literal, inner.literal)
                    for index in slots.indices { most.slots[index] = max(most.slots[index], inner.slots[index]) }
                }
                literal += most.literal
                for index in slots.indices { slots[index] += most.slots[index] }
            }
        }
        return (literal, slots)
    }
}

/// Where and why a message breaks section 5's grammar.
package struct MessageSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The byte offset in the message's UTF-8.
    package let offset: Int
    package let reason: String

    package var description: String { "at byte \(offset): \(reason)" }
}

/// A recursive-descent parser over a message's UTF-8.
struct MessageParser {
    let bytes: [UInt8]
    var position = 0
    var nodes: [Message.Node] = []
    var branches: [Message.Branch] = []

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    func error(_ reason: String) -> MessageSyntaxError {
        MessageSyntaxError(offset: position, reason: reason)
    }

    var next: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// `message := ( text | "{" name "}" | plural )*`, up to the end (top
    /// level, `plural == nil`) or to the `}` that closes a branch of `plural`,
    /// which is left unread. Returns the range of `nodes` it appended.
    mutating func parseMessage(plural: MessageArgument?) throws(MessageSyntaxError) -> Range<Int> {
        // A level's nodes are appended together at its end, after those of
        // the branches inside it, so that each level's nodes are contiguous.
        var level: [Message.Node] = []
        var textStart = position
        func flush(_ level: inout [Message.Node], to end: Int) {
            if end > textStart { level.append(.text(textStart..<end)) }
        }
        loop: while let byte = next {
            switch byte {
            case UInt8(ascii: "{"):
                flush(&level, to: position)
                level.append(try parsePlaceholder())
                textStart = position
            case UInt8(ascii: "}"):
                guard plural != nil else { throw error("a } that closes nothing") }
                break loop
            case UInt8(ascii: "#") where plural != nil:
                flush(&level, to: position)
                level.append(.pound)
                position += 1
                textStart = position
            case UInt8(ascii: "'"):
                throw error("an ASCII apostrophe (write \u{2019} U+2019)")
            default:
                position += 1
            }
        }
        if plural != nil, next == nil { throw error("a branch that is not closed") }
        flush(&level, to: position)
        let start = nodes.count
        nodes.append(contentsOf: level)
        return start..<nodes.count
    }

    mutating func skipSpaces() {
        while next == UInt8(ascii: " ") { position += 1 }
    }

    /// A run of lowercase ASCII letters (possibly empty).
    mutating func word() -> String {
        let start = position
        while let byte = next, byte >= UInt8(ascii: "a"), byte <= UInt8(ascii: "z") { position += 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws(MessageSyntaxError) {
        guard next == byte else { throw error("expected \(what)") }
        position += 1
    }

    /// `"{" name "}"` or `plural`, from the `{`.
    mutating func parsePlaceholder() throws(MessageSyntaxError) -> Message.Node {
        position += 1
        skipSpaces()
        let nameStart = position
        let name = word()
        guard !name.isEmpty else { throw error("expected an argument name of lowercase ASCII letters") }
        guard let argument = MessageArgument.allCases.first(where: { $0.name == name }) else {
            position = nameStart
            throw error("unknown argument \(name)")
        }
        skipSpaces()
        if next == UInt8(ascii: "}") {
            position += 1
            return .argument(argument)
        }
        try expect(UInt8(ascii: ","), "} or , after the argument name")
        skipSpaces()
        let kindStart = position
        guard word() == "plural" else {
            position = kindStart
            throw error("expected plural: the only kind of placeholder")
        }
        guard argument.isCount else {
            position = nameStart
            throw error("a plural over \(name): only count and others are counts")
        }
        skipSpaces()
        try expect(UInt8(ascii: ","), ", after plural")
        var level: [Message.Branch] = []
        while true {
            skipSpaces()
            if next == UInt8(ascii: "}") { break }
            let selectorStart = position
            let selector = try parseSelector()
            if level.contains(where: { $0.selector == selector }) {
                position = selectorStart
                throw error("a selector written twice in one plural")
            }
            skipSpaces()
            try expect(UInt8(ascii: "{"), "{ after the selector")
            let range = try parseMessage(plural: argument)
            try expect(UInt8(ascii: "}"), "} closing the branch")
            level.append(Message.Branch(selector: selector, nodes: range))
        }
        guard level.contains(where: { $0.selector == .category(.other) }) else {
            throw error("a plural without an other branch")
        }
        position += 1
        let start = branches.count
        branches.append(contentsOf: level)
        return .plural(argument, start..<branches.count)
    }

    /// `"=" digits | "zero" | "one" | "two" | "few" | "many" | "other"`.
    mutating func parseSelector() throws(MessageSyntaxError) -> Message.Selector {
        if next == UInt8(ascii: "=") {
            position += 1
            let start = position
            var value = 0
            while let byte = next, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                guard position - start < 18 else { throw error("a number of more than 18 digits") }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                position += 1
            }
            guard position > start else { throw error("expected digits right after =") }
            return .exact(value)
        }
        let start = position
        let keyword = word()
        guard let category = PluralCategory.allCases.first(where: { $0.name == keyword }) else {
            position = start
            throw error("expected a selector: =N, zero, one, two, few, many or other")
        }
        return .category(category)
    }
}
