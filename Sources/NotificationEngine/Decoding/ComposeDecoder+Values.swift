/// The values the decoder reads: strings (kept as ranges, or decoded and
/// appended), timestamps, and the shapes their objects leave.
extension ComposeDecoder {

    /// A string value's range: its own bytes, or its decoded bytes appended
    /// when it has escapes.
    @inline(__always)
    mutating func text(at path: @autoclosure () -> String) throws(JSONReader.Stop) -> TextRange {
        let string = try reader.string(at: path())
        guard string.hasEscape else { return TextRange(start: string.start, count: string.end &- string.start) }
        return try appendUnescaped(string)
    }

    /// Which shape a string is noted in.
    enum ShapeOwner { case notification, displayedEntry }

    /// A notification's or displayed entry's string value (`text(at:)`),
    /// noted in the `owner`'s shape as `slot`.
    @inline(__always)
    mutating func text(
        _ slot: ObjectShape.Slot, of owner: ShapeOwner = .notification, at path: @autoclosure () -> String
    ) throws(JSONReader.Stop) -> TextRange {
        let open = reader.index
        let range = try text(at: path())
        note(slot, of: owner, open: open, close: reader.index &- 1)
        return range
    }

    /// A boolean member's value (1 or 0), noted in the `owner`'s shape as `slot`.
    mutating func boolean(
        _ slot: ObjectShape.ScalarSlot, of owner: ShapeOwner, at path: @autoclosure () -> String
    ) throws(JSONReader.Stop) -> Int64 {
        let start = reader.index
        let value = try reader.bool(at: path())
        note(slot, .boolean, of: owner, start: start, end: reader.index)
        return value ? 1 : 0
    }

    /// An integer member's value within `bounds`, noted in the `owner`'s shape as `slot`.
    mutating func integer(
        _ slot: ObjectShape.ScalarSlot, in bounds: ClosedRange<Int>, of owner: ShapeOwner,
        at path: @autoclosure () -> String
    ) throws(JSONReader.Stop) -> Int64 {
        let start = reader.index
        let value = try reader.integer(in: bounds, at: path())
        note(slot, .integer, of: owner, start: start, end: reader.index, bounds: bounds)
        return Int64(value)
    }

    @inline(__always)
    mutating func note(_ slot: ObjectShape.Slot, of owner: ShapeOwner, open: Int, close: Int) {
        switch owner {
        case .notification: shape.note(slot, open: open, close: close)
        case .displayedEntry: displayedShape.note(slot, open: open, close: close)
        }
    }

    mutating func note(
        _ slot: ObjectShape.ScalarSlot, _ kind: ObjectShape.Kind, of owner: ShapeOwner, start: Int, end: Int,
        bounds: ClosedRange<Int> = Int.min...Int.max
    ) {
        switch owner {
        case .notification: shape.note(slot, kind, start: start, end: end, bounds: bounds)
        case .displayedEntry: displayedShape.note(slot, kind, start: start, end: end, bounds: bounds)
        }
    }

    @inline(never)
    mutating func appendUnescaped(_ string: (start: Int, end: Int, hasEscape: Bool)) throws(JSONReader.Stop)
        -> TextRange
    {
        let bytes = reader.bytes
        return try JSONReader.withUnescaped(string, in: bytes) { request.append($0) }
    }

    /// An RFC 3339 date-time string, as `Timestamp` accepts it: its range and instant.
    mutating func timestamp(at path: @autoclosure () -> String) throws(JSONReader.Stop) -> (
        range: TextRange, moment: Moment
    ) {
        // Read first: an argument that appends would not be seen by a call on `self` it is passed to.
        let range = try text(at: path())
        return try instant(of: range, at: path())
    }

    /// A notification's or displayed entry's timestamp (`timestamp(at:)`),
    /// noted in the `owner`'s shape as `slot`.
    mutating func timestamp(
        _ slot: ObjectShape.Slot, of owner: ShapeOwner = .notification, at path: @autoclosure () -> String
    ) throws(JSONReader.Stop) -> (range: TextRange, moment: Moment) {
        let range = try text(slot, of: owner, at: path())
        return try instant(of: range, at: path())
    }

    mutating func instant(of range: TextRange, at path: @autoclosure () -> String) throws(JSONReader.Stop)
        -> (range: TextRange, moment: Moment)
    {
        guard let moment = moment(at: range) else { throw stop(invalidTimestamp(range, at: path())) }
        return (range, moment)
    }

    /// The instant of the RFC 3339 date-time at `range` (`ComposeRequest.moment(at:)`);
    /// one of the recent day (`RecentDay`) without the full parse.
    @inline(__always)
    mutating func moment(at range: TextRange) -> Moment? {
        // Only a range of the body's own bytes: appended ones lie past them.
        let isBody = range.count == 20 && range.start >= 0 && range.end <= reader.bytes.count
        let raw = isBody ? UnsafeBufferPointer(rebasing: reader.bytes[Int(range.start)..<range.end]) : nil
        if let raw, let seconds = recentDay.epochSeconds(raw) {
            return Moment(epochSeconds: seconds, nanoseconds: 0, extraDigits: .empty)
        }
        guard let moment = request.moment(at: range) else { return nil }
        if let raw { recentDay.remember(raw, epochSeconds: moment.epochSeconds) }
        return moment
    }

    /// The string at the reader, unescaped, as a `String`: for the few
    /// members whose rule reads their words (`fetch`, `preview`,
    /// `push.androidChannel`), not for texts, which stay ranges.
    mutating func stringValue(at path: @autoclosure () -> String) throws(JSONReader.Stop) -> String {
        let string = try reader.string(at: path())
        if string.hasEscape { return try reader.withUnescaped(string) { String(decoding: $0, as: UTF8.self) } }
        return String(decoding: UnsafeBufferPointer(rebasing: reader.bytes[string.start..<string.end]), as: UTF8.self)
    }

    /// Whether the source at `range` (absent: none) holds a `:`: keys are
    /// `source:id`, so it would make them ambiguous.
    @inline(__always)
    func sourceHasColon(_ range: TextRange) -> Bool {
        !range.isAbsent && request.bytes.withUnsafeBufferPointer { $0[present: range].contains(UInt8(ascii: ":")) }
    }

    /// The problem of a string at `range` that is not an RFC 3339 date-time.
    func invalidTimestamp(_ range: TextRange, at path: String) -> Problem {
        let raw = request.bytes.withUnsafeBufferPointer { String(decoding: $0[present: range], as: UTF8.self) }
        return Problem(
            .invalidTimestamp,
            "\(path) must be an RFC 3339 date-time such as \"2026-05-04T10:00:00Z\", got \(JSONWriter.quotedForMessage(raw))",
            at: path)
    }
}
