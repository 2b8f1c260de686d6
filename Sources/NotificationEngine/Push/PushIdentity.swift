/// push.md P24: who sent the message the payloads lead with, and its
/// conversation, written once as JSON: as APNs and Web Push carry them
/// (objects, which the answer's `push` repeats) and as FCM data does
/// (strings). Two buffers, whatever the members.
package struct PushIdentity: Hashable, Sendable {
    /// The sender's person key, name and avatar, and the conversation's
    /// id (the group key), title and whether it is a group, as values.
    package var senderID: String?, senderName: String?, senderAvatar: String?
    package var conversationID: String?, conversationTitle: String?
    package var isGroup = false
    /// `,"sender":{…},"conversation":{…}` (each when present), what an APNs
    /// or Web Push payload adds, then `,"senderId":"…",…` what FCM data
    /// adds: one buffer, empty for none.
    private var bytes: [UInt8] = []
    /// Where the FCM members start in `bytes`; where in it the sender's and
    /// the conversation's objects are (empty: none).
    private var dataStart = 0
    private var senderObject = 0..<0
    private var conversationObject = 0..<0

    /// What an APNs or Web Push payload adds.
    var objects: ArraySlice<UInt8> { bytes[..<dataStart] }
    /// What FCM data adds.
    var data: ArraySlice<UInt8> { bytes[dataStart...] }

    /// `{"id":…,"name":…,"avatar":…}` (members when present); nil for none.
    package var sender: ArraySlice<UInt8>? { senderObject.isEmpty ? nil : bytes[senderObject] }
    /// `{"id":…,"title":…,"group":…}` (`title` when present); nil for none.
    package var conversation: ArraySlice<UInt8>? {
        conversationObject.isEmpty ? nil : bytes[conversationObject]
    }

    /// None: no sender, no conversation.
    init() {}

    /// The identity of the answer `response` to `request`, whose newest kept
    /// notification is at `newest` in its records and whose group key is `groupKey`.
    /// (Borrowed: an initializer's parameters are owned, so the request and
    /// the response would be copied in.)
    init(request: borrowing ComposeRequest, response: borrowing ComposeResponse, newest: Int?, groupKey: String) {
        // The lead: a single's or a bundle's newest, of a message type.
        let kind = response.kind
        guard kind == .single || kind == .bundle, let newest else { return }
        let record = request.notificationRecords[newest]
        guard record.isMessage else { return }
        // Tier `none` shows no name, no thread title, and so no picture of the sender (compose.md C11).
        let showsNames = request.preview != .none
        request.bytes.withUnsafeBufferPointer { bytes in
            senderID = bytes[record.senderID].map { Composer.groupKey(of: $0) }
            if showsNames {
                senderName = PlainText.normalisedString(bytes[record.senderName]).map(Self.titleCapped)
                senderAvatar = bytes[record.ranges[.senderAvatar]].map { String(decoding: $0, as: UTF8.self) }
            }
        }
        // The conversation is the lead's: a backend gives a thread's title and whether it is a group
        // with each of its messages (P24), so a bundle's lead has them as its siblings do.
        if !record.thread.isAbsent && record.thread.count > 0 {
            conversationID = groupKey
            isGroup = record.scalars[.threadIsGroup] != 0
            if showsNames {
                conversationTitle = request.bytes.withUnsafeBufferPointer { bytes in
                    PlainText.normalisedString(bytes[record.threadTitle]).map(Self.titleCapped)
                }
            }
        }
        let hasSender = showsNames && (senderID != nil || senderName != nil || senderAvatar != nil)
        guard hasSender || conversationID != nil else { return }
        write(hasSender: hasSender)
    }

    private mutating func write(hasSender: Bool) {
        var (dataStart, senderObject, conversationObject) = (0, 0..<0, 0..<0)
        let (id, name, avatar) = hasSender ? (senderID, senderName, senderAvatar) : (nil, nil, nil)
        let (conversation, title, isGroup) = (conversationID, conversationTitle, self.isGroup)
        bytes = JSONWriter.bytes(capacity: 256) { out in
            if hasSender {
                out.raw(#","sender":"#)
                let start = out.count
                var separator: StaticString = "{"
                func member(_ key: StaticString, _ value: String?) {
                    guard let value else { return }
                    out.raw(separator)
                    out.raw(key)
                    out.string(value)
                    separator = ","
                }
                member(#""id":"#, id)
                member(#""name":"#, name)
                member(#""avatar":"#, avatar)
                out.raw("}")
                senderObject = start..<out.count
            }
            if let conversation {
                out.raw(#","conversation":"#)
                let start = out.count
                out.raw(#"{"id":"#)
                out.string(conversation)
                if let title {
                    out.raw(#","title":"#)
                    out.string(title)
                }
                out.raw(isGroup ? #","group":true}"# : #","group":false}"#)
                conversationObject = start..<out.count
            }
            // The FCM data's strings.
            dataStart = out.count
            func member(_ key: StaticString, _ value: String?) {
                guard let value else { return }
                out.raw(key)
                out.string(value)
            }
            member(#","senderId":"#, id)
            member(#","senderName":"#, name)
            member(#","senderAvatar":"#, avatar)
            guard conversation != nil else { return }
            member(#","conversationId":"#, conversation)
            member(#","conversationTitle":"#, title)
            out.raw(isGroup ? #","conversationGroup":"true""# : #","conversationGroup":"false""#)
        }
        (self.dataStart, self.senderObject, self.conversationObject) = (dataStart, senderObject, conversationObject)
    }

    /// `title(s)` of a normalised `text`: itself when it has at most 256
    /// UTF-8 bytes (so at most 256 UTF-16 units), else through the title cap.
    private static func titleCapped(_ text: String) -> String {
        text.utf8.count <= PlainText.titleMaxUnits ? text : PlainText.capped(text)
    }
}
