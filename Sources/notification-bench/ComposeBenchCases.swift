import NotificationEngine

/// Compose workloads: a typical batch, and the largest request the service
/// accepts (1000 notifications, 10,000 displayed entries). The request is built
/// once outside the timed closure, so only `Composer.compose` is measured; the
/// closure returns a value derived from the result so it cannot be optimised away
/// (the body's length as composed: `notification` would make its `String`s).
func composeBenchCases() -> [BenchCase] {
    let typical = ComposeBenchRequests.make(notifications: 20, displayed: 50, threads: 1)
    let largest = ComposeBenchRequests.make(
        notifications: ComposeRequest.maxNotifications, displayed: ComposeRequest.maxDisplayedEntries, threads: 7
    )
    // The same request written in ru and ar (their catalogs, plural rules and isolation).
    var typicalRu = typical
    typicalRu.catalog = CatalogSet.builtIn.catalog(forLocale: "ru")!
    var typicalAr = typical
    typicalAr.catalog = CatalogSet.builtIn.catalog(forLocale: "ar")!
    return [
        BenchCase(name: "compose 20 pending") {
            let response = Composer.compose(typical)
            return response.shownIndices.count + response.entryIndices.count + bodyByteCount(response)
        },
        BenchCase(name: "compose (ru) 20 pending") {
            let response = Composer.compose(typicalRu)
            return response.shownIndices.count + response.entryIndices.count + bodyByteCount(response)
        },
        BenchCase(name: "compose (ar) 20 pending") {
            let response = Composer.compose(typicalAr)
            return response.shownIndices.count + response.entryIndices.count + bodyByteCount(response)
        },
        BenchCase(name: "compose 1000 pending + 10000 displayed") {
            let response = Composer.compose(largest)
            return response.records.count
        },
    ]
}

/// The UTF-8 length of `response`'s body, read where `Composer` wrote it.
private func bodyByteCount(_ response: ComposeResponse) -> Int {
    response.composedTexts.map { Int($0[.body].count) } ?? response.notification.body.utf8.count
}

enum ComposeBenchRequests {
    /// A deterministic request: notifications spread over the last 10 minutes
    /// (a few duplicates, read, stale and already displayed ones among them),
    /// Markdown texts of chat-message length, and `displayed` entries mostly
    /// fresh with a stale tail to prune.
    static func make(notifications count: Int, displayed displayedCount: Int, threads: Int) -> ComposeRequest {
        let base: Int64 = 1_795_953_600  // 2026-11-29T12:00:00Z
        func timestamp(_ secondsAgo: Int, nanos: Int = 0) -> Timestamp {
            let days = Int(base / 86_400)
            let clock = Int(base % 86_400) - secondsAgo
            let (h, m, s) = (clock / 3600, clock / 60 % 60, clock % 60)
            let two = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
            let fraction = nanos == 0 ? "" : "." + String(1_000_000_000 + nanos).dropFirst()
            precondition(days == 20_786 && clock >= 0)
            return Timestamp(rfc3339: "2026-11-29T\(two(h)):\(two(m)):\(two(s))\(fraction)Z")!
        }
        let names = ["Ana", "Ben Lima", "Cy", "Dee", "Eve\u{A0}Park", "Fox"]
        var notifications: [PendingNotification] = []
        for i in 0..<count {
            var n = PendingNotification(
                id: "\(i % (count - count / 50))", source: i % 3 == 0 ? "wiki" : "chat",
                type: i % 11 == 0 ? "thank" : "message",
                timestamp: timestamp((i * 7) % 700, nanos: i * 1_234_567 % 1_000_000_000),
                read: i % 29 == 0, thread: "thread-\(i % threads)", threadTitle: "Thread \(i % threads)",
                sender: .init(id: "user-\(i % 13)", name: names[i % names.count]),
                text: "Hello **team**, see [the notes](https://example.com/\(i)) and `code \(i)`\nsecond line",
                defaultText: "New activity", url: "buzz://m/\(i)"
            )
            if threads == 1 { n.type = "message" }
            notifications.append(n)
        }
        var displayed: [DisplayedEntry] = []
        for i in 0..<displayedCount {
            displayed.append(DisplayedEntry(key: "chat:old-\(i)", timestamp: timestamp(i % 900)))
        }
        for i in stride(from: 0, to: count, by: 17) {
            displayed.append(DisplayedEntry(key: (i % 3 == 0 ? "wiki:" : "chat:") + "\(i)", timestamp: timestamp(30)))
        }
        if displayed.count > displayedCount { displayed.removeLast(displayed.count - displayedCount) }
        return ComposeRequest(
            notifications: notifications, displayed: displayed, now: timestamp(0),
            maxAgeSeconds: ComposeRequest.defaultMaxAgeSeconds, recipient: "user-12"
        )
    }
}
