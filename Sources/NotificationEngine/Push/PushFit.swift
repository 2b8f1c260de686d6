/// The fit of push.md section 7 (P13 to P17): a payload that would pass its
/// limit has its url left out and its texts cut, by exact byte costs, on
/// grapheme-cluster boundaries (Swift's `Character`), each cut ending in "…".
package enum PushFit {
    /// A text is not cut below this many bytes before the next one is (P15).
    package static let textFloorBytes = 256
    /// The url stays while the body keeps at least this many bytes beside it (P14).
    package static let urlBodyFloorBytes = 1024
    /// `,"url":""`: what a url adds besides its own cost.
    static let urlMemberBytes = 9

    /// The bytes `byte` takes inside a JSON string written by P20 (a UTF-8
    /// byte of a non-ASCII scalar counts 1, so a string's cost is the sum
    /// over its bytes).
    @inline(__always)
    package static func cost(ofByte byte: UInt8) -> Int {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x08, 0x09, 0x0A, 0x0C, 0x0D: 2
        case 0..<0x20: 6
        default: 1
        }
    }

    /// The costs of a payload's texts, the same for every transport.
    struct Costs {
        let title: Int
        /// 0 for none.
        let subtitle: Int
        let body: Int
        /// What the url adds to the payload written without it: `urlMemberBytes`
        /// and its cost, or in a declarative Web Push payload its cost less
        /// the app URL's it replaces in `navigate` (negative when shorter); 0 for none.
        var url: Int
        /// What the identity adds (P24): its members as the transport writes them; 0 for none.
        var identity = 0

        /// The costs of texts written as `strings`: each its JSON string less the quotes.
        init(_ strings: PushAnswer.JSONStrings) {
            title = strings.title.count - 2
            subtitle = strings.subtitle.map { $0.count - 2 } ?? 0
            body = strings.body.count - 2
            url = strings.url.map { PushFit.urlMemberBytes + $0.count - 2 } ?? 0
        }
    }

    /// `text` cut to `roomBytes` (P16): the longest prefix of whole grapheme
    /// clusters whose cost plus 3 fits, less trailing spaces, tabs and line
    /// feeds (each a cluster of its own), then "…".
    /// - Important: cuts only at `Character` boundaries.
    package static func cut(_ text: String, toRoom roomBytes: Int) -> String {
        var used = 0
        var end = text.startIndex
        var index = text.startIndex
        let utf8 = text.utf8
        while index < text.endIndex {
            let next = text.index(after: index)
            var clusterCost = 0
            for byte in utf8[index..<next] { clusterCost &+= cost(ofByte: byte) }
            guard used + clusterCost + 3 <= roomBytes else { break }
            used += clusterCost
            index = next
            end = next
        }
        var kept = text[..<end]
        while let last = kept.last, last == " " || last == "\t" || last == "\n" { kept = kept.dropLast() }
        return String(kept) + "…"
    }

    /// The payload of `transport` in `answer`, from its uncut `texts`, within
    /// `limitBytes` (the transport's limit less `reserveBytes`).
    /// `costs` are those of `texts`. The payload's size is its fixed part
    /// (S0, `fixedBytes`: the payload with empty texts and no url) plus the
    /// texts' costs.
    static func fit(
        texts: PushAnswer.Texts, costs: Costs, fixedBytes: Int, limitBytes: Int, transport: PushAnswer.Transport,
        in answer: PushAnswer
    ) -> PushAnswer.Payload {
        let whole = fixedBytes + costs.title + costs.subtitle + costs.body + costs.url + costs.identity
        if whole <= limitBytes {
            return PushAnswer.Payload(cutTexts: texts == answer.texts ? nil : texts, cut: [], byteCount: whole)
        }

        let room = limitBytes - fixedBytes
        let (titleCost, subtitleCost, bodyCost) = (costs.title, costs.subtitle, costs.body)
        var urlCost = costs.url
        var fitted = texts
        var cutURL = false
        // P14: the url, whole or not at all.
        if texts.url != nil && titleCost + subtitleCost + min(bodyCost, urlBodyFloorBytes) + urlCost > room {
            fitted.url = nil
            cutURL = true
            urlCost = 0
        }
        // P24: the identity, beside the url, whole or not at all.
        var identityCost = costs.identity
        var cutIdentity = false
        if identityCost > 0
            && titleCost + subtitleCost + min(bodyCost, urlBodyFloorBytes) + urlCost + identityCost > room
        {
            fitted.identity = false
            cutIdentity = true
            identityCost = 0
        }
        let textRoom = room - urlCost - identityCost

        // P15: body, subtitle, title; the first whose room reaches its floor ends the walk.
        var order: [(field: PushAnswer.Field, cost: Int)] = [(.body, bodyCost)]
        if texts.subtitle != nil { order.append((.subtitle, subtitleCost)) }
        order.append((.title, titleCost))
        let floors = order.map { min($0.cost, textFloorBytes) }
        var rooms: [Int]? = nil
        for step in order.indices {
            let after = order[(step + 1)...].reduce(0) { $0 + $1.cost }
            let before = floors[..<step].reduce(0, +)
            let stepRoom = textRoom - after - before
            if stepRoom >= floors[step] {
                rooms = Array(floors[..<step]) + [stepRoom] + order[(step + 1)...].map { $0.cost }
                break
            }
        }
        // push.md P15: the fixed part is small enough that some step always ends the walk.
        guard let rooms else { preconditionFailure("push fit: the fixed part leaves no room for the texts' floors") }

        var cutFields: Set<PushAnswer.Field> = cutURL ? [.url] : []
        if cutIdentity { cutFields.insert(.identity) }
        for (step, entry) in order.enumerated() where entry.cost > rooms[step] {
            cutFields.insert(entry.field)
            switch entry.field {
            case .body: fitted.body = cut(texts.body, toRoom: rooms[step])
            case .subtitle: fitted.subtitle = texts.subtitle.map { cut($0, toRoom: rooms[step]) }
            case .title: fitted.title = cut(texts.title, toRoom: rooms[step])
            case .url, .identity: break
            }
        }
        let byteCount = answer.byteCount(transport, texts: fitted)
        precondition(byteCount <= limitBytes, "push fit: a fitted payload is over its limit")
        return PushAnswer.Payload(
            cutTexts: fitted, cut: PushAnswer.Field.allCases.filter(cutFields.contains), byteCount: byteCount)
    }
}

extension PushAnswer {
    /// Cuts each payload that passes its limit less `reserveBytes` (P13 to
    /// P17); each `byteCount` is its payload's size with its uncut texts
    /// (`texts(_:)`), whose costs are `costs`, or `webCosts` for Web Push.
    /// Nearly always none does, and nothing is stored or copied (the answer
    /// is, lent to `fit`).
    mutating func fitPayloads(
        costs: PushFit.Costs, fcmCosts: PushFit.Costs, webCosts: PushFit.Costs, reserveBytes: Int
    ) {
        func isOver(_ transport: Transport, _ byteCount: Int) -> Bool {
            byteCount > transport.limitBytes - reserveBytes
        }
        func fitted(_ transport: Transport, _ costs: PushFit.Costs) -> Payload {
            let textBytes = costs.title + costs.subtitle + costs.body + costs.url + costs.identity
            return PushFit.fit(
                texts: texts(transport), costs: costs, fixedBytes: self[transport].byteCount - textBytes,
                limitBytes: transport.limitBytes - reserveBytes, transport: transport, in: self)
        }
        if isOver(.apns, apns.byteCount) { apns = fitted(.apns, costs) }
        if isOver(.fcm, fcm.byteCount) { fcm = fitted(.fcm, fcmCosts) }
        if isOver(.webpush, webpush.byteCount) { webpush = fitted(.webpush, webCosts) }
    }
}
