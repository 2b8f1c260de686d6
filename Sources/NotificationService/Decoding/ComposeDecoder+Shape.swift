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
        var fields = NotificationFields()
        fields.read = shape.read
        var cursor = reader.index
        let pieces = shape.pieces
        for k in 0..<shape.count {
            let piece = pieces[k]
            guard let start = piece.literalEnd(at: cursor, in: bytes),
                case .quote(let end, let hasEscape) = JSONByteClass.stringEnd(in: bytes, from: start)
            else { return abandon(appendedCount) }
            cursor = end
            let slot = piece.slot
            let string = (start: start, end: end, hasEscape: hasEscape)
            guard slot != .ignored else {
                // As `JSONReader.skipValue`: the escapes of an unknown string are checked, once.
                if hasEscape && !reader.validated {
                    guard (try? reader.withUnescaped(string) { _ throws(JSONReader.Stop) in }) != nil else {
                        return abandon(appendedCount)
                    }
                }
                continue
            }
            let range: TextRange
            if hasEscape {
                guard let appended = try? appendUnescaped(string) else { return abandon(appendedCount) }
                range = appended
            } else {
                range = TextRange(start: start, count: end &- start)
            }
            switch slot {
            case .id: fields.id = range
            case .source:
                fields.source = range
                if request.bytes.withUnsafeBufferPointer(fields.sourceHasColon) { return abandon(appendedCount) }
            case .type: fields.type = range
            case .timestamp:
                guard let moment = moment(at: range) else { return abandon(appendedCount) }
                fields.timestamp = (range, moment)
            case .thread: fields.thread = range
            case .threadTitle: fields.threadTitle = range
            case .senderID: fields.sender.id = range
            case .senderName: fields.sender.name = range
            case .text: fields.text = range
            case .defaultText: fields.defaultText = range
            case .url: fields.url = range
            case .ignored: break
            }
        }
        guard let end = pieces[shape.count].literalEnd(at: cursor, in: bytes), fields.hasRequiredMembers else {
            return abandon(appendedCount)
        }
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
