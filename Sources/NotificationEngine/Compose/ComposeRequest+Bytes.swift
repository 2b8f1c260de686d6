/// The request as the rules read it: ranges of one UTF-8 buffer, filled by
/// the service's decoder straight from a request body (a string without
/// escapes is a range of the body's own bytes; only keys, `source:id`, and
/// escaped strings are appended) and by `init` from a caller's strings. Its
/// records are trivially copyable, so a request of 20 notifications costs no
/// `String` and no reference count until compose writes the texts it shows.
///
/// Limits (`ComposeRequest.maxNotifications`, …) are the filler's to enforce.
extension ComposeRequest {
    /// One fetched notification (`PendingNotification`'s fields as ranges).
    package struct NotificationRecord: Sendable {
        /// Its texts by field, as the filler wrote them, with the key.
        package let ranges: NotificationRanges
        /// Its booleans and integers by field.
        package let scalars: ScalarSlots
        package let moment: Moment
        package var read: Bool { scalars[.read] != 0 }
        /// Whether the type is one of `PendingNotification.messageTypes`.
        package let isMessage: Bool

        package var id: TextRange { ranges[.id] }
        package var source: TextRange { ranges[.source] }
        package var type: TextRange { ranges[.type] }
        /// `source:id`, or `id` when the source is absent or empty.
        package var key: TextRange { ranges[.key] }
        /// The timestamp as written, echoed in the next `displayed` state.
        package var timestamp: TextRange { ranges[.timestamp] }
        package var senderID: TextRange { ranges[.senderID] }
        package var senderName: TextRange { ranges[.senderName] }
        package var thread: TextRange { ranges[.thread] }
        package var threadTitle: TextRange { ranges[.threadTitle] }
        package var text: TextRange { ranges[.text] }
        package var defaultText: TextRange { ranges[.defaultText] }
        package var url: TextRange { ranges[.url] }
    }

    /// One entry of the caller's `displayed` state (compose.md 2.1): a key
    /// with its group, a key without one (a legacy entry), or a group
    /// without a key (a fallback notification on the device).
    package struct DisplayedRecord: Sendable {
        /// Absent for an entry of a group alone.
        package let key: TextRange
        /// As written, echoed when the entry is carried over.
        package let timestamp: TextRange
        package let moment: Moment
        /// A valid group key (C14), or absent.
        package let group: TextRange
        /// Where in `displayedExtras` the entry's `Extras` are; -1 when it
        /// has none of them (every entry of a request without `push`'s
        /// state): they stay out of the record, which compose without
        /// `push` copies and never reads them from.
        package let extrasIndex: Int32

        /// What an entry records of the payloads (compose.md 2.1, C10): a
        /// text digest (C15) or absent; when its group last alerted, as
        /// written, or absent, and that instant; `direct` as 0 (false), 1
        /// (true) or 2 (absent).
        package struct Extras: Sendable {
            package var digest = TextRange.absent
            package var alerted = TextRange.absent
            package var alertedMoment = Moment(epochSeconds: 0, nanoseconds: 0, extraDigits: .absent)
            package var direct: UInt8 = 2

            package init() {}
        }
    }

    /// The `Extras` of `record` (none recorded when it has none).
    @inline(__always)
    package func extras(of record: DisplayedRecord) -> DisplayedRecord.Extras {
        record.extrasIndex < 0 ? DisplayedRecord.Extras() : displayedExtras[Int(record.extrasIndex)]
    }

    /// A request whose ranges will point into `bytes` (a request body), with
    /// the time at the Unix epoch until the filler sets it (`setNow`), its
    /// texts written from `catalog`.
    package init(
        bytes: [UInt8], serverApp: String, catalog: Catalog = CatalogSet.builtIn.defaultCatalog
    ) {
        self.bytes = bytes
        self.serverApp = serverApp
        self.catalog = catalog
        self.nowMoment = Moment(epochSeconds: 0, nanoseconds: 0, extraDigits: .empty)
    }

    // MARK: Filling

    /// Makes room for `count` notifications and their keys, so the bytes are
    /// copied (from a shared request body) at most once.
    package mutating func reserve(notifications count: Int) {
        notificationRecords.reserveCapacity(count)
        bytes.reserveCapacity(bytes.count + Self.keyRoomBytes(notifications: count))
    }

    /// Makes room for as many notifications as a body of `bodyCount` bytes
    /// holds at the rate of the `count` read in its first `readCount` (at
    /// most `maxNotifications`), when the records' array has less: called
    /// once the typical count is read (`typicalNotifications`, the room a
    /// request starts with), a large request's array grows once, where
    /// doubling copied its records up to five times.
    mutating func reserve(notificationsRead count: Int, inBytes readCount: Int, of bodyCount: Int) {
        guard count > 0, readCount > 0 else { return }
        // An eighth more than the rate gives: the bytes before the array
        // count as read, so the rate alone falls short by a few.
        let rate = count * bodyCount / readCount
        let expected = Swift.min(rate + rate / 8 + 1, Self.maxNotifications)
        if expected > notificationRecords.capacity { notificationRecords.reserveCapacity(expected) }
    }

    /// The bytes appended for `count` notifications' keys with a source,
    /// which are made in room appended for them: typical ones.
    static func keyRoomBytes(notifications count: Int) -> Int {
        24 * count + keyRoomBytes + 64
    }

    /// Makes room for `count` displayed entries.
    package mutating func reserve(displayed count: Int) {
        displayedRecords.reserveCapacity(count)
    }

    /// Appends `utf8` (well-formed UTF-8) and returns its range.
    package mutating func append(_ utf8: UnsafeBufferPointer<UInt8>) -> TextRange {
        let start = bytes.count
        bytes.append(contentsOf: utf8)
        return TextRange(start: start, count: utf8.count)
    }

    /// Removes the bytes appended since `bytes` had `count` bytes (a filler
    /// that read ahead and then chose to read again).
    /// - Precondition: no range of a record points past `count`.
    package mutating func removeAppended(downTo count: Int) {
        precondition(count <= bytes.count, "nothing was appended past that count")
        bytes.removeSubrange(count...)
        keyRoom = min(keyRoom.lowerBound, count)..<min(keyRoom.upperBound, count)
    }

    /// Appends `text` and returns its range.
    package mutating func append(_ text: String) -> TextRange {
        if let range = text.utf8.withContiguousStorageIfAvailable({ append($0) }) { return range }
        let start = bytes.count
        bytes.append(contentsOf: text.utf8)
        return TextRange(start: start, count: bytes.count - start)
    }

    /// Appends `text`, or returns `.absent` for nil.
    mutating func append(_ text: String?) -> TextRange {
        guard let text else { return .absent }
        return append(text)
    }

    /// The instant of the RFC 3339 date-time at `range` (`Timestamp`'s rules);
    /// nil when it is not one.
    package func moment(at range: TextRange) -> Moment? {
        precondition(fits(range), "a range outside the request's bytes")
        return bytes.withUnsafeBufferPointer { bytes in
            guard let parts = Timestamp.parse(bytes[range]) else { return nil }
            let extra = parts.extraDigits
            return Moment(
                epochSeconds: parts.epochSeconds, nanoseconds: parts.nanoseconds,
                extraDigits: extra.isEmpty
                    ? .empty : TextRange(start: Int(range.start) + extra.lowerBound, count: extra.count)
            )
        }
    }

    /// `instant` as a moment (its parsed `Timestamp` is not parsed again):
    /// its digits beyond nanoseconds, if any, appended.
    mutating func moment(of instant: Instant) -> Moment {
        let extra = instant.subnanosecondDigits.isEmpty ? TextRange.empty : append(instant.subnanosecondDigits)
        return Moment(epochSeconds: instant.epochSeconds, nanoseconds: instant.nanoseconds, extraDigits: extra)
    }

    /// How far into `bytes` `range` reaches: `fits` holds for ranges exactly
    /// when the largest of their reaches is at most `bytes.count` (below 2³¹).
    /// An absent range reaches 0; a present one its end, or past 2³¹ when its
    /// count is negative. So a record's ranges are checked in a few
    /// instructions each and one comparison.
    @inline(__always)
    static func reach(_ range: TextRange) -> Int {
        // Masked by the start's sign: all ones when present, zero when absent.
        let start = Int(range.start)
        return (start &+ Int(UInt32(bitPattern: range.count))) & ~(start >> 63)
    }

    /// Whether `range` is absent or lies within `bytes`.
    @inline(__always)
    func fits(_ range: TextRange) -> Bool {
        range.isAbsent || (range.count >= 0 && range.end <= bytes.count)
    }

    /// Sets the reference time to the RFC 3339 date-time at `range`; false
    /// (and nothing set) when it is not one.
    package mutating func setNow(at range: TextRange) -> Bool {
        guard let moment = moment(at: range) else { return false }
        nowMoment = moment
        nowRange = range
        return true
    }

    /// Adds `notification`, its strings appended.
    mutating func append(_ notification: PendingNotification) {
        var ranges = NotificationRanges()
        ranges[.timestamp] = append(notification.timestamp.raw)
        let moment = moment(of: notification.timestamp.instant)
        for field in NotificationRanges.Field.allCases where field != .timestamp {
            ranges[field] = append(notification.text(field))
        }
        let scalars = notification.scalars
        appendNotification(&ranges, scalars, moment: moment)
    }

    /// Adds the notification of `ranges`' fields `id` through `url` and of
    /// `scalars`; its key is made here (`source:id`, or `id`) into the `key`
    /// slot, whatever it held.
    /// - Precondition: every range is absent or within `bytes` (checked: a
    ///   range outside would read outside the buffer); `id`, `type` and
    ///   `timestamp` are present; `moment` is `timestamp`'s; `source` has no `:`.
    package mutating func appendNotification(
        _ ranges: inout NotificationRanges, _ scalars: ScalarSlots, moment: Moment
    ) {
        // One test for every slot, as `fits` each: the furthest reach of
        // any. The key is made below, whatever its slot held.
        ranges[.key] = .absent
        let reach = max(ranges.furthestReach, Self.reach(moment.extraDigits))
        precondition(reach <= bytes.count, "a notification's range is outside the request's bytes")
        appendNotification(checked: &ranges, scalars, moment: moment)
    }

    /// `appendNotification(_:_:moment:)` for ranges known to lie within
    /// `bytes`, each checked as it was read: the shaped read's
    /// (`ComposeDecoder.readShaped`: a range of the body it scanned, or of
    /// what it appended), which a second test of every slot would read
    /// again (ADR 0046).
    /// - Precondition: as `appendNotification(_:_:moment:)`'s, the ranges'
    ///   (and the moment's digits') bounds being the caller's.
    mutating func appendNotification(checked ranges: inout NotificationRanges, _ scalars: ScalarSlots, moment: Moment) {
        precondition(bytes.count <= Int(Int32.max), "a request's bytes are more than 32-bit ranges reach")
        let (id, source, type) = (ranges[.id], ranges[.source], ranges[.type])
        precondition(
            !id.isAbsent && !type.isAbsent && !ranges[.timestamp].isAbsent,
            "a notification needs an id, a type and a timestamp")
        var key = id
        // Absent is a negative start, whatever the count: such a source is never read.
        if !source.isAbsent && source.count > 0 {
            let sourceCount = Int(source.count)
            let count = sourceCount + 1 + Int(id.count)
            if keyRoom.count < count { appendKeyRoom(atLeast: count) }
            // Each part is read whole before it is written (`move`), so even
            // a range into the room itself is copied as it was.
            let start = keyRoom.lowerBound
            bytes.withUnsafeMutableBytes { buffer in
                let base = buffer.baseAddress!
                Self.move(base, from: Int(source.start), to: start, count: sourceCount)
                base.storeBytes(of: UInt8(ascii: ":"), toByteOffset: start + sourceCount, as: UInt8.self)
                Self.move(base, from: Int(id.start), to: start + sourceCount + 1, count: Int(id.count))
            }
            key = TextRange(start: start, count: count)
            keyRoom = (start + count)..<keyRoom.upperBound
        }
        ranges[.key] = key
        let isMessage = bytes.withUnsafeBufferPointer { PendingNotification.isMessageType($0[type]) }
        notificationRecords.append(
            NotificationRecord(ranges: ranges, scalars: scalars, moment: moment, isMessage: isMessage))
    }

    /// Copies `count` bytes of `base` from `source` to `target`, as
    /// `memmove` does; up to 16 bytes (a key's source or id, nearly always)
    /// as two words or halves loaded before either is stored, which never
    /// touch a byte outside either range, instead of a call.
    @inline(__always)
    private static func move(_ base: UnsafeMutableRawPointer, from source: Int, to target: Int, count: Int) {
        switch count {
        case 8...16:
            let first = base.loadUnaligned(fromByteOffset: source, as: UInt64.self)
            let last = base.loadUnaligned(fromByteOffset: source + count - 8, as: UInt64.self)
            base.storeBytes(of: first, toByteOffset: target, as: UInt64.self)
            base.storeBytes(of: last, toByteOffset: target + count - 8, as: UInt64.self)
        case 4..<8:
            let first = base.loadUnaligned(fromByteOffset: source, as: UInt32.self)
            let last = base.loadUnaligned(fromByteOffset: source + count - 4, as: UInt32.self)
            base.storeBytes(of: first, toByteOffset: target, as: UInt32.self)
            base.storeBytes(of: last, toByteOffset: target + count - 4, as: UInt32.self)
        default:
            (base + target).copyMemory(from: base + source, byteCount: count)
        }
    }

    /// Keys (`source:id`) are written into room appended for them, a few
    /// hundred bytes at a time: one append for many keys, where an append
    /// per key cost more than the rest of adding its notification. The room
    /// depends only on the keys made before, so two fillers that add the
    /// same notifications lay their bytes out alike.
    private static var keyRoomBytes: Int { 512 }

    /// What the room for keys holds until a key is written there.
    private static let zeros = [UInt8](repeating: 0, count: 4096)

    /// Appends room for keys, at least `count` bytes; no range points there yet.
    private mutating func appendKeyRoom(atLeast count: Int) {
        let start = bytes.count
        var left = max(count, Self.keyRoomBytes)
        Self.zeros.withUnsafeBufferPointer { zeros in
            while left > 0 {
                let piece = min(left, zeros.count)
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: zeros[..<piece]))
                left -= piece
            }
        }
        keyRoom = start..<bytes.count
    }

    /// Adds an entry of the caller's `displayed` state.
    /// - Precondition: `timestamp` and `key` or `group` are present, and
    ///   the ranges within `bytes` (checked); `moment` is `timestamp`'s;
    ///   `group` is a valid group key (the filler checks it).
    package mutating func appendDisplayed(
        key: TextRange, timestamp: TextRange, moment: Moment, group: TextRange = .absent,
        extras: DisplayedRecord.Extras = .init()
    ) {
        precondition(
            (!key.isAbsent || !group.isAbsent) && !timestamp.isAbsent && fits(key) && fits(timestamp)
                && fits(moment.extraDigits) && fits(group) && fits(extras.digest) && fits(extras.alerted)
                && fits(extras.alertedMoment.extraDigits),
            "a displayed entry's range is outside the request's bytes")
        var extrasIndex: Int32 = -1
        if !extras.digest.isAbsent || !extras.alerted.isAbsent || extras.direct != 2 {
            extrasIndex = Int32(truncatingIfNeeded: displayedExtras.count)
            displayedExtras.append(extras)
        }
        displayedRecords.append(
            DisplayedRecord(key: key, timestamp: timestamp, moment: moment, group: group, extrasIndex: extrasIndex))
    }
}
