/// Builds the `push` member of a compose answer (push.md) from the request
/// and the answer of its preview tier: a pure function of the two, run only
/// when the request has a `push` member.
package enum PushBuilder {
    /// The answer's `push`, its payloads fitted; `shapes`, when given,
    /// keeps the last topic worked out (`KeptShapes.topic(of:)`).
    static func answer(
        _ options: PushOptions, request: ComposeRequest, response: ComposeResponse, kept: Composer.KeptFacts,
        shapes: KeptShapes?
    ) -> PushAnswer {
        // The members the payloads carry, each made a `String` alone.
        // P3 to P5: the topic is the digest of the group source.
        let source = response.text(.threadIdentifier) ?? Composer.fallbackGroupKey
        let topic = shapes?.topic(of: source) ?? digest(source)
        // G of compose.md C14, which the composer worked out for the next state.
        let groupKey = response.groupKey
        // P6 to P8: the anchor's whole seconds are its floor (fractions are not negative).
        let maxAge = Int64(request.maxAgeSeconds)
        let nowSeconds = request.nowMoment.epochSeconds
        let anchorSeconds = kept.newest.map { request.notificationRecords[$0].moment.epochSeconds } ?? nowSeconds
        let expiration = anchorSeconds + maxAge
        let texts = PushAnswer.Texts(
            title: response.text(.title) ?? "", subtitle: response.text(.subtitle), body: response.text(.body) ?? "",
            url: response.text(.url))
        // compose.md C16: a fallback's is normal, whatever it covered.
        let importance = response.kind == .fallback ? .normal : importance(request: request, response: response)
        let priorityClass = priorityClass(response.kind, importance: importance, request: request, kept: kept)
        // S1 to S3, which the composer worked out beside the answer (for every request with `push`).
        let transition = response.transition ?? ComposeResponse.Transition(send: false, alert: false, withdraw: [])
        let ttlSeconds = max(expiration - nowSeconds, 0)
        // P22: the relay's stamp, or ⌊now⌋ in milliseconds.
        let now = request.nowMoment
        let stamp = options.stamp ?? now.epochSeconds * 1000 + Int64(now.nanoseconds / 1_000_000)
        // P23; the decoder and the library never give `declarative` without `navigate`.
        let declarative = options.webPush == .declarative && options.navigate != nil
        let webPushFormat: PushOptions.WebPushFormat = declarative ? .declarative : .classic
        let fields = PushAnswer.PayloadFields(
            priorityClass: priorityClass, expirationSeconds: expiration, ttlSeconds: ttlSeconds,
            badge: options.badge, kind: response.kind, direction: response.direction,
            alert: transition.alert, webPushFormat: webPushFormat, mutable: options.mutable)
        // P24: the sender and the conversation, and the answer's importance (P9).
        let identity = PushIdentity(request: request, response: response, newest: kept.newest, groupKey: groupKey)
        // The strings as JSON, once: the texts' costs are their lengths, and
        // each payload is measured from them (P17: its fixed part and the
        // texts' costs); one past its limit is cut once the answer is made.
        let written = PushAnswer.WrittenStrings.of(
            texts, groupKey: groupKey, topic: topic, locale: response.locale,
            androidChannel: options.androidChannel, navigate: declarative ? options.navigate : nil, stamp: stamp,
            identity: identity)
        // P23: a declarative payload carries a url only when it is navigable,
        // in `navigate`, where it takes the place of the app URL.
        let webDropsURL = declarative && texts.url.map { !PushOptions.hasNavigableForm($0) } == true
        let (costs, navigateCost, byteCounts) = written.withStrings { strings in
            var webStrings = strings
            if webDropsURL { webStrings.url = nil }
            let byteCounts = (
                apns: fields.byteCount(.apns, strings), fcm: fields.byteCount(.fcm, strings),
                webpush: fields.byteCount(.webpush, webStrings)
            )
            return (PushFit.Costs(strings), strings.navigate.map { $0.count - 2 } ?? 0, byteCounts)
        }
        var web = PushAnswer.Payload(cutTexts: nil, cut: [], byteCount: byteCounts.webpush)
        if webDropsURL {
            web.cutTexts = texts
            web.cutTexts?.url = nil
        }
        // Made whole and returned as made: an answer changed after it is
        // made is copied out and destroyed, not moved.
        let answer = PushAnswer(
            texts: texts, send: transition.send, alert: transition.alert,
            heldUntil: transition.held ? options.activeUntil : nil, withdraw: transition.withdraw,
            stamp: stamp, nowSeconds: nowSeconds,
            groupKey: groupKey, topic: topic, priorityClass: priorityClass,
            expirationSeconds: expiration, ttlSeconds: ttlSeconds, badge: options.badge,
            androidChannel: options.androidChannel, kind: response.kind, locale: response.locale,
            direction: response.direction, webPushFormat: webPushFormat, navigate: options.navigate,
            mutable: options.mutable, identity: identity,
            importance: importance,
            apns: PushAnswer.Payload(cutTexts: nil, cut: [], byteCount: byteCounts.apns),
            fcm: PushAnswer.Payload(cutTexts: nil, cut: [], byteCount: byteCounts.fcm), webpush: web,
            writtenStrings: written)
        let reserveBytes = options.reserveBytes
        guard
            byteCounts.apns > PushAnswer.Transport.apns.limitBytes - reserveBytes
                || byteCounts.fcm > PushAnswer.Transport.fcm.limitBytes - reserveBytes
                || byteCounts.webpush > PushAnswer.Transport.webpush.limitBytes - reserveBytes
        else { return answer }
        var fcmCosts = costs
        fcmCosts.identity = identity.data.count
        var apnsCosts = costs
        apnsCosts.identity = identity.objects.count
        var webCosts = apnsCosts
        if webDropsURL {
            webCosts.url = 0
        } else if declarative, texts.url != nil {
            webCosts.url = costs.url - PushFit.urlMemberBytes - navigateCost
        }
        var fitted = answer
        fitted.fitPayloads(costs: apnsCosts, fcmCosts: fcmCosts, webCosts: webCosts, reserveBytes: reserveBytes)
        return fitted
    }

    /// P9.
    static func priorityClass(
        _ kind: ComposeResponse.Kind, importance: Importance, request: ComposeRequest, kept: Composer.KeptFacts
    ) -> PushAnswer.PriorityClass {
        if kind == .fallback { return .fallback }
        switch importance {
        case .high: return .urgent
        case .low: return .low
        case .normal: break
        }
        if kept.hasDirect { return .direct }
        if kind == .bundle || (kind == .single && kept.newest.map { request.notificationRecords[$0].isMessage } == true)
        {
            return .message
        }
        return .other
    }

    /// The answer's importance (P9): `high` when a kept notification is
    /// `high`, `low` when every one is `low`, `normal` otherwise. Only the
    /// notifications that give one are looked up among the shown keys.
    static func importance(request: ComposeRequest, response: ComposeResponse) -> Importance {
        let shown = response.shownIndices
        guard !shown.isEmpty else { return .normal }
        var sortedStarts: [Int32]? = nil
        var lows = 0
        return request.bytes.withUnsafeBufferPointer { bytes in
            for record in request.notificationRecords where !record.ranges[.importance].isAbsent {
                let importance = Importance.of(bytes[record.ranges[.importance]])
                if importance == .normal { continue }
                if sortedStarts == nil { sortedStarts = shown.map { response.records[$0].key.start }.sorted() }
                guard Composer.KeptFacts.contains(sortedStarts!, record.key.start) else { continue }
                if importance == .high { return .high }
                lows += 1
            }
            return lows == shown.count ? .low : .normal
        }
    }

    // MARK: Keys

    /// G of P4: `source` itself when it is 1…64 bytes of visible ASCII
    /// other than `"` and `\`; its digest otherwise.
    static func groupKey(of source: String) -> String {
        isPlainGroupKey(source) ? source : digest(source)
    }

    /// Whether `source` is its own group key: 1…64 bytes of U+0021…U+007E, no `"` or `\\`.
    package static func isPlainGroupKey(_ source: String) -> Bool {
        var source = source
        return source.withUTF8 { isPlainGroupKey($0) }
    }

    /// `isPlainGroupKey(_:)` of UTF-8.
    static func isPlainGroupKey(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard (1...64).contains(utf8.count) else { return false }
        for byte in utf8
        where byte < 0x21 || byte > 0x7E || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            return false
        }
        return true
    }

    /// H of P4: the first 24 bytes of SHA-256 of the UTF-8, in base64url without padding (32 characters).
    static func digest(_ source: String) -> String {
        var source = source
        return source.withUTF8 { digest($0) }
    }

    /// `digest(_:)` of UTF-8.
    static func digest(_ utf8: UnsafeBufferPointer<UInt8>) -> String {
        SHA256.withDigest(of: utf8) { base64URL(UnsafeBufferPointer(rebasing: $0[0..<24])) }
    }

    /// RFC 4648 section 5, without padding.
    static func base64URL(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
        let letters = UnsafeBufferPointer(start: alphabet.utf8Start, count: 64)
        return String(unsafeUninitializedCapacity: (bytes.count * 4 + 2) / 3) { out in
            var written = 0
            var index = 0
            while index < bytes.count {
                let remaining = bytes.count - index
                let group =
                    UInt32(bytes[index]) << 16 | (remaining > 1 ? UInt32(bytes[index + 1]) << 8 : 0)
                    | (remaining > 2 ? UInt32(bytes[index + 2]) : 0)
                out[written] = letters[Int(group >> 18 & 63)]
                out[written + 1] = letters[Int(group >> 12 & 63)]
                written += 2
                if remaining > 1 {
                    out[written] = letters[Int(group >> 6 & 63)]
                    written += 1
                }
                if remaining > 2 {
                    out[written] = letters[Int(group & 63)]
                    written += 1
                }
                index += 3
            }
            return written
        }
    }
}
