/// The request members of compose.md 6.4 and 6.6: `preview` and `push`.
extension ComposeDecoder {
    /// Read only for a request with `push`: a static `let` costs a check on each read.
    private static let pushMembers = MemberTable<PushMember>()

    /// `preview`: `full`, `sender` or `none`, spelled exactly.
    mutating func previewTier() throws(JSONReader.Stop) -> PreviewTier {
        let spelling = try stringValue(at: "preview")
        guard let tier = PreviewTier(rawValue: spelling) else {
            throw stop(
                Problem(
                    .invalidValue,
                    "preview must be one of \"full\", \"sender\", \"none\", got \(JSONWriter.quotedForMessage(spelling))",
                    at: "preview"))
        }
        return tier
    }

    /// `push`: an object of optional members (`null` is absent); unknown members are ignored.
    mutating func pushOptions() throws(JSONReader.Stop) -> PushOptions {
        var options = PushOptions()
        var names = MemberNames(Self.pushMembers)
        names.startObject()
        if try reader.openObject(at: "push") {
            repeat {
                let member = try reader.memberName(&names)
                if try reader.skipNull() { continue }
                switch member {
                case .badge: options.badge = try integer(.badge)
                case .reserveBytes: options.reserveBytes = try integer(.reserveBytes)
                case .androidChannel:
                    options.androidChannel = try androidChannel()
                case nil:
                    try reader.skipValue()
                }
            } while try reader.nextMember()
        }
        return options
    }

    /// The `push` object's integer `member`, within its table's bounds.
    private mutating func integer(_ member: PushMember) throws(JSONReader.Stop) -> Int {
        guard case .integer(let bounds) = member.field.kind else {
            preconditionFailure("push.\(member.rawValue) is not an integer in the wire table")
        }
        return try reader.integer(in: bounds, at: "push.\(member.rawValue)")
    }

    /// `push.androidChannel`: 1…128 bytes of UTF-8 without a control character.
    private mutating func androidChannel() throws(JSONReader.Stop) -> String {
        let channel = try stringValue(at: "push.androidChannel")
        guard PushOptions.isValidAndroidChannel(channel.unicodeScalars, byteCount: channel.utf8.count) else {
            throw stop(
                Problem(
                    .invalidValue,
                    "push.androidChannel must be 1 to \(PushOptions.androidChannelByteRange.upperBound) bytes of UTF-8"
                        + " without control characters, got \(JSONWriter.quotedForMessage(channel))",
                    at: "push.androidChannel"))
        }
        return channel
    }
}
