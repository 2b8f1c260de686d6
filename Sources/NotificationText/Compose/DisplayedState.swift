/// The caller's `displayed` entries, indexed once by key (code points): answers
/// the `displayed` drop and builds the next state to persist.
struct DisplayedState {
    private let entries: [DisplayedEntry]
    /// Per key, the index of its latest entry; at equal instants the first in
    /// request order, so the persisted text does not change between calls.
    private var latestByKey: [ExactString: Int]

    init(_ entries: [DisplayedEntry]) {
        self.entries = entries
        latestByKey = Dictionary(minimumCapacity: entries.count)
        for index in entries.indices {
            let key = ExactString(entries[index].key)
            // One hash per entry; a repeated key that is not later restores the kept one.
            if let kept = latestByKey.updateValue(index, forKey: key),
               !(entries[index].timestamp.instant > entries[kept].timestamp.instant) {
                latestByKey[key] = kept
            }
        }
    }

    /// Whether the caller has displayed `key` (any entry, fresh or not).
    func contains(_ key: ExactString) -> Bool {
        latestByKey[key] != nil
    }

    /// The next state: each key's latest entry when still fresh
    /// (`timestamp ≥ now − maxAgeSeconds`, the negation of `stale`), plus every
    /// shown notification; newest first, equal instants by key; at most
    /// `ComposeRequest.maxDisplayedOutput` entries.
    /// - Precondition: no shown key is in this state (such notifications are dropped as `displayed`).
    func next(shown: [DisplayedEntry], freshFrom: Instant) -> [DisplayedEntry] {
        // Positions below entries.count are request entries, the rest shown ones.
        var positions: [Int] = []
        positions.reserveCapacity(latestByKey.count + shown.count)
        for index in latestByKey.values where !(entries[index].timestamp.instant < freshFrom) {
            positions.append(index)
        }
        positions.append(contentsOf: entries.count..<(entries.count + shown.count))
        func entry(_ position: Int) -> DisplayedEntry {
            position < entries.count ? entries[position] : shown[position - entries.count]
        }
        let order = NewestFirst.order(
            count: positions.count,
            instant: { positions[$0] < entries.count ? entries[positions[$0]].timestamp.instant : shown[positions[$0] - entries.count].timestamp.instant },
            key: { positions[$0] < entries.count ? entries[positions[$0]].key : shown[positions[$0] - entries.count].key }
        )
        return order.prefix(ComposeRequest.maxDisplayedOutput).map { entry(positions[$0]) }
    }
}
