extension Composer {
    /// The next `displayed` state: the previous entries that are still fresh
    /// (`timestamp ≥ now − maxAgeSeconds`, the negation of `stale`) plus every
    /// shown notification; one entry per key (code points), the latest instant
    /// winning; newest first, equal instants by key; at most
    /// `ComposeRequest.maxDisplayedOutput` entries.
    ///
    /// When one key has several entries at the same instant written differently
    /// (only possible inside the caller's own `displayed`, since a shown key is
    /// never in it), the first in request order is kept, so the persisted text
    /// does not change from one call to the next.
    static func nextDisplayed(previous: [DisplayedEntry], shown: [DisplayedEntry], freshFrom: Instant) -> [DisplayedEntry] {
        var entries: [DisplayedEntry] = []
        entries.reserveCapacity(previous.count + shown.count)
        var indexByKey = [ExactString: Int](minimumCapacity: previous.count + shown.count)
        for entry in [previous, shown].joined() where !(entry.timestamp.instant < freshFrom) {
            let key = ExactString(entry.key)
            if let index = indexByKey[key] {
                if entry.timestamp.instant > entries[index].timestamp.instant {
                    entries[index] = entry
                }
            } else {
                indexByKey[key] = entries.count
                entries.append(entry)
            }
        }
        entries.sort { a, b in
            let x = a.timestamp.instant, y = b.timestamp.instant
            if x != y { return x > y }
            return CodePoints.less(a.key, b.key)
        }
        if entries.count > ComposeRequest.maxDisplayedOutput {
            entries.removeSubrange(ComposeRequest.maxDisplayedOutput...)
        }
        return entries
    }
}
