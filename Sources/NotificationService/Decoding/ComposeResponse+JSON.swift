import NotificationText

extension ComposeResponse {
    /// The response of `compose-rules.md`, compact, members in the spec's order;
    /// absent values are `null`, never omitted.
    public func jsonBody() -> [UInt8] {
        var writer = JSONWriter(capacity: 256 + notification.body.utf8.count + 48 * (dropped.count + displayed.count))
        writer.beginObject()
        writer.key("kind")
        writer.string(kind.rawValue)
        writer.key("reason")
        writer.string(reason?.rawValue)
        writer.key("notification")
        writer.beginObject()
        writer.key("title")
        writer.string(notification.title)
        writer.key("subtitle")
        writer.string(notification.subtitle)
        writer.key("body")
        writer.string(notification.body)
        writer.key("threadIdentifier")
        writer.string(notification.threadIdentifier)
        writer.key("url")
        writer.string(notification.url)
        writer.endObject()
        writer.key("shown")
        writer.beginArray()
        for key in shown { writer.string(key) }
        writer.endArray()
        writer.key("dropped")
        writer.beginArray()
        for drop in dropped {
            writer.beginObject()
            writer.key("key")
            writer.string(drop.key)
            writer.key("reason")
            writer.string(drop.reason.rawValue)
            writer.endObject()
        }
        writer.endArray()
        writer.key("displayed")
        writer.beginArray()
        for entry in displayed {
            writer.beginObject()
            writer.key("key")
            writer.string(entry.key)
            writer.key("timestamp")
            writer.string(entry.timestamp.raw)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }
}
