extension ComposeResponse {
    /// The response of `docs/spec/compose.md`, compact, members in the spec's
    /// order; absent values are `null`, never omitted. Keys and timestamps
    /// are copied from the bytes their ranges point into.
    /// With `push` (`Composer.push(for:response:)`), the answer has it as its `push` member.
    package func jsonBody(push: PushAnswer? = nil) -> [UInt8] {
        // Written once into an array sized from the strings' lengths; only
        // when escapes make it longer than that, written again at its exact size.
        // Read once: each read of `composedTexts` copies it out of the response.
        let texts = composedTexts
        return bytes.withUnsafeBufferPointer { bytes in
            JSONWriter.bytes(capacity: estimatedJSONCount(texts: texts) + (push?.estimatedJSONCount ?? 0)) {
                write(to: &$0, bytes: bytes, texts: texts, push: push)
            }
        }
    }

    /// The length of the JSON when no string needs escapes, plus room for a
    /// few (a bundle body's line break needs one byte more). Only the strings'
    /// lengths are read; more escapes than that make `jsonBody` write twice.
    func estimatedJSONCount() -> Int {
        estimatedJSONCount(texts: composedTexts)
    }

    /// `estimatedJSONCount()`, with `composedTexts` read already.
    private func estimatedJSONCount(texts: ComposedTexts?) -> Int {
        // The longest fixed parts (kind, reason, member names, nulls,
        // brackets), the notification's member names, and room for escapes.
        var count = 122 + AnswerMember.keysByteCount + 64 + 20 + locale.utf8.count
        if let texts {
            count += texts.bytes.count
        } else {
            let notification = notification
            AnswerMember.forEach { count += notification[$0]?.utf8.count ?? 0 }
        }
        // `"key",` per shown key; `{"key":"…","reason":"duplicate"},` per drop;
        // `{"key":"…","timestamp":"…","group":"…"},` per displayed entry.
        for index in shownIndices { count += 3 + Int(records[index].key.count) }
        for index in dropIndices { count += 32 + Int(records[index].key.count) }
        let answerGroup = 40 + groupKey.utf8.count
        for index in entryIndices {
            let record = records[index]
            count += Int(record.key.count) + Int(record.timestamp.count)
            count += record.hasAnswerGroup ? answerGroup : 40 + Int(record.group.count)
        }
        // `,"digest":"…","alerted":"…","direct":false` per entry, with `push`.
        for extras in entryExtras { count += 58 + Int(extras.alerted.count) }
        return count
    }

    private func write(
        to out: inout JSONWriter, bytes: UnsafeBufferPointer<UInt8>, texts: ComposedTexts?, push: PushAnswer?
    ) {
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
        out.raw(#","notification":"#)
        if let texts {
            texts.bytes.withUnsafeBufferPointer { writeNotification(texts, from: $0, to: &out) }
        } else {
            writeNotification(answerNotification, to: &out)
        }
        writeRecords(from: bytes, to: &out)
        out.raw(#"],"locale":"#)
        out.string(locale)
        out.raw(direction == .rtl ? #","direction":"rtl""# : #","direction":"ltr""#)
        if let push {
            out.raw(#","push":"#)
            push.write(to: &out)
        }
        out.raw("}")
    }

    /// `"shown":[…],"dropped":[…],"displayed":[…]` from `records`, their
    /// keys and timestamps ranges of `bytes`.
    private func writeRecords(from bytes: UnsafeBufferPointer<UInt8>, to out: inout JSONWriter) {
        let (shownStart, dropStart, entryStart) = (
            shownIndices.lowerBound, dropIndices.lowerBound, entryIndices.lowerBound
        )
        out.raw(#","shown":["#)
        // Keys and timestamps that need no escapes (nearly all) are written
        // each as one record, room for it checked once; a key that needs
        // escapes, or a record past the estimate, as JSON strings.
        for index in shownIndices {
            let key = bytes[present: records[index].key]
            if out.hasRoom(for: 3 + key.count), JSONWriter.needsNoEscape(key) {
                if index > shownStart { out.rawInRoom(#",""#) } else { out.rawInRoom(#"""#) }
                out.rawInRoom(key)
                out.rawInRoom(#"""#)
            } else {
                if index > shownStart { out.raw(",") }
                out.string(key)
            }
        }
        out.raw(#"],"dropped":["#)
        for index in dropIndices {
            let key = bytes[present: records[index].key]
            // The key's closing quote comes with its reason.
            if out.hasRoom(for: 9 + key.count), JSONWriter.needsNoEscape(key) {
                if index > dropStart { out.rawInRoom(#",{"key":""#) } else { out.rawInRoom(#"{"key":""#) }
                out.rawInRoom(key)
            } else {
                out.raw(index > dropStart ? #",{"key":""# : #"{"key":""#)
                out.escaped(key)
            }
            switch records[index].reason {
            case .duplicate: out.raw(#"","reason":"duplicate"}"#)
            case .read: out.raw(#"","reason":"read"}"#)
            case .own: out.raw(#"","reason":"own"}"#)
            case .stale: out.raw(#"","reason":"stale"}"#)
            case .future: out.raw(#"","reason":"future"}"#)
            }
        }
        out.raw(#"],"displayed":["#)
        var answerGroup = groupKey
        var answerDigest: [UInt8] = []
        let hasExtras = !entryExtras.isEmpty
        if hasExtras { textDigest.appendHex(to: &answerDigest) }
        // Every entry made from a kept key records the answer's digest and
        // the same `alerted`: the first entry's, up to its `direct`, is
        // copied for the others from where it was written.
        let sharedAlerted = entryExtras.first.map { $0.isAnswerDigest ? $0.alerted : .absent } ?? .absent
        var shared = 0..<0
        answerGroup.withUTF8 { answerGroup in
            for index in entryIndices {
                let entry = records[index]
                // A timestamp is RFC 3339 text as `Timestamp` parses it (digits
                // and `-:.+TtZz`), and a group a valid group key (visible
                // ASCII without `"` or `\`): nothing to escape in either.
                let timestamp = bytes[present: entry.timestamp]
                assert(JSONWriter.needsNoEscape(timestamp), "a timestamp that was never parsed")
                let group = entry.hasAnswerGroup ? answerGroup : bytes[entry.group]
                if let key = bytes[entry.key],
                    out.hasRoom(for: 9 + key.count + 15 + timestamp.count + 12 + (group?.count ?? 4) + 2),
                    JSONWriter.needsNoEscape(key)
                {
                    if index > entryStart { out.rawInRoom(#",{"key":""#) } else { out.rawInRoom(#"{"key":""#) }
                    out.rawInRoom(key)
                    out.rawInRoom(#"","timestamp":""#)
                    out.rawInRoom(timestamp)
                    if let group {
                        out.rawInRoom(#"","group":""#)
                        out.rawInRoom(group)
                        if hasExtras { out.rawInRoom(#"""#) } else { out.rawInRoom(#""}"#) }
                    } else if hasExtras {
                        out.rawInRoom(#"","group":null"#)
                    } else {
                        out.rawInRoom(#"","group":null}"#)
                    }
                } else {
                    out.raw(index > entryStart ? #",{"key":"# : #"{"key":"#)
                    if let key = bytes[entry.key] { out.string(key) } else { out.null() }
                    out.raw(#","timestamp":""#)
                    out.raw(timestamp)
                    if let group {
                        out.raw(#"","group":""#)
                        out.raw(group)
                        out.raw(hasExtras ? #"""# : #""}"#)
                    } else {
                        out.raw(hasExtras ? #"","group":null"# : #"","group":null}"#)
                    }
                }
                if hasExtras {
                    let extras = entryExtras[index - entryStart]
                    if extras.isAnswerDigest && extras.alerted == sharedAlerted {
                        if shared.isEmpty {
                            let start = out.count
                            writeExtras(extras, answerDigest: answerDigest, from: bytes, upToDirect: true, to: &out)
                            shared = start..<out.count
                        } else {
                            out.rawAgain(shared)
                        }
                        switch extras.direct {
                        case 0: out.raw("false}")
                        case 1: out.raw("true}")
                        default: out.raw("null}")
                        }
                    } else {
                        writeExtras(extras, answerDigest: answerDigest, from: bytes, to: &out)
                        out.raw("}")
                    }
                }
            }
        }
    }

    /// An entry's `digest`, `alerted` and `direct` (compose.md C10), each
    /// after a comma: a digest and a timestamp have nothing to escape.
    /// `upToDirect` stops after `,"direct":`.
    private func writeExtras(
        _ extras: EntryExtras, answerDigest: [UInt8], from bytes: UnsafeBufferPointer<UInt8>,
        upToDirect: Bool = false, to out: inout JSONWriter
    ) {
        if extras.isAnswerDigest {
            out.raw(#","digest":""#)
            answerDigest.withUnsafeBufferPointer { out.raw($0) }
            out.raw(#"""#)
        } else if let digest = bytes[extras.digest] {
            out.raw(#","digest":""#)
            out.raw(digest)
            out.raw(#"""#)
        } else {
            out.raw(#","digest":null"#)
        }
        if let alerted = bytes[extras.alerted] {
            out.raw(#","alerted":""#)
            out.raw(alerted)
            out.raw(#"""#)
        } else {
            out.raw(#","alerted":null"#)
        }
        if upToDirect { return out.raw(#","direct":"#) }
        switch extras.direct {
        case 0: out.raw(#","direct":false"#)
        case 1: out.raw(#","direct":true"#)
        default: out.raw(#","direct":null"#)
        }
    }

    /// The `notification` object of texts `Composer` wrote, from their bytes.
    private func writeNotification(
        _ texts: ComposedTexts, from bytes: UnsafeBufferPointer<UInt8>, to out: inout JSONWriter
    ) {
        out.raw("{")
        AnswerMember.forEach { member in
            if member.rawValue > 0 { out.raw(",") }
            out.raw(member.key)
            var text = bytes[texts[member]]
            if member.isDerived { text = AnswerMember.derived(member, copied: text, transition: transition) }
            if let text { out.string(text) } else { out.null() }
        }
        out.raw("}")
    }

    /// The `notification` object of texts set as `String`s.
    private func writeNotification(_ notification: Content, to out: inout JSONWriter) {
        out.raw("{")
        AnswerMember.forEach { member in
            if member.rawValue > 0 { out.raw(",") }
            out.raw(member.key)
            out.string(notification[member])
        }
        out.raw("}")
    }
}
