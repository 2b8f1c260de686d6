extension ComposeDecoder {
    /// Reads the notification at the reader when it has the previous
    /// notification's shape (`ObjectShape`): its literals repeated, a string
    /// in each slot, each string valid for its field. True when it was read
    /// and appended; false, with the reader and the request as they were,
    /// when it differs anywhere: then the general path reads it, and reports
    /// whatever made it differ.
    mutating func decodeShapedNotification() -> Bool {
        let appendedCount = request.bytes.count
        var ranges = ComposeRequest.NotificationRanges()
        var scalars = tables.notificationScalars
        guard shape.isKnown,
            let end = readShaped(shape.pieces, shape.count, into: &ranges, &scalars, appendedCount: appendedCount)
        else {
            return false
        }
        // The checks of the fields, as the general path makes them. The
        // required members are there: a shape is noted only from an object
        // that had them, each in a slot, and each slot was filled.
        guard let moment = moment(at: ranges[.timestamp]),
            passesRules(shape.ruledSlots, tables.notificationRules, &ranges)
        else { return abandon(appendedCount) }
        reader.move(to: end)
        // Each range was checked as it was read: within the body, or appended.
        request.appendNotification(checked: &ranges, scalars, moment: moment)
        shapedReads &+= 1
        return true
    }

    /// Reads the displayed entry at the reader when it has the previous
    /// entry's shape, as `decodeShapedNotification` reads a notification.
    mutating func decodeShapedDisplayedEntry() -> Bool {
        let appendedCount = request.bytes.count
        var ranges = ComposeRequest.NotificationRanges()
        var scalars = DisplayedMember.startScalars
        guard displayedShape.isKnown,
            let end = readShaped(
                displayedShape.pieces, displayedShape.count, into: &ranges, &scalars, appendedCount: appendedCount)
        else { return false }
        let key = ranges[.key]
        let timestamp = ranges[.timestamp]
        let group = ranges[.group]
        // `timestamp` and `key` or `group` are there, as in the entry the
        // shape was noted from; the general path reports a group it refuses.
        guard let moment = moment(at: timestamp),
            passesRules(displayedShape.ruledSlots, tables.displayedRules, &ranges),
            let extras = extras(ranges, scalars), group.isAbsent || noteGroup(group)
        else { return abandon(appendedCount) }
        reader.move(to: end)
        request.appendDisplayed(key: key, timestamp: timestamp, moment: moment, group: group, extras: extras)
        shapedReads &+= 1
        return true
    }

    /// Where the object at the reader ends, with its strings written into
    /// `ranges` by field (`Slot`) and its booleans and integers into
    /// `scalars`, when its bytes repeat the literals of a known shape's
    /// `pieces`, of `count` slots, with a value of the slot's kind in each
    /// slot; an escaped string is decoded and appended. Nil, with what it
    /// appended removed, when they do not. The fields' own checks are the
    /// caller's. The names are in the literals, and a shape is noted only
    /// from an object the general path read whole, whose names were all its
    /// kind's: an object with a name its kind does not have never matches
    /// one, and goes to the general path, which refuses it.
    @inline(__always)
    private mutating func readShaped(
        _ pieces: UnsafeMutableBufferPointer<ObjectShape.Piece>, _ count: Int,
        into ranges: inout ComposeRequest.NotificationRanges,
        _ scalars: inout ComposeRequest.ScalarSlots, appendedCount: Int
    ) -> Int? {
        // Both buffers are non-empty: the body holds a `{`, a known shape a piece.
        guard reader.peek() == UInt8(ascii: "{"), let base = reader.bytes.baseAddress,
            var piece = UnsafePointer(pieces.baseAddress)
        else { return nil }
        let bytes = reader.bytes
        var cursor = reader.index
        // Walked by pointer: piece `count` is the last literal, within `pieces`.
        let lastPiece = piece + count
        while piece != lastPiece {
            guard let start = ObjectShape.Piece.literalEnd(piece, at: cursor, in: bytes, base: base)
            else {
                return abandoned(appendedCount)
            }
            guard _fastPath(piece.pointee.kind == .text) else {
                guard let scalar = ObjectShape.Piece.scalar(piece, at: start, in: bytes) else {
                    return abandoned(appendedCount)
                }
                scalars[piece.pointee.scalar] = scalar.value
                piece += 1
                cursor = scalar.end
                continue
            }
            let slot = piece.pointee.slot
            piece += 1
            guard case .quote(let end, let hasEscape) = JSONByteClass.stringEnd(in: bytes, from: start) else {
                return abandoned(appendedCount)
            }
            cursor = end
            if _fastPath(!hasEscape) {
                ranges[slot] = TextRange(start: start, count: end &- start)
            } else {
                guard let appended = escapedSlot(start: start, end: end) else { return abandoned(appendedCount) }
                ranges[slot] = appended
            }
        }
        guard let end = ObjectShape.Piece.literalEnd(piece, at: cursor, in: bytes, base: base)
        else {
            return abandoned(appendedCount)
        }
        return end
    }

    /// The range of the escaped string from `start` to `end`: its decoded
    /// bytes appended. Nil when an escape is invalid. Out of the shaped
    /// read's loop, which then keeps its own values in registers.
    @inline(never)
    private mutating func escapedSlot(start: Int, end: Int) -> TextRange? {
        try? appendUnescaped((start, end, true))
    }

    /// Whether the value of each slot of `ruled` (one bit a slot: a
    /// shape's `ruledSlots`, each filled) in `ranges` keeps its rule in
    /// `rules`: the shaped read's run of the rules the general path runs.
    /// Only the shape's ruled slots are visited, each read in place; a
    /// source (a notification's one rule, nearly always) is tested here.
    /// Inlined into both shaped reads on the native platforms (a call costs
    /// about 500 instructions of `service-compose-20` on x86-64); the
    /// WebAssembly modules, built for size, keep one copy.
    #if arch(x86_64) || arch(arm64)
    @inline(__always)
    #endif
    private mutating func passesRules(
        _ ruled: UInt16, _ rules: SlotRules, _ ranges: inout ComposeRequest.NotificationRanges
    ) -> Bool {
        var slots = ruled
        while slots != 0 {
            let slot = slots.trailingZeroBitCount
            slots &= slots &- 1
            let range = withUnsafeBytes(of: &ranges.slots) {
                $0.load(fromByteOffset: slot &* MemoryLayout<TextRange>.stride, as: TextRange.self)
            }
            let rule = rules.rule(slot)
            if rule == .noColon && range.end <= reader.bytes.count {
                // A value as the body wrote it: read in place.
                if UnsafeBufferPointer(rebasing: reader.bytes[Int(range.start)..<range.end]).contains(
                    UInt8(ascii: ":"))
                {
                    return false
                }
            } else if !holdsOutOfLine(rule, range, words: rules.words(slot)) {
                return false
            }
        }
        return true
    }

    /// Whether the string at `range` keeps `rule` (of a row whose words, if
    /// any, are `words`): the rules but a source's, out of the shaped read.
    @inline(never)
    private mutating func holdsOutOfLine(_ rule: MemberRule, _ range: TextRange, words: WordList?) -> Bool {
        holds(rule, range, words: words)
    }

    /// Drops what a shaped read appended; false.
    private mutating func abandon(_ appendedCount: Int) -> Bool {
        if request.bytes.count != appendedCount { request.removeAppended(downTo: appendedCount) }
        return false
    }

    /// Drops what a shaped read appended; nil.
    private mutating func abandoned<Value>(_ appendedCount: Int) -> Value? {
        _ = abandon(appendedCount)
        return nil
    }
}
