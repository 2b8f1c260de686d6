/// The request's two arrays, `notifications` and `displayed`: each read
/// element by element within its limit (`decodeArray`), each entry member
/// by member by its wire table (`decodeMembers`) with its own rules (a
/// notification's `sender` and `source`, a displayed entry's `group` and
/// `key`), then its required members; and the distinct groups the
/// displayed entries name (`isGroupKey`, `noteGroup`).
extension ComposeDecoder {
    /// Reads the array at `path`, of at most `max` elements, one `element`
    /// (by its index) at a time, after `reserving` room for their count (nil
    /// before it is known). In a validated text the elements are counted
    /// first, so too many is the problem before any element's; the first pass
    /// counts as it reads.
    @inline(__always)
    mutating func decodeArray(
        at path: String, max: Int, reserving: (inout ComposeRequest, Int?) -> Void,
        _ element: (inout Self, Int) throws(JSONReader.Stop) -> Void
    ) throws(JSONReader.Stop) {
        var count: Int? = nil
        if reader.validated {
            var ahead = reader
            if ahead.peek() == UInt8(ascii: "[") {
                count = ahead.elementCount()
                guard count! <= max else {
                    throw stop(
                        Problem(.outOfRange, "\(path) has \(count!) items, at most \(max) are allowed", at: path))
                }
            }
        }
        guard try reader.openArray(at: path) else { return }
        reserving(&request, count)
        var index = 0
        repeat {
            guard index < max else { throw JSONReader.Stop() }
            try element(&self, index)
            index += 1
        } while try reader.nextElement()
    }

    mutating func decodeNotification(
        _ index: Int, _ names: inout MemberNames<NotificationMember>, _ senderNames: inout MemberNames<SenderMember>
    ) throws(JSONReader.Stop) {
        if index == ComposeRequest.typicalNotifications {
            request.reserve(notificationsRead: index, inBytes: reader.index, of: reader.bytes.count)
        }
        if decodeShapedNotification() { return }
        // The path is built only for a problem.
        let path = { "notifications[\(index)]" }
        var values = ObjectValues(scalars: tables.notificationScalars)
        _ = reader.peek()
        shape.begin(at: reader.index)
        try decodeMembers(&names, at: path(), of: .notification, into: &values) {
            decoder, member, values throws(JSONReader.Stop) in
            guard member == .sender else { return }
            try decoder.decodeMembers(
                &senderNames, at: FieldDecoding.path(path(), member.rawValue), of: .notification, into: &values
            ) { _, _, _ throws(JSONReader.Stop) in }
        }
        if !Self.hasRequired(tables.notificationRequired, values.ranges) {
            try requireMembers(NotificationMember.self, of: values, at: path())
        }
        shape.finish(end: reader.index, in: reader.bytes, rules: tables.notificationRules)
        request.appendNotification(&values.ranges, values.scalars, moment: values.moment!)
    }

    mutating func decodeDisplayedEntry(_ index: Int, _ names: inout MemberNames<DisplayedMember>)
        throws(JSONReader.Stop)
    {
        if decodeShapedDisplayedEntry() { return }
        let path = { "displayed[\(index)]" }
        var values = ObjectValues(scalars: DisplayedMember.startScalars)
        _ = reader.peek()
        displayedShape.begin(at: reader.index)
        try decodeMembers(&names, at: path(), of: .displayedEntry, into: &values) {
            decoder, member, values throws(JSONReader.Stop) in
            // The group key's own rule ran with the member; the count of distinct groups is the request's.
            guard member == .group else { return }
            let at = FieldDecoding.path(path(), member.rawValue)
            guard decoder.noteGroup(values.ranges[.group]) else {
                throw decoder.stop(
                    Problem(
                        .outOfRange,
                        "\(at) is a distinct group beyond the \(ComposeRequest.maxDisplayedGroups) displayed may name",
                        at: at))
            }
        }
        if values.ranges[.key].isAbsent && values.ranges[.group].isAbsent {
            let at = FieldDecoding.path(path(), DisplayedMember.key.rawValue)
            throw stop(Problem(.missingField, "\(at) is required when the entry has no group", at: at))
        }
        if !Self.hasRequired(tables.displayedRequired, values.ranges) {
            try requireMembers(DisplayedMember.self, of: values, at: path())
        }
        displayedShape.finish(end: reader.index, in: reader.bytes, rules: tables.displayedRules)
        request.appendDisplayed(
            key: values.ranges[.key], timestamp: values.ranges[.timestamp], moment: values.moment!,
            group: values.ranges[.group], extras: extras(values.ranges, values.scalars)!)
    }

    /// A displayed entry's `digest`, `alerted` and `direct` (compose.md
    /// 2.1) from its slots, their rules kept (`MemberRule`); nil when
    /// `alerted` is not a timestamp after all.
    mutating func extras(
        _ ranges: ComposeRequest.NotificationRanges, _ scalars: ComposeRequest.ScalarSlots
    ) -> ComposeRequest.DisplayedRecord.Extras? {
        var extras = ComposeRequest.DisplayedRecord.Extras()
        extras.direct = UInt8(truncatingIfNeeded: scalars[.direct])
        extras.digest = ranges[.digest]
        extras.alerted = ranges[.alerted]
        if !extras.alerted.isAbsent {
            guard let moment = moment(at: extras.alerted) else { return nil }
            extras.alertedMoment = moment
        }
        return extras
    }

    /// Whether `value` is a text digest (compose.md C15): 16 characters of
    /// `0`–`9` and `a`–`f`.
    static func isDigest(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        value.count == 16
            && value.allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            }
    }

    /// Whether `value` is a valid group key (compose.md C14): 1 to 64 bytes,
    /// each in U+0021…U+007E other than `"` and `\`.
    static func isGroupKey(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        (1...64).contains(value.count)
            && value.allSatisfy { $0 >= 0x21 && $0 <= 0x7E && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }

    /// Notes the valid group key at `range` among the request's distinct
    /// groups; false when it would be one more than
    /// `ComposeRequest.maxDisplayedGroups`. The last one noted is compared
    /// first: a relay's state names one group, or two.
    mutating func noteGroup(_ range: TextRange) -> Bool {
        let count = groupCount
        let found = request.bytes.withUnsafeBufferPointer { bytes -> Bool in
            let group = bytes[present: range]
            var index = count
            while index > 0 {
                index -= 1
                if CodePoints.equalBytes(bytes[present: groups[index]], group) { return true }
            }
            return false
        }
        if found { return true }
        guard count < ComposeRequest.maxDisplayedGroups else { return false }
        groups[count] = range
        groupCount = count + 1
        return true
    }

    /// Reads the object at the reader by `Member`'s table (`WireField`):
    /// each member's value by its kind, into its slot of `values`, noted in
    /// `owner`'s shape; a member the table does not have is refused
    /// (`unknownMember`). `member` is then called for each member read, to
    /// read an object member's value or check the member's own rule.
    private mutating func decodeMembers<Member: WireMember>(
        _ names: inout MemberNames<Member>, at path: @autoclosure () -> String, of owner: ShapeOwner,
        into values: inout ObjectValues,
        _ rule: (inout Self, Member, inout ObjectValues) throws(JSONReader.Stop) -> Void
    ) throws(JSONReader.Stop) {
        names.startObject()
        guard try reader.openObject(at: path()) else { return }
        repeat {
            guard let member = try reader.memberName(&names) else { throw unknownMember(Member.self, in: path()) }
            if try reader.skipNull() { continue }
            let field = member.field
            switch (field.kind, field.slot) {
            case (.string, .text(let slot)), (.words, .text(let slot)):
                values.ranges[slot] = try text(slot, of: owner, at: FieldDecoding.path(path(), member.rawValue))
                if field.rule != .none,
                    let problem = problem(
                        field, values.ranges[slot], at: { FieldDecoding.path(path(), member.rawValue) })
                {
                    throw stop(problem)
                }
            case (.timestamp, .text(let slot)):
                let timestamp = try self.timestamp(slot, of: owner, at: FieldDecoding.path(path(), member.rawValue))
                values.ranges[slot] = timestamp.range
                values.moment = timestamp.moment
            case (.boolean, .scalar(let slot, _)):
                values.scalars[slot] = try boolean(slot, of: owner, at: FieldDecoding.path(path(), member.rawValue))
            case (.integer(let bounds), .scalar(let slot, _)):
                values.scalars[slot] = try integer(
                    slot, in: bounds, of: owner, at: FieldDecoding.path(path(), member.rawValue))
            case (.object, .members), (.array, .members):
                break  // The rule reads it.
            default:
                preconditionFailure("\(member.rawValue): a wire table row whose kind and slot do not go together")
            }
            try rule(&self, member, &values)
        } while try reader.nextMember()
    }

    /// Throws the missing-member problem of the first required member whose
    /// slot `values` left absent, in table order; nothing when none is.
    @inline(never)
    private func requireMembers<Member: WireMember>(
        _: Member.Type, of values: ObjectValues, at path: @autoclosure () -> String
    ) throws(JSONReader.Stop) {
        for (member, slot) in Member.requiredTexts where values.ranges[slot].isAbsent {
            throw stop(FieldDecoding.missing(FieldDecoding.path(path(), member.rawValue)))
        }
    }
}
