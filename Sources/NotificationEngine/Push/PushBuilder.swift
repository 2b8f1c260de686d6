/// Builds the `push` member of a compose answer (push.md) from the request
/// and the answer of its preview tier: a pure function of the two, run only
/// when the request has a `push` member.
enum PushBuilder {
    /// The answer's `push`, its payloads fitted.
    /// - Parameter kept: the request's notification records of `response.shown`, newest first.
    static func answer(
        _ options: PushOptions, request: ComposeRequest, response: ComposeResponse, kept: [Int]
    ) -> PushAnswer {
        let notification = response.notification
        // P3 to P5.
        let source = notification.threadIdentifier ?? "fallback"
        let groupKey = groupKey(of: source)
        // P6 to P8: the anchor's whole seconds are its floor (fractions are not negative).
        let maxAge = Int64(request.maxAgeSeconds)
        let nowSeconds = request.nowMoment.epochSeconds
        let anchorSeconds =
            kept.first.map { request.notificationRecords[$0].moment.epochSeconds } ?? nowSeconds
        let expiration = anchorSeconds + maxAge
        var answer = PushAnswer(
            send: !(response.kind == .fallback && response.reason == .empty),
            withdraw: withdrawn(request), groupKey: groupKey, topic: digest(source),
            priorityClass: priorityClass(response.kind, request: request, kept: kept),
            expirationSeconds: expiration, ttlSeconds: max(expiration - nowSeconds, 0), badge: options.badge,
            androidChannel: options.androidChannel, kind: response.kind, locale: response.locale,
            direction: response.direction,
            apns: .init(texts: .init(title: "", subtitle: nil, body: "", url: nil), cut: [], byteCount: 0),
            fcm: .init(texts: .init(title: "", subtitle: nil, body: "", url: nil), cut: [], byteCount: 0),
            webpush: .init(texts: .init(title: "", subtitle: nil, body: "", url: nil), cut: [], byteCount: 0))
        let texts = PushAnswer.Texts(
            title: notification.title, subtitle: notification.subtitle, body: notification.body, url: notification.url)
        for transport in PushAnswer.Transport.allCases {
            answer[transport] = PushFit.fit(
                texts, limitBytes: transport.limitBytes - options.reserveBytes, transport: transport, in: answer)
        }
        return answer
    }

    /// P2: the keys of read notifications that are in `displayed`, once each, in request order.
    static func withdrawn(_ request: ComposeRequest) -> [String] {
        guard request.fetch == .ok, !request.displayedRecords.isEmpty else { return [] }
        return request.bytes.withUnsafeBufferPointer { bytes in
            var displayedKeys: Set<[UInt8]> = []
            for entry in request.displayedRecords { displayedKeys.insert(Array(bytes[present: entry.key])) }
            var seen: Set<[UInt8]> = []
            var keys: [String] = []
            for record in request.notificationRecords where record.read {
                let key = Array(bytes[present: record.key])
                if displayedKeys.contains(key), seen.insert(key).inserted {
                    keys.append(String(decoding: key, as: UTF8.self))
                }
            }
            return keys
        }
    }

    /// P9.
    static func priorityClass(_ kind: ComposeResponse.Kind, request: ComposeRequest, kept: [Int])
        -> PushAnswer.PriorityClass
    {
        if kind == .fallback { return .fallback }
        let isDirect = request.bytes.withUnsafeBufferPointer { bytes in
            kept.contains { index in
                guard let type = bytes[request.notificationRecords[index].type] else { return false }
                return type.elementsEqual("mention".utf8) || type.elementsEqual("reply".utf8)
            }
        }
        if isDirect { return .direct }
        if kind == .bundle || (kind == .single && kept.first.map { request.notificationRecords[$0].isMessage } == true)
        {
            return .message
        }
        return .other
    }

    // MARK: Keys

    /// G of P4: `source` itself when it is 1…64 bytes of visible ASCII
    /// other than `"` and `\`; its digest otherwise.
    static func groupKey(of source: String) -> String {
        let utf8 = source.utf8
        let isPlain =
            (1...64).contains(utf8.count)
            && utf8.allSatisfy { (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        return isPlain ? source : digest(source)
    }

    /// H of P4: the first 24 bytes of SHA-256 of the UTF-8, in base64url without padding (32 characters).
    static func digest(_ source: String) -> String {
        base64URL(SHA256.digest(source.utf8).prefix(24))
    }

    /// RFC 4648 section 5, without padding.
    static func base64URL(_ bytes: some Collection<UInt8>) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            out.append(alphabet[Int(group >> 18 & 63)])
            out.append(alphabet[Int(group >> 12 & 63)])
            if second != nil { out.append(alphabet[Int(group >> 6 & 63)]) }
            if third != nil { out.append(alphabet[Int(group & 63)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
