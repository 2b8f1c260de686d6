/// The one notification to display, and the state the caller must persist.
///
/// Its keys and timestamps are ranges of the request's bytes (`shown`,
/// `dropped` and `displayed` are made from them when read), so the service
/// writes its reply without a `String` per key.
package struct ComposeResponse: Hashable, Sendable {
    /// What was composed.
    package enum Kind: String, Hashable, Sendable {
        /// One notification left: its own texts.
        case single
        /// Two or more messages of one thread: bundled.
        case bundle
        /// Two or more of mixed activity: a count.
        case summary
        /// Nothing to show from (fetch failed or timed out, or nothing left).
        case fallback
    }

    /// Why a fallback was shown (`reason` on the wire; `nil` for other kinds).
    package enum FallbackReason: String, Hashable, Sendable {
        case failed, timeout, empty
    }

    /// Why a notification was not shown, in order of precedence.
    package enum DropReason: String, Hashable, Sendable, CaseIterable {
        case duplicate, read, own, stale, future
    }

    /// From the screen the request's `displayed` records to the next
    /// (compose.md S1 to S3): made only for a request with `push`.
    package struct Transition: Hashable, Sendable {
        /// S2: whether to send the alert payloads.
        package var send: Bool
        /// S3: whether they alert, or replace quietly.
        package var alert: Bool
        /// S1: the group keys to withdraw, in the order of the request's state.
        package var withdraw: [String]
        /// S6: whether the answer is held (until the request's `push.activeUntil`).
        package var held: Bool
        /// What S2 compares the answer's text digest with (C15): the
        /// `digest` of D's entries under G (absent when none has one), and
        /// whether they differ among themselves. Ranges of the request's bytes.
        var digestUnderG = TextRange.absent
        var digestsDiffer = false
        /// The latest `alerted` of D's entries under G (C10), a range of the request's bytes.
        var latestAlerted = TextRange.absent

        package init(send: Bool, alert: Bool, withdraw: [String], held: Bool = false) {
            self.send = send
            self.alert = alert
            self.withdraw = withdraw
            self.held = held
        }
    }

    /// What an entry of the next state records of the payloads (compose.md
    /// C10), for a request with `push`: its `digest` (the answer's F, or a
    /// range of `bytes`, absent for null), its `alerted` (a range of
    /// `bytes`), its `direct` (0 false, 1 true, 2 null).
    package struct EntryExtras: Sendable {
        var digest = TextRange.absent
        var isAnswerDigest = false
        var alerted = TextRange.absent
        var direct: UInt8 = 2
    }

    /// A notification compose dropped (`dropped` on the wire), in input order.
    package struct Drop: Hashable, Sendable {
        package var key: String
        package var reason: DropReason

        package init(key: String, reason: DropReason) {
            self.key = key
            self.reason = reason
        }
    }

    /// The displayed texts (`notification` on the wire).
    package typealias Content = AnswerContent

    package var kind: Kind
    package var reason: FallbackReason?

    /// The displayed texts.
    package var notification: Content {
        get {
            switch storedNotification {
            case .values(let content): content
            case .texts(let texts): texts.content
            case .taken: Content { _ in nil }
            }
        }
        set { storedNotification = .values(newValue) }
    }

    /// `notification[member]`, without a `String` made of every other member.
    package func text(_ member: AnswerMember) -> String? {
        switch storedNotification {
        case .values(let content): content[member]
        case .texts(let texts): texts.string(member)
        case .taken: nil
        }
    }

    /// The answer's `notification`: the texts, with each `derived` member
    /// worked out from its copy and the transition (`AnswerMember.derived`).
    package var answerNotification: Content {
        var content = notification
        AnswerMember.forEach { member in
            guard member.isDerived else { return }
            content[member] = AnswerMember.derived(member, copied: content[member], transition: transition)
        }
        return content
    }

    /// The texts as `Composer` wrote them, unless `notification` was set
    /// since: the service writes its reply from their bytes.
    package var composedTexts: ComposedTexts? {
        if case .texts(let texts) = storedNotification { texts } else { nil }
    }

    private var storedNotification: StoredNotification

    /// The texts as `Composer` wrote them, moved out (`.taken` left).
    mutating func takeComposedTexts() -> ComposedTexts? {
        guard case .texts = storedNotification else { return nil }
        var taken = StoredNotification.taken
        swap(&taken, &storedNotification)
        guard case .texts(let texts) = consume taken else { return nil }
        return texts
    }

    private enum StoredNotification: Sendable {
        case values(Content)
        case texts(ComposedTexts)
        /// The texts were moved out (`takeComposedTexts`), as the response ends.
        case taken
    }

    /// The tag of the catalog the texts were written from, as its file writes
    /// it (`pt-PT`), for every kind: the request's `locale` once chosen, or
    /// the default's.
    package var locale: String
    /// The `direction` of that catalog (compose.md C12), for every kind and tier.
    package var direction = TextDirection.ltr
    /// G of compose.md C14: the group key the notification is shown under,
    /// which each entry of the next state made from a shown key records.
    package internal(set) var groupKey: String
    /// S1 to S3, for a request with `push`; nil otherwise.
    package internal(set) var transition: Transition?
    /// Per entry of the next state (`entryIndices`, in order), with `push`;
    /// empty otherwise.
    package internal(set) var entryExtras: [EntryExtras] = []
    /// F of C15, once `settleDigest` has run (with `push`).
    package internal(set) var textDigest = TextDigest()

    /// Computes F (C15) of the notification as its tier left it, and
    /// completes S2: an answer that would not send sends when an entry of
    /// D under G recorded another text.
    mutating func settleDigest() {
        textDigest = TextDigest.of(self)
        guard var transition, !transition.send, !transition.held else { return }
        if transition.digestsDiffer {
            transition.send = true
        } else if !transition.digestUnderG.isAbsent {
            var hex: [UInt8] = []
            textDigest.appendHex(to: &hex)
            transition.send =
                bytes[Int(transition.digestUnderG.start)..<transition.digestUnderG.end].elementsEqual(hex)
                == false
        }
        self.transition = transition
    }

    /// Replaces the notification's texts with `texts` (a preview tier's).
    mutating func replaceTexts(_ texts: ComposedTexts) {
        storedNotification = .texts(texts)
    }

    // MARK: Keys and timestamps, as ranges

    /// The bytes the keys and timestamps are ranges of: the request's, when
    /// `Composer` made the response, so none is copied into a `String`.
    package let bytes: [UInt8]
    /// The dropped notifications (in input order), the keys of those
    /// represented (newest first) and the next state to persist, in that
    /// order in one array, so a response costs one allocation for them, not three.
    package internal(set) var records: [KeyRecord]
    /// How many of `records` are drops, and then shown keys.
    private let dropCount: Int32
    private let shownCount: Int32

    /// Where in `records` the dropped notifications are.
    package var dropIndices: Range<Int> { 0..<Int(dropCount) }
    /// Where in `records` the keys of the notifications represented are.
    package var shownIndices: Range<Int> { Int(dropCount)..<Int(dropCount) + Int(shownCount) }
    /// Where in `records` the entries of the next state are.
    package var entryIndices: Range<Int> { Int(dropCount) + Int(shownCount)..<records.count }

    /// A key of `shown`, `dropped` or `displayed`, with its reason (of a
    /// drop) or its timestamp and group (of an entry).
    package struct KeyRecord: Sendable {
        /// Absent only for an entry of a group alone.
        package let key: TextRange
        /// RFC 3339 text that `Timestamp` parses (the reply copies it without
        /// escaping), for an entry; absent otherwise.
        package let timestamp: TextRange
        /// An entry's group, when it is not the answer's: a valid group key
        /// (nothing to escape), or absent (`null`).
        package let group: TextRange
        /// Why the notification was dropped, for a drop (`duplicate` otherwise, unread).
        package let reason: DropReason
        /// Whether an entry's group is the answer's `groupKey` (then `group` is absent).
        package let hasAnswerGroup: Bool

        /// A shown key.
        package init(shown key: TextRange) {
            self.key = key
            timestamp = .absent
            group = .absent
            reason = .duplicate
            hasAnswerGroup = false
        }

        /// A dropped notification: its key and why.
        package init(key: TextRange, reason: DropReason) {
            self.key = key
            timestamp = .absent
            group = .absent
            self.reason = reason
            hasAnswerGroup = false
        }

        /// An entry of the next `displayed` state: with its own `group`
        /// (absent for none), or under the answer's group key.
        package init(key: TextRange, timestamp: TextRange, group: TextRange = .absent, answerGroup: Bool) {
            self.key = key
            self.timestamp = timestamp
            self.group = group
            reason = .duplicate
            hasAnswerGroup = answerGroup
        }
    }

    /// A response of these values; `records` holds `dropCount` drops, then
    /// `shownCount` shown keys, then the entries of the next state.
    package init(
        kind: Kind, reason: FallbackReason?, notification: Content, locale: String, bytes: [UInt8],
        records: [KeyRecord], dropCount: Int, shownCount: Int
    ) {
        self.init(
            kind: kind, reason: reason, storedNotification: .values(notification), locale: locale, bytes: bytes,
            records: records, dropCount: dropCount, shownCount: shownCount,
            groupKey: PushBuilder.groupKey(of: notification.threadIdentifier ?? Composer.fallbackGroupKey))
    }

    /// A response whose texts are `texts` (`Composer`'s bundle), written from
    /// a catalog of `direction`.
    package init(
        kind: Kind, reason: FallbackReason?, texts: ComposedTexts, locale: String, direction: TextDirection = .ltr,
        bytes: [UInt8], records: [KeyRecord], dropCount: Int, shownCount: Int, groupKey: String,
        transition: Transition? = nil, entryExtras: [EntryExtras] = []
    ) {
        self.init(
            kind: kind, reason: reason, storedNotification: .texts(texts), locale: locale, bytes: bytes,
            records: records, dropCount: dropCount, shownCount: shownCount, groupKey: groupKey)
        self.direction = direction
        self.transition = transition
        self.entryExtras = entryExtras
    }

    private init(
        kind: Kind, reason: FallbackReason?, storedNotification: StoredNotification, locale: String, bytes: [UInt8],
        records: [KeyRecord], dropCount: Int, shownCount: Int, groupKey: String
    ) {
        precondition(dropCount >= 0 && shownCount >= 0 && dropCount + shownCount <= records.count)
        self.groupKey = groupKey
        self.kind = kind
        self.reason = reason
        self.storedNotification = storedNotification
        self.locale = locale
        self.bytes = bytes
        self.records = records
        self.dropCount = Int32(truncatingIfNeeded: dropCount)
        self.shownCount = Int32(truncatingIfNeeded: shownCount)
    }

    /// A response of these values, their keys and timestamps laid out in one buffer.
    package init(
        kind: Kind, reason: FallbackReason?, notification: Content, shown: [String], dropped: [Drop],
        displayed: [DisplayedEntry], locale: String = CatalogSet.defaultLocale
    ) {
        var bytes: [UInt8] = []
        func append(_ text: String) -> TextRange {
            let start = bytes.count
            bytes.append(contentsOf: text.utf8)
            return TextRange(start: start, count: bytes.count - start)
        }
        var records: [KeyRecord] = []
        records.reserveCapacity(dropped.count + shown.count + displayed.count)
        for drop in dropped { records.append(KeyRecord(key: append(drop.key), reason: drop.reason)) }
        for key in shown { records.append(KeyRecord(shown: append(key))) }
        for entry in displayed {
            let key = entry.key.map(append) ?? .absent
            let timestamp = append(entry.timestamp.raw)
            records.append(
                KeyRecord(key: key, timestamp: timestamp, group: entry.group.map(append) ?? .absent, answerGroup: false)
            )
        }
        self.init(
            kind: kind, reason: reason, notification: notification, locale: locale, bytes: bytes,
            records: records, dropCount: dropped.count, shownCount: shown.count)
    }

    // MARK: The response as values

    /// Keys of the notifications represented, newest first (empty for a fallback).
    package var shown: [String] {
        bytes.withUnsafeBufferPointer { bytes in shownIndices.map { Self.string(records[$0].key, in: bytes) } }
    }

    package var dropped: [Drop] {
        bytes.withUnsafeBufferPointer { bytes in
            dropIndices.map { Drop(key: Self.string(records[$0].key, in: bytes), reason: records[$0].reason) }
        }
    }

    /// The next state to persist: replaces the caller's `displayed`.
    package var displayed: [DisplayedEntry] {
        let answerDigest = textDigest.hex
        return bytes.withUnsafeBufferPointer { bytes in
            entryIndices.map {
                let record = records[$0]
                // Every timestamp here was parsed when the request was filled.
                var entry = DisplayedEntry(
                    key: record.key.isAbsent ? nil : Self.string(record.key, in: bytes),
                    timestamp: Timestamp(rfc3339: Self.string(record.timestamp, in: bytes))!,
                    group: record.hasAnswerGroup
                        ? groupKey : record.group.isAbsent ? nil : Self.string(record.group, in: bytes))
                guard !entryExtras.isEmpty else { return entry }
                let extras = entryExtras[$0 - entryIndices.lowerBound]
                entry.digest =
                    extras.isAnswerDigest
                    ? answerDigest : extras.digest.isAbsent ? nil : Self.string(extras.digest, in: bytes)
                entry.alerted =
                    extras.alerted.isAbsent ? nil : Timestamp(rfc3339: Self.string(extras.alerted, in: bytes))!
                entry.direct = extras.direct == 2 ? nil : extras.direct == 1
                return entry
            }
        }
    }

    private static func string(_ range: TextRange, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes[present: range], as: UTF8.self)
    }

    // MARK: Equality of the values

    package static func == (a: ComposeResponse, b: ComposeResponse) -> Bool {
        a.kind == b.kind && a.reason == b.reason && a.notification == b.notification && a.locale == b.locale
            && a.direction == b.direction && a.shown == b.shown && a.dropped == b.dropped
            && a.displayed == b.displayed
    }

    /// Hashes some of the values `==` compares (equal responses hash alike).
    package func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(notification)
        hasher.combine(shown)
    }
}
