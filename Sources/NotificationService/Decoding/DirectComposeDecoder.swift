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
///   scalars are checked and skipped, as the general path ignores them);
/// - a `fetch` written with escapes.
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

    private enum RequestMember: UInt8 {
        case notifications, displayed, now, maxAgeSeconds, maxUnits, app, recipient, fetch
    }

    private mutating func decodeRequest() throws(GiveUp) {
        var names = SeenNames()
        var hasNotifications = false
        if try openObject() {
            repeat {
                let name = try memberName()
                let member = Self.requestMember(name)
                try names.insert(member?.rawValue, name, in: bytes)
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
            CodePoints.equalBytes(name, UnsafeBufferPointer(start: spelling.utf8Start, count: spelling.utf8CodeUnitCount)) ? member : nil
        }
        switch name.count {
        case 3: return name[0] == UInt8(ascii: "n") ? candidate(.now, "now") : candidate(.app, "app")
        case 5: return candidate(.fetch, "fetch")
        case 8: return candidate(.maxUnits, "maxUnits")
        case 9: return name[0] == UInt8(ascii: "d") ? candidate(.displayed, "displayed") : candidate(.recipient, "recipient")
        case 13: return name[0] == UInt8(ascii: "n") ? candidate(.notifications, "notifications") : candidate(.maxAgeSeconds, "maxAgeSeconds")
        default: return nil
        }
    }

    private mutating func fetchOutcome() throws(GiveUp) -> FetchOutcome {
        guard peek() == UInt8(ascii: "\"") else { throw GiveUp() }
        let string = try scanString()
        guard !string.hasEscape else { throw GiveUp() }
        let spelling = String(decoding: UnsafeBufferPointer(rebasing: bytes[string.start..<string.end]), as: UTF8.self)
        guard let outcome = FetchOutcome(rawValue: spelling) else { throw GiveUp() }
        return outcome
    }

    // MARK: Notifications

    private mutating func decodeNotifications() throws(GiveUp) {
        try openArray()
        // Room for a typical batch; a larger one grows the arrays.
        input.reserve(notifications: 32)
        guard try !closeEmptyArray() else { return }
        var count = 0
        repeat {
            count += 1
            guard count <= ComposeRequest.maxNotifications else { throw GiveUp() }
            try decodeNotification()
        } while try nextElement()
    }

    private mutating func decodeNotification() throws(GiveUp) {
        var id = TextRange.absent
        var source = TextRange.absent
        var type = TextRange.absent
        var timestamp: (range: TextRange, moment: Moment)? = nil
        var read = false
        var thread = TextRange.absent
        var threadTitle = TextRange.absent
        var sender = (id: TextRange.absent, name: TextRange.absent)
        var text = TextRange.absent
        var defaultText = TextRange.absent
        var url = TextRange.absent
        var names = SeenNames()
        if try openObject() {
            repeat {
                let name = try memberName()
                let member = ComposeInput.notificationMember(name)
                try names.insert(member?.rawValue, name, in: bytes)
                if try skipNull() { continue }
                switch member {
                case .id: id = try self.text()
                case .source:
                    source = try self.text()
                    // A colon in the source is the general path's error.
                    if input.bytes.withUnsafeBufferPointer({ $0[present: source].contains(UInt8(ascii: ":")) }) { throw GiveUp() }
                case .type: type = try self.text()
                case .timestamp: timestamp = try self.timestamp()
                case .read: read = try boolean()
                case .thread: thread = try self.text()
                case .threadTitle: threadTitle = try self.text()
                case .sender: sender = try decodeSender()
                case .text: text = try self.text()
                case .defaultText: defaultText = try self.text()
                case .url: url = try self.text()
                case nil: try skipScalar()
                }
            } while try nextMember()
        }
        guard !id.isAbsent, !type.isAbsent, let timestamp else { throw GiveUp() }
        input.appendNotification(
            id: id, source: source, type: type, timestamp: timestamp.range, moment: timestamp.moment, read: read,
            thread: thread, threadTitle: threadTitle, senderID: sender.id, senderName: sender.name,
            text: text, defaultText: defaultText, url: url
        )
    }

    private mutating func decodeSender() throws(GiveUp) -> (id: TextRange, name: TextRange) {
        var sender = (id: TextRange.absent, name: TextRange.absent)
        var names = SeenNames()
        if try openObject() {
            repeat {
                let name = try memberName()
                let member: UInt8? = Self.isName(name, "id") ? 0 : Self.isName(name, "name") ? 1 : nil
                try names.insert(member, name, in: bytes)
                if try skipNull() { continue }
                switch member {
                case 0: sender.id = try text()
                case 1: sender.name = try text()
                default: try skipScalar()
                }
            } while try nextMember()
        }
        return sender
    }

    // MARK: Displayed entries

    private mutating func decodeDisplayed() throws(GiveUp) {
        try openArray()
        guard try !closeEmptyArray() else { return }
        var count = 0
        repeat {
            count += 1
            guard count <= ComposeRequest.maxDisplayedEntries else { throw GiveUp() }
            try decodeDisplayedEntry()
        } while try nextElement()
    }

    private mutating func decodeDisplayedEntry() throws(GiveUp) {
        var key = TextRange.absent
        var timestamp: (range: TextRange, moment: Moment)? = nil
        var names = SeenNames()
        if try openObject() {
            repeat {
                let name = try memberName()
                let member: UInt8? = Self.isName(name, "key") ? 0 : Self.isName(name, "timestamp") ? 1 : nil
                try names.insert(member, name, in: bytes)
                if try skipNull() { continue }
                switch member {
                case 0: key = try text()
                case 1: timestamp = try self.timestamp()
                default: try skipScalar()
                }
            } while try nextMember()
        }
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
        if cursor < bytes.count, Self.isDigit(bytes[cursor]) || bytes[cursor] | 0x20 == UInt8(ascii: "e") || bytes[cursor] == UInt8(ascii: ".") {
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
            if string.hasEscape { try checkEscapes(string.start, string.end) }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try skipNumber()
        default:
            guard skipLiteral("true") || skipLiteral("false") || skipLiteral("null") else { throw GiveUp() }
        }
    }

    /// Checks the escapes of a skipped string, decoding them aside.
    @inline(never)
    private func checkEscapes(_ start: Int, _ end: Int) throws(GiveUp) {
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
        let valid = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count) { output in
            (try? JSONParser.unescape(raw, baseOffset: start, into: output)) != nil
        }
        guard valid else { throw GiveUp() }
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
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "+") || bytes[cursor] == UInt8(ascii: "-") { cursor += 1 }
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
              CodePoints.equalBytes(UnsafeBufferPointer(rebasing: bytes[index..<index + count]), UnsafeBufferPointer(start: literal.utf8Start, count: count))
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

    /// A member's name, without escapes, and the `:` after it.
    @inline(__always)
    private mutating func memberName() throws(GiveUp) -> UnsafeBufferPointer<UInt8> {
        guard peek() == UInt8(ascii: "\"") else { throw GiveUp() }
        let string = try scanString()
        guard !string.hasEscape, peek() == UInt8(ascii: ":") else { throw GiveUp() }
        index &+= 1
        return UnsafeBufferPointer(rebasing: bytes[string.start..<string.end])
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
    /// quote: where its bytes are, and whether they hold escapes (which
    /// the caller checks by decoding them).
    @inline(__always)
    private mutating func scanString() throws(GiveUp) -> (start: Int, end: Int, hasEscape: Bool) {
        let start = index &+ 1
        var cursor = start
        var hasEscape = false
        while true {
            // 8 bytes at a time to the first quote, backslash or control
            // byte; the last 7 bytes of the body one by one.
            while bytes.count &- cursor >= 8 {
                let mask = JSONByteClass.escapeMask(UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + cursor).loadUnaligned(as: UInt64.self))
                if mask != 0 {
                    cursor &+= mask.trailingZeroBitCount &>> 3
                    break
                }
                cursor &+= 8
            }
            guard cursor < bytes.count else { throw GiveUp() }
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                hasEscape = true
                cursor &+= 2  // the escaped byte cannot end the string; decoding checks it
            } else if byte < 0x20 {
                throw GiveUp()
            } else {
                cursor &+= 1
            }
        }
        index = cursor &+ 1
        return (start, cursor, hasEscape)
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

    private static func isName(_ name: UnsafeBufferPointer<UInt8>, _ spelling: StaticString) -> Bool {
        CodePoints.equalBytes(name, UnsafeBufferPointer(start: spelling.utf8Start, count: spelling.utf8CodeUnitCount))
    }
}

/// The names met in one object, so a repeated name sends the body to the
/// general path (which reports it): a bit per known member, and for the
/// others a bit per fingerprint, where a shared bit may be a false alarm
/// (the general path then accepts the body, only slower).
private struct SeenNames {
    private var known: UInt64 = 0
    private var unknown: UInt64 = 0

    @inline(__always)
    mutating func insert(_ member: UInt8?, _ name: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>) throws(DirectComposeDecoder.GiveUp) {
        let bit: UInt64
        if let member {
            bit = 1 &<< UInt64(member)
            guard known & bit == 0 else { throw DirectComposeDecoder.GiveUp() }
            known |= bit
        } else {
            let fingerprint = UInt64(name.count) &* 31 &+ UInt64(name.first ?? 0) &* 7 &+ UInt64(name.last ?? 0)
            bit = 1 &<< (fingerprint & 63)
            guard unknown & bit == 0 else { throw DirectComposeDecoder.GiveUp() }
            unknown |= bit
        }
    }
}
