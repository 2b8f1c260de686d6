extension PushAnswer {
    /// The `push` object of push.md section 2, compact, members in the spec's
    /// order: `send`, `alert`, `heldUntil`, `group`, `stamp`, `withdraw`, `apns`, `fcm`, `webpush`,
    /// `withdrawal`, `cut`.
    func write(to out: inout JSONWriter) {
        switch (send, alert) {
        case (true, true): out.raw(#"{"send":true,"alert":true,"heldUntil":"#)
        case (true, false): out.raw(#"{"send":true,"alert":false,"heldUntil":"#)
        case (false, _): out.raw(#"{"send":false,"alert":false,"heldUntil":"#)
        }
        if let heldUntil { out.string(heldUntil.raw) } else { out.null() }
        out.raw(#","group":"#)
        out.string(groupKey)
        out.raw(#","stamp":"#)
        out.integer(stamp)
        out.raw(#","withdraw":["#)
        for (index, key) in withdraw.enumerated() {
            if index > 0 { out.raw(",") }
            out.string(key)
        }
        // Each transport's headers and payload, from strings written as JSON
        // once: for all three when no payload was cut (nearly always), the
        // builder's.
        let fields = payloadFields
        if apns.cutTexts == nil && fcm.cutTexts == nil && webpush.cutTexts == nil {
            writtenStrings.withStrings { strings in
                fields.writeTransport(.apns, strings, to: &out)
                fields.writeTransport(.fcm, strings, to: &out)
                fields.writeTransport(.webpush, strings, to: &out)
            }
        } else {
            for transport in [Transport.apns, .fcm, .webpush] {
                withJSONStrings(of: texts(transport)) { fields.writeTransport(transport, $0, to: &out) }
            }
        }
        writeWithdrawal(to: &out)
        writeCut(apns.cut, to: &out)
        out.raw(#","fcm":"#)
        writeCut(fcm.cut, to: &out)
        out.raw(#","webpush":"#)
        writeCut(webpush.cut, to: &out)
        switch importance {
        case .low: out.raw(#"},"importance":"low","sender":"#)
        case .normal: out.raw(#"},"importance":"normal","sender":"#)
        case .high: out.raw(#"},"importance":"high","sender":"#)
        }
        if let sender = identity.sender { sender.withUnsafeBufferPointer { out.raw($0) } } else { out.null() }
        out.raw(#","conversation":"#)
        if let conversation = identity.conversation {
            conversation.withUnsafeBufferPointer { out.raw($0) }
        } else {
            out.null()
        }
        out.raw("}")
    }

    /// The bytes `write(to:)` takes when no header or key needs an escape
    /// (the headers are ASCII without escapes, the keys nearly always).
    var estimatedJSONCount: Int {
        var count = 460 + apns.byteCount + fcm.byteCount + webpush.byteCount + 3 * groupKey.utf8.count
        count += 16 + (heldUntil?.raw.utf8.count ?? 0)
        count += 64 + identity.objects.count
        count += 220 + 3 * withdrawalEstimate
        for key in withdraw { count += 3 + key.utf8.count }
        return count
    }

    private func writeCut(_ fields: [Field], to out: inout JSONWriter) {
        out.raw("[")
        for (index, field) in fields.enumerated() {
            if index > 0 { out.raw(",") }
            switch field {
            case .title: out.raw(#""title""#)
            case .subtitle: out.raw(#""subtitle""#)
            case .body: out.raw(#""body""#)
            case .url: out.raw(#""url""#)
            case .identity: out.raw(#""identity""#)
            }
        }
        out.raw("]")
    }
}

extension PushAnswer.PayloadFields {
    /// From the end of what comes before `transport` to the end of its
    /// payload: its member name, its headers (the headers as `apnsHeaders`
    /// and `webPushHeaders` list them, written in place) and its payload.
    func writeTransport(_ transport: PushAnswer.Transport, _ strings: PushAnswer.JSONStrings, to out: inout JSONWriter)
    {
        switch transport {
        case .apns:
            out.raw(#"],"apns":{"headers":{"apns-push-type":"alert","apns-priority":""#)
            out.raw(priorityClass.isQuiet ? "5" : "10")
            out.raw(#"","apns-expiration":""#)
            out.integer(max(expirationSeconds, 0))
            out.raw(#"","apns-collapse-id":"#)
            out.raw(strings.groupKey)
            out.raw(#"},"payload":"#)
        case .fcm:
            out.raw(#"},"fcm":{"message":"#)
        case .webpush:
            out.raw(#"},"webpush":{"headers":{"TTL":""#)
            out.integer(ttlSeconds)
            out.raw(#"","Urgency":""#)
            switch priorityClass {
            case .urgent, .direct: out.raw("high")
            case .message, .other: out.raw("normal")
            case .fallback, .low: out.raw("low")
            }
            out.raw(#"","Topic":"#)
            out.raw(strings.topic)
            out.raw(#"},"payload":"#)
        }
        write(transport, strings, to: &out)
    }
}
