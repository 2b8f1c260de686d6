/// push.md P24: who sent the message the payloads lead with, and its
/// conversation, written once as JSON: as the answer's `push` carries them,
/// as APNs and Web Push carry them (objects) and as FCM data does (strings).
package struct PushIdentity: Hashable, Sendable {
    /// `{"id":…,"name":…,"avatar":…}` (members when present); nil for none.
    package var sender: [UInt8]?
    /// `{"id":…,"title":…,"group":…}` (`title` when present); nil for none.
    package var conversation: [UInt8]?
    /// The sender's person key, name and avatar, and the conversation's
    /// id (the group key), title and whether it is a group, as values.
    package var senderID: String?, senderName: String?, senderAvatar: String?
    package var conversationID: String?, conversationTitle: String?
    package var isGroup = false
    /// `,"sender":{…},"conversation":{…}` (each when present): what an APNs
    /// or Web Push payload adds; empty for none.
    var objects: [UInt8] = []
    /// `,"senderId":"…",…,"conversationGroup":"true"`: what FCM data adds; empty for none.
    var data: [UInt8] = []

    /// None: no sender, no conversation.
    init() {}

    /// The identity of the answer `response` to `request`, whose newest kept
    /// notification is at `newest` in its records and whose group key is `groupKey`.
    init(request: ComposeRequest, response: ComposeResponse, newest: Int?, groupKey: String) {
        // The lead: a single's or a bundle's newest, of a message type.
        let kind = response.kind
        guard kind == .single || kind == .bundle, let newest else { return }
        let record = request.notificationRecords[newest]
        guard record.isMessage else { return }
        // Tier `none` shows no name, no thread title, and so no picture of the sender (compose.md C11).
        let showsNames = request.preview != .none
        let bytes = request.bytes
        let id = bytes.withUnsafeBufferPointer { bytes in bytes[record.senderID].map { Composer.groupKey(of: $0) } }
        var name: String? = nil
        var avatar: String? = nil
        if showsNames {
            name = bytes.withUnsafeBufferPointer { PlainText.normalisedString($0[record.senderName]) }
                .map(PlainText.capped)
            avatar = bytes.withUnsafeBufferPointer { bytes in
                bytes[record.ranges[.senderAvatar]].map { String(decoding: $0, as: UTF8.self) }
            }
        }
        let thread = record.thread.isAbsent ? nil : record.thread.count > 0
        // A bundle's messages share the thread: its title and whether it is a group are the
        // first given, newest first, as the bundle's title is (compose.md C6.1).
        var (title, isGroup): (String?, Bool) = (nil, record.scalars[.threadIsGroup] != 0)
        if kind == .bundle {
            (title, isGroup) = Self.bundleConversation(request: request, response: response, showsNames: showsNames)
        } else if showsNames {
            title = Self.title(of: record, in: request)
        }
        var objects: [UInt8] = []
        var data: [UInt8] = []
        if showsNames && (id != nil || name != nil || avatar != nil) {
            let sender = JSONWriter.bytes(capacity: 64) { out in
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
            }
            self.sender = sender
            (senderID, senderName, senderAvatar) = (id, name, avatar)
            objects += Array(#","sender":"#.utf8) + sender
            data += JSONWriter.bytes(capacity: 64) { out in
                func member(_ key: StaticString, _ value: String?) {
                    guard let value else { return }
                    out.raw(key)
                    out.string(value)
                }
                member(#","senderId":"#, id)
                member(#","senderName":"#, name)
                member(#","senderAvatar":"#, avatar)
            }
        }
        if thread == true {
            let conversation = JSONWriter.bytes(capacity: 64) { out in
                out.raw(#"{"id":"#)
                out.string(groupKey)
                if let title {
                    out.raw(#","title":"#)
                    out.string(title)
                }
                out.raw(isGroup ? #","group":true}"# : #","group":false}"#)
            }
            self.conversation = conversation
            (conversationID, conversationTitle, self.isGroup) = (groupKey, title, isGroup)
            objects += Array(#","conversation":"#.utf8) + conversation
            data += JSONWriter.bytes(capacity: 64) { out in
                out.raw(#","conversationId":"#)
                out.string(groupKey)
                if let title {
                    out.raw(#","conversationTitle":"#)
                    out.string(title)
                }
                out.raw(isGroup ? #","conversationGroup":"true""# : #","conversationGroup":"false""#)
            }
        }
        self.objects = objects
        self.data = data
    }

    /// `title(plain(threadTitle))` of `record`, nil when absent.
    private static func title(of record: ComposeRequest.NotificationRecord, in request: ComposeRequest) -> String? {
        request.bytes.withUnsafeBufferPointer { bytes in
            PlainText.normalisedString(bytes[record.threadTitle]).map(PlainText.capped)
        }
    }

    /// A bundle's conversation title (the first of its kept notifications,
    /// newest first, whose thread title is not absent) and whether one of
    /// them says the thread is a group.
    private static func bundleConversation(request: ComposeRequest, response: ComposeResponse, showsNames: Bool)
        -> (title: String?, isGroup: Bool)
    {
        // A shown key is the range of its notification's key: its start names the record.
        var position: [Int32: Int] = [:]
        for (offset, index) in response.shownIndices.enumerated() {
            position[response.records[index].key.start] = offset
        }
        var (best, title, isGroup) = (Int.max, String?.none, false)
        for record in request.notificationRecords {
            guard let offset = position[record.key.start] else { continue }
            if record.scalars[.threadIsGroup] != 0 { isGroup = true }
            if showsNames, offset < best, let text = Self.title(of: record, in: request) {
                (best, title) = (offset, text)
            }
        }
        return (title, isGroup)
    }
}
