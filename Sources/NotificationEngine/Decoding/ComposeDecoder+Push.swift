/// The request member `push` of compose.md 6.6 (`preview`, 6.4, is a word: `ComposeDecoder.word`).
extension ComposeDecoder {
    /// Read only for a request with `push`: a static `let` costs a check on each read.
    private static let pushMembers = MemberTable<PushMember>()

    /// `push`: an object of optional members (`null` is absent); any other
    /// member is refused. `navigate` is required with a declarative `webPush`
    /// (push.md P23), checked when the object ends.
    mutating func pushOptions() throws(JSONReader.Stop) -> PushOptions {
        var options = PushOptions()
        var names = MemberNames(Self.pushMembers)
        names.startObject()
        if try reader.openObject(at: "push") {
            repeat {
                guard let member = try reader.memberName(&names) else {
                    throw unknownMember(PushMember.self, in: "push")
                }
                if try reader.skipNull() { continue }
                switch member {
                case .badge: options.badge = try integer(.badge)
                case .reserveBytes: options.reserveBytes = try integer(.reserveBytes)
                case .androidChannel:
                    options.androidChannel = try androidChannel()
                case .stamp:
                    guard case .integer64(let bounds) = member.field.kind else {
                        preconditionFailure("push.stamp is not a 64-bit integer in the wire table")
                    }
                    options.stamp = try reader.integer64(in: bounds, at: "push.stamp")
                case .alertWindowSeconds: options.alertWindowSeconds = try integer(.alertWindowSeconds)
                case .activeUntil:
                    let (range, _) = try timestamp(at: "push.activeUntil")
                    options.activeUntil = request.bytes.withUnsafeBufferPointer { bytes in
                        Timestamp(rfc3339: String(decoding: bytes[present: range], as: UTF8.self))
                    }
                case .webPush: options.webPush = try webPushFormat()
                case .navigate: options.navigate = try navigate()
                case .mutable: options.mutable = try reader.bool(at: "push.mutable")
                }
            } while try reader.nextMember()
        }
        if options.webPush == .declarative && options.navigate == nil {
            throw stop(
                Problem(
                    .missingField, "push.navigate is required when push.webPush is \"declarative\"",
                    at: "push.navigate"))
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

    /// `push.webPush`: `classic` or `declarative`, spelled exactly.
    private mutating func webPushFormat() throws(JSONReader.Stop) -> PushOptions.WebPushFormat {
        let spelling = try stringValue(at: "push.webPush")
        guard let format = PushOptions.WebPushFormat(rawValue: spelling) else {
            throw stop(
                Problem(
                    .invalidValue,
                    "push.webPush must be one of \"classic\", \"declarative\", got "
                        + JSONWriter.quotedForMessage(spelling), at: "push.webPush"))
        }
        return format
    }

    /// `push.navigate`: a navigable URL (push.md P23) of 1…512 bytes.
    private mutating func navigate() throws(JSONReader.Stop) -> String {
        let url = try stringValue(at: "push.navigate")
        guard PushOptions.navigateByteRange.contains(url.utf8.count), PushOptions.hasNavigableForm(url) else {
            throw stop(
                Problem(
                    .invalidValue,
                    "push.navigate must be an https:// or http:// URL of at most"
                        + " \(PushOptions.navigateByteRange.upperBound) bytes without spaces or control characters,"
                        + " got \(JSONWriter.quotedForMessage(url))",
                    at: "push.navigate"))
        }
        return url
    }
}
