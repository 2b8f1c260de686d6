@_spi(Engine) import NotificationText

extension ComposeDecoder {
    /// Reads the notification at the reader when it has the previous
    /// notification's shape (`NotificationShape`): its literals repeated, a
    /// string in each slot, each string valid for its field. True when it was
    /// read and appended; false, with the reader and the request as they
    /// were, when it differs anywhere: then the general path reads it, and
    /// reports whatever made it differ.
    mutating func decodeShapedNotification() -> Bool {
        guard shape.isKnown, reader.peek() == UInt8(ascii: "{") else { return false }
        let bytes = reader.bytes
        let appendedCount = request.bytes.count
        // The slots' strings by field (`Slot.rawValue`); checked once all are read.
        var ranges = InlineArray<12, TextRange>(repeating: .absent)
        var cursor = reader.index
        let pieces = shape.pieces
        for k in 0..<shape.count {
            let piece = pieces[k]
            guard let start = piece.literalEnd(at: cursor, in: bytes),
                case .quote(let end, let hasEscape) = JSONByteClass.stringEnd(in: bytes, from: start)
            else { return abandon(appendedCount) }
            cursor = end
            if _fastPath(!hasEscape) {
                ranges[Int(piece.slot.rawValue)] = TextRange(start: start, count: end &- start)
            } else if piece.slot == .ignored {
                // As `JSONReader.skipValue`: the escapes of an unknown string are checked, once.
                guard
                    reader.validated
                        || (try? reader.withUnescaped((start, end, true)) { _ throws(JSONReader.Stop) in }) != nil
                else { return abandon(appendedCount) }
            } else {
                guard let appended = try? appendUnescaped((start, end, true)) else { return abandon(appendedCount) }
                ranges[Int(piece.slot.rawValue)] = appended
            }
        }
        guard let end = pieces[shape.count].literalEnd(at: cursor, in: bytes) else { return abandon(appendedCount) }
        var fields = NotificationFields()
        fields.read = shape.read
        fields.id = ranges[Int(NotificationShape.Slot.id.rawValue)]
        fields.source = ranges[Int(NotificationShape.Slot.source.rawValue)]
        fields.type = ranges[Int(NotificationShape.Slot.type.rawValue)]
        fields.thread = ranges[Int(NotificationShape.Slot.thread.rawValue)]
        fields.threadTitle = ranges[Int(NotificationShape.Slot.threadTitle.rawValue)]
        fields.sender = (
            ranges[Int(NotificationShape.Slot.senderID.rawValue)],
            ranges[Int(NotificationShape.Slot.senderName.rawValue)]
        )
        fields.text = ranges[Int(NotificationShape.Slot.text.rawValue)]
        fields.defaultText = ranges[Int(NotificationShape.Slot.defaultText.rawValue)]
        fields.url = ranges[Int(NotificationShape.Slot.url.rawValue)]
        let timestamp = ranges[Int(NotificationShape.Slot.timestamp.rawValue)]
        // The checks of the fields, as the general path makes them.
        guard !timestamp.isAbsent, let moment = moment(at: timestamp),
            fields.source.isAbsent || !request.bytes.withUnsafeBufferPointer(fields.sourceHasColon)
        else { return abandon(appendedCount) }
        fields.timestamp = (timestamp, moment)
        guard fields.hasRequiredMembers else { return abandon(appendedCount) }
        reader.move(to: end)
        fields.append(to: &request)
        shapedReads &+= 1
        return true
    }

    /// Drops what a shaped read appended; false.
    private mutating func abandon(_ appendedCount: Int) -> Bool {
        if request.bytes.count != appendedCount { request.removeAppended(downTo: appendedCount) }
        return false
    }
}
