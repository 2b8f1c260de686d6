import NotificationText

extension ComposeResponse {
    /// The response of `compose-rules.md`, compact, members in the spec's order;
    /// absent values are `null`, never omitted.
    public func jsonBody() -> [UInt8] {
        // Written once into an array sized from the strings' lengths; only
        // when escapes make it longer than that, counted exactly and written again.
        if let bytes = JSONWriter.bytes(capacity: estimatedJSONCount(), { write(to: &$0) }) { return bytes }
        return JSONWriter.exactBytes({ write(to: &$0) }, { write(to: &$0) })
    }

    /// The length of the JSON when no string needs escapes, plus room for a
    /// few (a bundle body's line break needs one byte more). Only the strings'
    /// lengths are read; more escapes than that make `jsonBody` count exactly.
    func estimatedJSONCount() -> Int {
        // The longest fixed parts (kind, reason, member names, nulls,
        // brackets), and room for escapes.
        var count = 200 + 64
        count += notification.title.utf8.count + (notification.subtitle?.utf8.count ?? 0) + notification.body.utf8.count
        count += (notification.threadIdentifier?.utf8.count ?? 0) + (notification.url?.utf8.count ?? 0)
        // `"key",` per shown key; `{"key":"…","reason":"duplicate"},` per drop;
        // `{"key":"…","timestamp":"…"},` per displayed entry.
        for key in shown { count += 3 + key.utf8.count }
        for drop in dropped { count += 32 + drop.key.utf8.count }
        for entry in displayed { count += 28 + entry.key.utf8.count + entry.timestamp.raw.utf8.count }
        return count
    }

    private func write<Output: JSONOutput>(to out: inout Output) {
        out.raw(#"{"kind":"#)
        switch kind {
        case .single: out.raw(#""single""#)
        case .bundle: out.raw(#""bundle""#)
        case .summary: out.raw(#""summary""#)
        case .fallback: out.raw(#""fallback""#)
        }
        out.raw(#","reason":"#)
        switch reason {
        case nil: out.raw("null")
        case .failed?: out.raw(#""failed""#)
        case .timeout?: out.raw(#""timeout""#)
        case .empty?: out.raw(#""empty""#)
        }
        out.raw(#","notification":{"title":"#)
        out.quoted(notification.title)
        out.raw(#","subtitle":"#)
        out.quoted(notification.subtitle)
        out.raw(#","body":"#)
        out.quoted(notification.body)
        out.raw(#","threadIdentifier":"#)
        out.quoted(notification.threadIdentifier)
        out.raw(#","url":"#)
        out.quoted(notification.url)
        out.raw(#"},"shown":["#)
        for index in shown.indices {
            if index > 0 { out.raw(",") }
            out.quoted(shown[index])
        }
        out.raw(#"],"dropped":["#)
        for index in dropped.indices {
            out.raw(index > 0 ? #",{"key":"# : #"{"key":"#)
            out.quoted(dropped[index].key)
            switch dropped[index].reason {
            case .duplicate: out.raw(#","reason":"duplicate"}"#)
            case .read: out.raw(#","reason":"read"}"#)
            case .own: out.raw(#","reason":"own"}"#)
            case .stale: out.raw(#","reason":"stale"}"#)
            case .future: out.raw(#","reason":"future"}"#)
            case .displayed: out.raw(#","reason":"displayed"}"#)
            }
        }
        out.raw(#"],"displayed":["#)
        for index in displayed.indices {
            out.raw(index > 0 ? #",{"key":"# : #"{"key":"#)
            out.quoted(displayed[index].key)
            out.raw(#","timestamp":"#)
            out.quoted(displayed[index].timestamp.raw)
            out.raw("}")
        }
        out.raw("]}")
    }
}
