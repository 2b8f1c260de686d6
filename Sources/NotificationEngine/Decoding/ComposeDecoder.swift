/// Decodes and validates a `POST /compose` body (the request of
/// `docs/spec/compose.md`) straight from its bytes into a `ComposeRequest`: a
/// string without escapes stays a range of the body, an escaped one is
/// decoded and appended. The one place that knows the request's members:
/// each kind of object lists its names once (`RequestMember`,
/// `NotificationMember`, …) and handles each in one `switch`.
///
/// A body is read once when it is well-formed and of the shape clients send.
/// When that pass stops, the parser checks the whole text, whose errors come
/// first, and the body is read again, knowing it is valid JSON, to find the
/// first field problem in document order; a missing required member is
/// reported after the members of its object. See `JSONReader`, ADR 0008.
package struct ComposeDecoder: ~Copyable {
    /// The request, or the first problem of the body.
    /// - Parameters:
    ///   - serverApp: the configured app name, used when `app` is missing or empty.
    ///   - catalogs: the server's catalogs and default locale, which `locale` chooses from.
    ///   - now: the server clock, read only when the request has no `now`.
    ///   - kept: the caller's shapes and storage (the service: its thread's), or
    ///     nil for fresh ones.
    static func decode(
        _ body: [UInt8], serverApp: String, catalogs: CatalogSet, now clock: () -> Timestamp, kept: KeptShapes? = nil
    ) throws(Problem) -> ComposeRequest {
        do throws(Problem) {
            return try decode(
                body, serverApp: serverApp, catalogs: catalogs, now: clock, validated: false, keptShapes: kept)
        } catch {}
        do {
            _ = try JSONParser.tape(body)
        } catch {
            throw Problem(error)
        }
        return try decode(body, serverApp: serverApp, catalogs: catalogs, now: clock, validated: true)
    }

    /// One pass over `body`: the first (`validated` false) or the one after
    /// the parser. A notification or displayed entry written as the one
    /// before is read by that one's shape (`ObjectShape`) unless
    /// `readsShapes` is false (tests compare both).
    /// The first pass starts from, and leaves, the shapes the calling
    /// caller's last first pass left in `keptShapes` (fresh ones when nil),
    /// and fills the request into the storage kept there
    /// (`ComposeRequest.giveStorage(to:)` returns it); the validated pass starts
    /// from none and leaves none.
    static func decode(
        _ body: [UInt8], serverApp: String, catalogs: CatalogSet, now clock: () -> Timestamp, validated: Bool,
        readsShapes: Bool = true, keptShapes: KeptShapes? = nil
    ) throws(Problem) -> ComposeRequest {
        var shapedReads = 0
        return try decode(
            body, serverApp: serverApp, catalogs: catalogs, now: clock, validated: validated,
            readsShapes: readsShapes, keptShapes: keptShapes, shapedReads: &shapedReads)
    }

    /// `decode(_:serverApp:catalogs:now:validated:readsShapes:keptShapes:)`,
    /// counting in `shapedReads` the objects read by their shape.
    package static func decode(
        _ body: [UInt8], serverApp: String, catalogs: CatalogSet, now clock: () -> Timestamp, validated: Bool,
        readsShapes: Bool = true, keptShapes: KeptShapes? = nil, shapedReads: inout Int
    ) throws(Problem) -> ComposeRequest {
        // A text the parser accepted stops the validated pass only at a field's problem.
        func unexpected() -> Problem { Problem(.invalidJSON, "the request body is not valid JSON") }
        let tables = Self.tables
        var request = try body.withUnsafeBufferPointer { bytes throws(Problem) -> ComposeRequest in
            // Ranges are 32-bit, with room for the bytes appended.
            guard bytes.count < Int(Int32.max) / 2 else {
                throw validated
                    ? Problem(.payloadTooLarge, "a compose request of 1 GiB or more is not accepted") : unexpected()
            }
            guard validated || UTF8Validation.firstInvalidOffset(bytes) == nil else { throw unexpected() }
            // The validated pass keeps nothing.
            let kept = validated ? nil : readsShapes ? keptShapes ?? KeptShapes() : KeptShapes(isEnabled: false)
            // The catalogs are lent for the pass: a copy would retain each
            // of their arrays. The first pass copies the body once into the
            // kept storage, with room for the keys; the validated one shares
            // it (and copies it when it appends).
            return try withUnsafePointer(to: catalogs) { catalogs throws(Problem) -> ComposeRequest in
                let shape = kept?.takeNotificationShape() ?? ObjectShape(isEnabled: readsShapes)
                let displayedShape = kept?.takeDisplayedShape() ?? ObjectShape(isEnabled: readsShapes)
                let unfilled =
                    if let kept {
                        ComposeRequest(
                            copying: bytes, into: &kept.requestStorage, serverApp: serverApp,
                            catalog: catalogs.pointee.defaultCatalog)
                    } else {
                        ComposeRequest(bytes: body, serverApp: serverApp, catalog: catalogs.pointee.defaultCatalog)
                    }
                // Moved, not copied: a copy alive while the decoder appends
                // would share the kept buffers, and the first append copy them.
                var decoder = ComposeDecoder(
                    reader: JSONReader(bytes, validated: validated), request: consume unfilled,
                    catalogs: catalogs, tables: tables, shape: shape, displayedShape: displayedShape,
                    recentDay: kept?.recentDay ?? RecentDay())
                var stop: JSONReader.Stop? = nil
                do throws(JSONReader.Stop) {
                    try decoder.decodeRequest()
                } catch {
                    stop = error
                }
                shapedReads = decoder.shapedReads
                if stop != nil {
                    let problem = decoder.reader.problem
                    if let kept {
                        decoder.request.giveStorage(to: &kept.requestStorage)
                        decoder.giveShapes(to: kept)
                    }
                    throw problem ?? unexpected()
                }
                let request = decoder.takeRequest()
                if let kept { decoder.giveShapes(to: kept) }
                return request
            }
        }
        if request.nowRange.isAbsent {
            _ = request.setNow(at: request.append(clock().raw))  // a `Timestamp` is valid
        }
        return request
    }

    var reader: JSONReader
    var request: ComposeRequest
    /// What `locale` chooses from: the caller's, valid for the pass.
    private let catalogs: UnsafePointer<CatalogSet>
    /// `Self.tables`, read once.
    let tables: Tables
    /// The previous notification's shape, for reading the next one.
    var shape: ObjectShape
    /// The previous displayed entry's shape.
    var displayedShape: ObjectShape
    /// How many objects were read by their shape.
    var shapedReads = 0
    /// The day of the last timestamp parsed in full.
    var recentDay: RecentDay
    /// The distinct `group`s of the displayed entries read so far, at most
    /// `ComposeRequest.maxDisplayedGroups` (`groupCount` of them).
    var groups = SixteenSlots<TextRange>(repeating: .absent)
    var groupCount = 0

    private init(
        reader: JSONReader, request: consuming ComposeRequest, catalogs: UnsafePointer<CatalogSet>, tables: Tables,
        shape: consuming ObjectShape, displayedShape: consuming ObjectShape, recentDay: RecentDay
    ) {
        self.shape = shape
        self.displayedShape = displayedShape
        self.recentDay = recentDay
        self.reader = reader
        self.request = request
        self.catalogs = catalogs
        self.tables = tables
    }

    /// The request read, moved out rather than copied (a copy would retain
    /// each of its buffers and the decoder's end release them again): an
    /// empty one is left.
    mutating func takeRequest() -> ComposeRequest {
        var taken = ComposeRequest(bytes: [], serverApp: "", catalog: request.catalog)
        swap(&taken, &request)
        return taken
    }

    /// Leaves the shapes and the recent day of a first pass for the next body.
    consuming func giveShapes(to kept: KeptShapes) {
        kept.recentDay = recentDay
        kept.notification = .some(shape)
        kept.displayed = .some(displayedShape)
    }

    /// The member names of every kind of object (see `MemberTable`), and
    /// what the decoder reads often from the wire tables (`WireTable`), in
    /// one static value.
    struct Tables: Sendable {
        let request = MemberTable<RequestMember>()
        let notification = MemberTable<NotificationMember>()
        let sender = MemberTable<SenderMember>()
        let displayed = MemberTable<DisplayedMember>()
        /// A notification's scalars before its members are read: the defaults.
        let notificationScalars = NotificationMember.defaultScalars
        /// The text slots of the required members, one bit each (`requiredSlots`).
        let notificationRequired = NotificationMember.requiredSlots
        let displayedRequired = DisplayedMember.requiredSlots
        /// The rules the shaped read runs on the slots it filled (`MemberRule`).
        let notificationRules = SlotRules(NotificationMember.self, SenderMember.self)
        let displayedRules = SlotRules(DisplayedMember.self)
    }

    /// Whether `ranges` holds every slot of `required` (bits by slot), tested in a few instructions a slot.
    @inline(__always)
    static func hasRequired(_ required: UInt16, _ ranges: ComposeRequest.NotificationRanges) -> Bool {
        var slots = required
        while slots != 0 {
            let slot = UInt8(truncatingIfNeeded: slots.trailingZeroBitCount)
            if ranges[ComposeRequest.NotificationRanges.Field(rawValue: slot).unsafelyUnwrapped].isAbsent {
                return false
            }
            slots &= slots &- 1
        }
        return true
    }

    private static let tables = Tables()

    // MARK: The request

    private mutating func decodeRequest() throws(JSONReader.Stop) {
        guard reader.peek() == UInt8(ascii: "{") else {
            throw stop(
                Problem(.invalidType, "the request body must be a JSON object, got \(reader.typeName())", at: ""))
        }
        var names = MemberNames(tables.request)
        names.startObject()
        var hasNotifications = false
        if try reader.openObject(at: "") {
            repeat {
                guard let member = try reader.memberName(&names) else {
                    throw unknownMember(RequestMember.self, in: "")
                }
                if try reader.skipNull() { continue }
                switch member {
                case .notifications:
                    var names = MemberNames(tables.notification)
                    var senderNames = MemberNames(tables.sender)
                    try decodeArray(
                        at: "notifications", max: ComposeRequest.maxNotifications,
                        reserving: { $0.reserve(notifications: $1 ?? 32) }
                    ) { decoder, index throws(JSONReader.Stop) in
                        try decoder.decodeNotification(index, &names, &senderNames)
                    }
                    hasNotifications = true
                case .displayed:
                    var names = MemberNames(tables.displayed)
                    try decodeArray(
                        at: "displayed", max: ComposeRequest.maxDisplayedEntries,
                        reserving: { $0.reserve(displayed: $1 ?? 64) }
                    ) { decoder, index throws(JSONReader.Stop) in
                        try decoder.decodeDisplayedEntry(index, &names)
                    }
                case .now:
                    let range = try text(at: "now")
                    guard request.setNow(at: range) else { throw stop(invalidTimestamp(range, at: "now")) }
                case .maxAgeSeconds:
                    request.maxAgeSeconds = try integer(.maxAgeSeconds)
                case .maxUnits:
                    request.maxUnits = try integer(.maxUnits)
                case .app:
                    request.appRange = try text(at: "app")
                case .recipient:
                    request.recipientRange = try text(at: "recipient")
                case .fetch:
                    request.fetch = try word(FetchOutcome.self, .fetch)
                case .locale:
                    request.catalog = try catalog()
                case .preview:
                    request.preview = try word(PreviewTier.self, .preview)
                case .push:
                    request.push = try pushOptions()
                }
            } while try reader.nextMember()
        }
        try reader.end()
        if request.fetch == .ok && !hasNotifications {
            throw stop(Problem(.missingField, "notifications is required when fetch is \"ok\"", at: "notifications"))
        }
    }

    /// The request's integer `member`, within its table's bounds.
    private mutating func integer(_ member: RequestMember) throws(JSONReader.Stop) -> Int {
        guard case .integer(let bounds) = member.field.kind else {
            preconditionFailure("\(member.rawValue) is not an integer in the wire table")
        }
        return try reader.integer(in: bounds, at: member.rawValue)
    }

    /// The request member `member` (`fetch`, `preview`), one of `Word`'s
    /// cases spelled exactly: `OK` or `Failed` would hide a caller's bug.
    private mutating func word<Word: RawRepresentable<String> & CaseIterable>(
        _: Word.Type, _ member: RequestMember
    ) throws(JSONReader.Stop) -> Word {
        let spelling = try stringValue(at: member.rawValue)
        guard let word = Word(rawValue: spelling) else {
            let words = Word.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw stop(
                Problem(
                    .invalidValue,
                    "\(member.rawValue) must be one of \(words), got \(JSONWriter.quotedForMessage(spelling))",
                    at: member.rawValue))
        }
        return word
    }

    /// The catalog `locale` chooses (compose.md section 10); `""` is the default's.
    private mutating func catalog() throws(JSONReader.Stop) -> Catalog {
        let range = try text(at: "locale")
        let chosen = request.bytes.withUnsafeBufferPointer { catalogs.pointee.catalog(forUTF8: $0[present: range]) }
        guard let chosen else { throw stop(invalidLocale(range)) }
        return chosen
    }

    /// The problem of a `locale` at `range` that is not a well-formed tag (section 9).
    private func invalidLocale(_ range: TextRange) -> Problem {
        let raw = request.bytes.withUnsafeBufferPointer { String(decoding: $0[present: range], as: UTF8.self) }
        return Problem(
            .invalidLocale,
            "locale must be a BCP 47 language tag of at most \(LocaleTag.maximumCount) characters such as \"pt-BR\","
                + " got \(JSONWriter.quotedForMessage(raw))", at: "locale")
    }

    /// Stops the pass at `problem`, made only in the validated pass.
    func stop(_ problem: @autoclosure () -> Problem) -> JSONReader.Stop {
        reader.stop(problem())
    }

    /// Stops the validated pass at the member `reader.memberName` just
    /// found unknown, in the object at the field path `parent` (`""`: the
    /// request), whose members are `Member`'s (compose.md 2.2).
    @inline(never)
    func unknownMember<Member: JSONMember>(_: Member.Type, in parent: String) -> JSONReader.Stop {
        // A closure, not a key path: Embedded Swift (the WebAssembly build) has none.
        let members = Member.allCases.map { $0.rawValue }
        return stop(
            FieldDecoding.unknownMember(reader.text(ofStringAt: reader.unknownNameStart), in: parent, members: members))
    }

}

extension ComposeRequest {
    /// Decodes and validates a `POST /compose` body, the request of
    /// `docs/spec/compose.md`, so that the composer only ever sees valid input:
    /// its texts stay ranges of `bytes` (`ComposeDecoder`).
    ///
    /// - Parameters:
    ///   - serverApp: the configured app name, used when `app` is missing or empty.
    ///   - catalogs: the server's catalogs and default locale; the request's
    ///     `locale` chooses its `catalog` from them.
    ///   - now: the server clock, read only when the request has no `now`.
    /// - Throws: the first problem in document order (JSON errors first); a
    ///   missing required field is reported after the members of its object.
    package static func decode(
        _ bytes: [UInt8], serverApp: String, catalogs: CatalogSet = .builtIn, now: () -> Timestamp,
        kept: KeptShapes? = nil
    ) throws(Problem) -> ComposeRequest {
        try ComposeDecoder.decode(bytes, serverApp: serverApp, catalogs: catalogs, now: now, kept: kept)
    }
}
