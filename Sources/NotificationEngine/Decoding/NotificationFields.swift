/// A notification's members as the decoder meets them, appended once all are read.
struct NotificationFields {
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

    /// Whether `id`, `type` and `timestamp`, the required members, are
    /// there: `missingMember == nil`, tested without building the answer
    /// (on the first pass, ~800 instructions fewer a request).
    var hasRequiredMembers: Bool { !id.isAbsent && !type.isAbsent && timestamp != nil }

    /// The first required member that is absent, in the order the problems name them.
    var missingMember: ComposeDecoder.NotificationMember? {
        id.isAbsent ? .id : type.isAbsent ? .type : timestamp == nil ? .timestamp : nil
    }

    /// Whether the source (in the request's `bytes`) holds a `:`: keys are
    /// `source:id`, so it would make them ambiguous.
    func sourceHasColon(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes[present: source].contains(UInt8(ascii: ":"))
    }

    /// Appends the notification. - Precondition: `hasRequiredMembers`.
    @inline(__always)
    func append(to request: inout ComposeRequest) {
        request.appendNotification(
            id: id, source: source, type: type, timestamp: timestamp!.range, moment: timestamp!.moment, read: read,
            thread: thread, threadTitle: threadTitle, senderID: sender.id, senderName: sender.name,
            text: text, defaultText: defaultText, url: url
        )
    }
}
