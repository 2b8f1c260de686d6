import NotificationText

/// Decodes a `POST /compose` body in one pass, straight from its bytes into
/// `ComposeInput`, without the parser's tape: the path of every request of
/// the shape clients send.
///
/// It gives up (nil) on anything it was not written for, and then
/// `ComposeInput.decode` takes the general path (`JSONParser` to a tape,
/// then the tape decoder), which owns every error and its message. So this
/// path has one promise: when it returns an input, the general path would
/// have returned the same input (the same fields, and the same bytes
/// appended in the same order).
///
/// It returns nil for, among others:
/// - any JSON or request error (a duplicate name included);
/// - a member name written with escapes (`"\u0069d"` is `"id"`);
/// - an unknown member whose value is an array or an object (unknown
///   scalars are checked and skipped, as the general path ignores them).
///
/// Every byte is still checked: the whole body is well-formed UTF-8, and
/// each value it reads or skips follows RFC 8259. See ADR 0008.
struct DirectComposeDecoder {
    /// Why the direct path stopped does not matter: the general path says.
    struct GiveUp: Error {}

    /// The decoded input, or nil when the general path must decode `body`.
    static func decode(_ body: [UInt8], serverApp: String, now clock: () -> Timestamp) -> ComposeInput? {
        let decoded = body.withUnsafeBufferPointer { bytes -> ComposeInput? in
            // Ranges are 32-bit; the general path refuses larger texts itself.
            guard bytes.count < Int(Int32.max) / 2, UTF8Validation.firstInvalidOffset(bytes) == nil else { return nil }
            var decoder = DirectComposeDecoder(bytes: bytes, input: ComposeInput(bytes: body, serverApp: serverApp))
            do throws(GiveUp) {
                try decoder.decodeRequest()
            } catch {
                return nil
            }
            return decoder.input
        }
        guard var input = decoded else { return nil }
        if input.nowText.isAbsent {
            _ = input.setNow(at: input.append(clock().raw))  // a `Timestamp` is valid
        }
        return input
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var input: ComposeInput

    private init(bytes: UnsafeBufferPointer<UInt8>, input: ComposeInput) {
        self.bytes = bytes
        self.input = input
    }

    // MARK: The request

    private enum RequestMember: UInt8, ObjectMember {
        case notifications, displayed, now, maxAgeSeconds, maxUnits, app, recipient, fetch

        static func named(_ name: UnsafeBufferPointer<UInt8>) -> RequestMember? { requestMember(name) }
    }

    private mutating func decodeRequest() throws(GiveUp) {
        var names = MemberNames<RequestMember>()
        var hasNotifications = false
        if try openObject() {
            repeat {
                let member: RequestMember? = try memberName(&names)
                if try skipNull() { continue }
                switch member {
                case .notifications:
                    try decodeNotifications()
                    hasNotifications = true
                case .displayed:
                    try decodeDisplayed()
                case .now:
                    let range = try text()
                    guard input.setNow(at: range) else { throw GiveUp() }
                case .maxAgeSeconds:
                    input.maxAgeSeconds = try integer(in: ComposeRequest.maxAgeSecondsRange)
                case .maxUnits:
                    input.maxUnits = try integer(in: BodyRenderer.maxUnitsRange)
                case .app:
                    input.app = try text()
                case .recipient:
                    input.recipient = try text()
                case .fetch:
                    input.fetch = try fetchOutcome()
                case nil:
                    try skipScalar()
                }
            } while try nextMember()
        }
        // Only whitespace may follow the body's object.
        guard peek() == nil else { throw GiveUp() }
        if input.fetch == .ok && !hasNotifications { throw GiveUp() }
    }

    /// Which member of the request `name` is: by length and first byte, then one comparison.
    private static func requestMember(_ name: UnsafeBufferPointer<UInt8>) -> RequestMember? {
        func candidate(_ member: RequestMember, _ spelling: StaticString) -> RequestMember? {
            CodePoints.equalBytes(
                name, UnsafeBufferPointer(start: spelling.utf8Start, count: spelling.utf8CodeUnitCount)) ? member : nil
        }
        switch name.count {
        case 3: return name[0] == UInt8(ascii: "n") ? candidate(.now, "now") : candidate(.app, "app")
        case 5: return candidate(.fetch, "fetch")
        case 8: return candidate(.maxUnits, "maxUnits")
        case 9:
            return name[0] == UInt8(ascii: "d")
                ? candidate(.displayed, "displayed") : candidate(.recipient, "recipient")
        case 13:
            return name[0] == UInt8(ascii: "n")
                ? candidate(.notifications, "notifications") : candidate(.maxAgeSeconds, "maxAgeSeconds")
        default: return nil
        }
    }

    private mutating func fetchOutcome() throws(GiveUp) -> FetchOutcome {
        guard peek() == UInt8(ascii: "\"") else { throw GiveUp() }
        let string = try scanString()
        let spelling = try decodedString(string.start, string.end, hasEscape: string.hasEscape)
        guard let outcome = FetchOutcome(rawValue: spelling) else { throw GiveUp() }
        return outcome
    }

    // MARK: Notifications

    private mutating func decodeNotifications() throws(GiveUp) {
        try openArray()
        guard try !closeEmptyArray() else { return }
        // Room for a typical batch; a larger one grows the arrays.
        input.reserve(notifications: 32)
        var count = 0
        var order = NameOrder<ComposeInput.NotificationMember>()
        var senderOrder = NameOrder<SenderMember>()
        repeat {
            count += 1
            guard count <= ComposeRequest.maxNotifications else { throw GiveUp() }
            try decodeNotification(&order, &senderOrder)
        } while try nextElement()
    }

    private mutating func decodeNotification(
        _ order: inout NameOrder<ComposeInput.NotificationMember>, _ senderOrder: inout NameOrder<SenderMember>
    ) throws(GiveUp) {
        var fields = ComposeInput.NotificationFields()
        var names = MemberNames(order)
        if try openObject() {
            repeat {
                let member: ComposeInput.NotificationMember? = try memberName(&names)
                if try skipNull() { continue }
                switch member {
                case .id: fields.id = try text()
                case .source:
                    fields.source = try text()
                    // the general path's error
                    if input.bytes.withUnsafeBufferPointer(fields.sourceHasColon) { throw GiveUp() }
                case .type: fields.type = try text()
                case .timestamp: fields.timestamp = try timestamp()
                case .read: fields.read = try boolean()
                case .thread: fields.thread = try text()
                case .threadTitle: fields.threadTitle = try text()
                case .sender: fields.sender = try decodeSender(&senderOrder)
                case .text: fields.text = try text()
                case .defaultText: fields.defaultText = try text()
                case .url: fields.url = try text()
                case nil: try skipScalar()
                }
            } while try nextMember()
        }
        order = names.order
        guard fields.hasRequiredMembers else { throw GiveUp() }
        fields.append(to: &input)
    }

    private enum SenderMember: UInt8, ObjectMember {
        case id, name

        static func named(_ name: UnsafeBufferPointer<UInt8>) -> SenderMember? {
            isName(name, "id") ? .id : isName(name, "name") ? .name : nil
        }
    }

    private mutating func decodeSender(_ order: inout NameOrder<SenderMember>) throws(GiveUp) -> (
        id: TextRange, name: TextRange
    ) {
        var sender = (id: TextRange.absent, name: TextRange.absent)
        var names = MemberNames(order)
        if try openObject() {
            repeat {
                let member: SenderMember? = try memberName(&names)
                if try skipNull() { continue }
                switch member {
                case .id: sender.id = try text()
                case .name: sender.name = try text()
                case nil: try skipScalar()
                }
            } while try nextMember()
        }
        order = names.order
        return sender
    }

    // MARK: Displayed entries

    private mutating func decodeDisplayed() throws(GiveUp) {
        try openArray()
        guard try !closeEmptyArray() else { return }
        // Room for a typical state; a larger one grows the array.
        input.reserve(displayed: 64)
        var count = 0
        var order = NameOrder<DisplayedMember>()
        repeat {
            count += 1
            guard count <= ComposeRequest.maxDisplayedEntries else { throw GiveUp() }
            try decodeDisplayedEntry(&order)
        } while try nextElement()
    }

    private enum DisplayedMember: UInt8, ObjectMember {
        case key, timestamp

        static func named(_ name: UnsafeBufferPointer<UInt8>) -> DisplayedMember? {
            isName(name, "key") ? .key : isName(name, "timestamp") ? .timestamp : nil
        }
    }

    private mutating func decodeDisplayedEntry(_ order: inout NameOrder<DisplayedMember>) throws(GiveUp) {
        var key = TextRange.absent
        var timestamp: (range: TextRange, moment: Moment)? = nil
        var names = MemberNames(order)
        if try openObject() {
            repeat {
                let member: DisplayedMember? = try memberName(&names)
                if try skipNull() { continue }
                switch member {
                case .key: key = try text()
                case .timestamp: timestamp = try self.timestamp()
                case nil: try skipScalar()
                }
            } while try nextMember()
        }
        order = names.order
        guard !key.isAbsent, let timestamp else { throw GiveUp() }
        input.appendDisplayed(key: key, timestamp: timestamp.range, moment: timestamp.moment)
    }

    // MARK: Values

    /// A string value's range: its own bytes, or its decoded bytes appended
    /// when it has escapes (as the general path does).
    @inline(__always)
    private mutating func text() throws(GiveUp) -> TextRange {
        guard peek() == UInt8(ascii: "\"") else { throw GiveUp() }
        let string = try scanString()
        guard string.hasEscape else { return TextRange(start: string.start, count: string.end &- string.start) }
        return try appendUnescaped(string.start, string.end)
    }

    @inline(never)
    private mutating func appendUnescaped(_ start: Int, _ end: Int) throws(GiveUp) -> TextRange {
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
        let range = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count) { output -> TextRange? in
            guard let count = try? JSONParser.unescape(raw, baseOffset: start, into: output) else { return nil }
            return input.append(UnsafeBufferPointer(rebasing: output[0..<count]))
        }
        guard let range else { throw GiveUp() }
        return range
    }

    /// An RFC 3339 date-time string, as `Timestamp` accepts it.
    private mutating func timestamp() throws(GiveUp) -> (range: TextRange, moment: Moment) {
        let range = try text()
        guard let moment = input.moment(at: range) else { throw GiveUp() }
        return (range, moment)
    }

    private mutating func boolean() throws(GiveUp) -> Bool {
        if skipLiteral("true") { return true }
        if skipLiteral("false") { return false }
        throw GiveUp()
    }

    /// An integer written as one (`-?digits`, no leading zero), within `range`.
    private mutating func integer(in range: ClosedRange<Int>) throws(GiveUp) -> Int {
        guard peek() != nil else { throw GiveUp() }
        var cursor = index
        let negative = bytes[cursor] == UInt8(ascii: "-")
        if negative { cursor += 1 }
        let digits = cursor
        var value = 0
        // 18 digits cannot overflow; a longer number is the general path's.
        while cursor < bytes.count, cursor - digits < 18, Self.isDigit(bytes[cursor]) {
            value = value * 10 + Int(bytes[cursor] - UInt8(ascii: "0"))
            cursor += 1
        }
        guard cursor > digits, bytes[digits] != UInt8(ascii: "0") || cursor - digits == 1 else { throw GiveUp() }
        // A fraction, an exponent or a 19th digit: not for this path.
        if cursor < bytes.count,
            Self.isDigit(bytes[cursor]) || bytes[cursor] | 0x20 == UInt8(ascii: "e")
                || bytes[cursor] == UInt8(ascii: ".")
        {
            throw GiveUp()
        }
        if negative { value = -value }
        guard range.contains(value) else { throw GiveUp() }
        index = cursor
        return value
    }

    /// Checks and skips the value of an unknown member: a string, a number,
    /// `true`, `false` or `null`.
    private mutating func skipScalar() throws(GiveUp) {
        guard let byte = peek() else { throw GiveUp() }
        switch byte {
        case UInt8(ascii: "\""):
            let string = try scanString()
            // checks the escapes
            if string.hasEscape { _ = try decodedString(string.start, string.end, hasEscape: true) }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try skipNumber()
        default:
            guard skipLiteral("true") || skipLiteral("false") || skipLiteral("null") else { throw GiveUp() }
        }
    }

    /// The string between `start` and `end`, decoded (its escapes checked).
    private func decodedString(_ start: Int, _ end: Int, hasEscape: Bool) throws(GiveUp) -> String {
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
        guard hasEscape else { return String(decoding: raw, as: UTF8.self) }
        let decoded = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count) { output -> String? in
            guard let count = try? JSONParser.unescape(raw, baseOffset: start, into: output) else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: output[0..<count]), as: UTF8.self)
        }
        guard let decoded else { throw GiveUp() }
        return decoded
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, RFC 8259's number.
    private mutating func skipNumber() throws(GiveUp) {
        var cursor = index
        func digits() -> Int {
            let start = cursor
            while cursor < bytes.count, Self.isDigit(bytes[cursor]) { cursor += 1 }
            return cursor - start
        }
        if bytes[cursor] == UInt8(ascii: "-") { cursor += 1 }
        let integerStart = cursor
        let integerDigits = digits()
        guard integerDigits > 0, bytes[integerStart] != UInt8(ascii: "0") || integerDigits == 1 else { throw GiveUp() }
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: ".") {
            cursor += 1
            guard digits() > 0 else { throw GiveUp() }
        }
        if cursor < bytes.count, bytes[cursor] | 0x20 == UInt8(ascii: "e") {
            cursor += 1
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "+") || bytes[cursor] == UInt8(ascii: "-") {
                cursor += 1
            }
            guard digits() > 0 else { throw GiveUp() }
        }
        index = cursor
    }

    /// Skips `null` (true) when it is the next value.
    @inline(__always)
    private mutating func skipNull() throws(GiveUp) -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        guard skipLiteral("null") else { throw GiveUp() }
        return true
    }

    /// Skips `literal` (true) when the bytes at `index` spell it.
    private mutating func skipLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count,
            CodePoints.equalBytes(
                UnsafeBufferPointer(rebasing: bytes[index..<index + count]),
                UnsafeBufferPointer(start: literal.utf8Start, count: count))
        else { return false }
        index += count
        return true
    }

    // MARK: Structure

    /// Consumes an object's `{`; false when the object is empty (and closed).
    @inline(__always)
    private mutating func openObject() throws(GiveUp) -> Bool {
        guard peek() == UInt8(ascii: "{") else { throw GiveUp() }
        index &+= 1
        guard peek() == UInt8(ascii: "}") else { return true }
        index &+= 1
        return false
    }

    /// The next member's name, as the member it names (nil for
    /// an unknown one), and the `:` after it. A name written as in the
    /// previous object of the kind, at the same position, is known from one
    /// comparison; any other is scanned (no escapes allowed) and looked up.
    @inline(__always)
    private mutating func memberName<Member: ObjectMember>(_ names: inout MemberNames<Member>) throws(GiveUp) -> Member?
    {
        guard peek() == UInt8(ascii: "\"") else { throw GiveUp() }
        if let repeated = names.order.repeatedName(at: names.position, from: index, in: bytes) {
            index &+= repeated.length
            try names.insert(repeated.member.rawValue)
            return repeated.member
        }
        let start = index
        let string = try scanString()
        guard !string.hasEscape, peek() == UInt8(ascii: ":") else { throw GiveUp() }
        index &+= 1
        let name = UnsafeBufferPointer(rebasing: bytes[string.start..<string.end])
        guard let member = Member.named(name) else {
            try names.insertUnknown(name)
            return nil
        }
        try names.insert(member.rawValue)
        names.order.record(member, at: names.position &- 1, from: start, length: index &- start)
        return member
    }

    /// After a member: true at `,` (another member follows), false at `}`.
    @inline(__always)
    private mutating func nextMember() throws(GiveUp) -> Bool {
        try next(closing: UInt8(ascii: "}"))
    }

    /// After an element: true at `,` (another element follows), false at `]`.
    @inline(__always)
    private mutating func nextElement() throws(GiveUp) -> Bool {
        try next(closing: UInt8(ascii: "]"))
    }

    @inline(__always)
    private mutating func next(closing: UInt8) throws(GiveUp) -> Bool {
        let byte = peek()
        index &+= 1
        if byte == UInt8(ascii: ",") { return true }
        guard byte == closing else { throw GiveUp() }
        return false
    }

    private mutating func openArray() throws(GiveUp) {
        guard peek() == UInt8(ascii: "[") else { throw GiveUp() }
        index &+= 1
    }

    /// Closes an array at `]` right after its `[` (true).
    private mutating func closeEmptyArray() throws(GiveUp) -> Bool {
        guard peek() == UInt8(ascii: "]") else { return false }
        index &+= 1
        return true
    }

    // MARK: Bytes

    /// Scans the string whose opening quote is at `index` to its closing
    /// quote (`JSONByteClass.stringEnd`, as the parser does): where its bytes
    /// are, and whether they hold escapes (which the caller checks by
    /// decoding them).
    @inline(__always)
    private mutating func scanString() throws(GiveUp) -> (start: Int, end: Int, hasEscape: Bool) {
        let start = index &+ 1
        guard case .quote(let end, let hasEscape) = JSONByteClass.stringEnd(in: bytes, from: start) else {
            throw GiveUp()
        }
        index = end &+ 1
        return (start, end, hasEscape)
    }

    /// Skips whitespace and returns the byte at `index`, nil at the end.
    @inline(__always)
    private mutating func peek() -> UInt8? {
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

    fileprivate static func isName(_ name: UnsafeBufferPointer<UInt8>, _ spelling: StaticString) -> Bool {
        CodePoints.equalBytes(name, UnsafeBufferPointer(start: spelling.utf8Start, count: spelling.utf8CodeUnitCount))
    }
}

/// The known members of one kind of object, by name.
private protocol ObjectMember: RawRepresentable<UInt8> {
    /// The member `name` (unescaped bytes) names; nil for an unknown one.
    static func named(_ name: UnsafeBufferPointer<UInt8>) -> Self?
}

extension ComposeInput.NotificationMember: ObjectMember {
    fileprivate static func named(_ name: UnsafeBufferPointer<UInt8>) -> Self? { ComposeInput.notificationMember(name) }
}

/// The names met in one object, so a repeated name sends the body to the
/// general path (which reports it): a bit per known member, and for the
/// others a bit per fingerprint, where a shared bit may be a false alarm
/// (the general path then accepts the body, only slower). Also the object's
/// position, and the name order it follows and records for the next one.
private struct MemberNames<Member: RawRepresentable<UInt8>> {
    private var known: UInt64 = 0
    private var unknown: UInt64 = 0
    /// How many names were met.
    private(set) var position = 0
    var order: NameOrder<Member>

    init(_ order: NameOrder<Member> = NameOrder()) {
        self.order = order
        self.order.startObject()
    }

    @inline(__always)
    mutating func insert(_ member: UInt8) throws(DirectComposeDecoder.GiveUp) {
        let bit: UInt64 = 1 &<< UInt64(member & 63)
        guard known & bit == 0 else { throw DirectComposeDecoder.GiveUp() }
        known |= bit
        position &+= 1
    }

    mutating func insertUnknown(_ name: UnsafeBufferPointer<UInt8>) throws(DirectComposeDecoder.GiveUp) {
        let fingerprint = UInt64(name.count) &* 31 &+ UInt64(name.first ?? 0) &* 7 &+ UInt64(name.last ?? 0)
        let bit: UInt64 = 1 &<< (fingerprint & 63)
        guard unknown & bit == 0 else { throw DirectComposeDecoder.GiveUp() }
        unknown |= bit
        position &+= 1
    }
}

/// The known member names of the previous object of a kind (a notification,
/// a sender, a displayed entry) in order, each as the bytes of the body from
/// its opening quote through its `:`. Clients write every object of a kind
/// with the same members in the same order, so comparing those bytes at the
/// same position (a word or two) usually finds the next name without a scan.
/// A match is exact: the bytes were checked to be that name, unescaped.
private struct NameOrder<Member: RawRepresentable<UInt8>> {
    struct Name {
        var start: Int32
        var length: Int32
        var member: Member?
    }

    private static var capacity: Int { 16 }
    private var names = InlineArray<16, Name>(repeating: Name(start: 0, length: 0, member: nil))
    /// Names of the previous object (usable for predictions).
    private var previousCount = 0
    /// Names of this object recorded so far, from its first without a gap.
    private var count = 0

    mutating func startObject() {
        previousCount = count
        count = 0
    }

    /// The name at `position` of the previous object, when the body repeats it at `index`.
    @inline(__always)
    mutating func repeatedName(at position: Int, from index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (
        member: Member, length: Int
    )? {
        guard position < previousCount else { return nil }
        let name = names[position]
        let length = Int(name.length)
        guard let member = name.member, bytes.count &- index >= length, let base = bytes.baseAddress,
            CodePoints.equalBytes(
                UnsafeBufferPointer(start: base + index, count: length),
                UnsafeBufferPointer(start: base + Int(name.start), count: length))
        else { return nil }
        if count == position { count &+= 1 }
        return (member, length)
    }

    /// Records the name at `position` of this object, when the names before it are recorded.
    @inline(__always)
    mutating func record(_ member: Member, at position: Int, from start: Int, length: Int) {
        guard position == count, position < Self.capacity else { return }
        names[position] = Name(
            start: Int32(truncatingIfNeeded: start), length: Int32(truncatingIfNeeded: length), member: member)
        count &+= 1
    }
}
