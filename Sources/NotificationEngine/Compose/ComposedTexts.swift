/// The displayed texts of a composed notification as ranges of one UTF-8
/// buffer, one range per member of the answer's table (`AnswerMember`), as
/// `Composer` writes them: the reply copies them from there, so no `String`
/// is made per text (`content` makes them when asked).
package struct ComposedTexts: Sendable {
    /// Well-formed UTF-8 that the ranges point into.
    package internal(set) var bytes: [UInt8]
    /// By `AnswerMember.slot`; absent for `null`.
    private let ranges: EightSlots<TextRange>

    /// The range of `member`'s text; absent for `null`.
    package subscript(member: AnswerMember) -> TextRange {
        ranges[member.slot]
    }

    /// The text of `member` as a `String`; nil for `null`.
    func string(_ member: AnswerMember) -> String? {
        bytes.withUnsafeBufferPointer { bytes in
            bytes[ranges[member.slot]].map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// The texts as `String`s.
    var content: ComposeResponse.Content {
        bytes.withUnsafeBufferPointer { bytes in
            ComposeResponse.Content { member in bytes[ranges[member.slot]].map { String(decoding: $0, as: UTF8.self) } }
        }
    }

    /// Appends texts to one buffer and makes the `ComposedTexts` of them:
    /// a composer appends each member's text and sets its range (`[member]`),
    /// the copied members (`appendCopies`) once for all.
    struct Writer {
        private var bytes: [UInt8] = []
        private var ranges = EightSlots<TextRange>(repeating: .absent)

        /// - Parameter capacity: the bytes expected (more only make the buffer grow).
        init(capacity: Int) {
            bytes.reserveCapacity(capacity)
        }

        /// A writer into `storage` (emptied, and left with none), which a
        /// response before gave back (`ComposeRequest.Storage`).
        init(capacity: Int, reusing storage: inout [UInt8]) {
            swap(&bytes, &storage)
            bytes.removeAll(keepingCapacity: true)
            bytes.reserveCapacity(capacity)
        }

        /// The range of `member`'s text: absent (`null`) until set.
        subscript(member: AnswerMember) -> TextRange {
            get { ranges[member.slot] }
            set { ranges[member.slot] = newValue }
        }

        /// Appends `utf8` (well-formed UTF-8) and returns its range.
        mutating func append(_ utf8: UnsafeBufferPointer<UInt8>) -> TextRange {
            let start = bytes.count
            bytes.append(contentsOf: utf8)
            return TextRange(start: start, count: utf8.count)
        }

        /// Appends `utf8` through the body cap (`BodyCap.apply`) at
        /// `maxUnits` and returns the range of the capped text.
        mutating func appendCapped(_ utf8: UnsafeBufferPointer<UInt8>, maxUnits: Int, inputCut: Bool) -> TextRange {
            let cap = BodyCap.cut(utf8, maxUnits: maxUnits, inputCut: inputCut, text: nil)
            let start = bytes.count
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[..<cap.kept]))
            if cap.truncated { bytes.append(contentsOf: BodyCap.ellipsis) }
            return TextRange(start: start, count: bytes.count - start)
        }

        /// Appends the text of every copied member (`AnswerMember.copiedField`:
        /// `copied` and `derived`) from `notification`, whose ranges are of
        /// `source`, and sets its range.
        mutating func appendCopies(
            of notification: ComposeRequest.NotificationRecord, from source: UnsafeBufferPointer<UInt8>
        ) {
            AnswerMember.forEach { member in
                guard let field = member.copiedField, let text = source[notification.ranges[field]] else { return }
                self[member] = append(text)
            }
        }

        /// The bytes `appendCopies` appends for `notification`.
        static func copiedByteCount(of notification: ComposeRequest.NotificationRecord) -> Int {
            var count = 0
            AnswerMember.forEach { member in
                if let field = member.copiedField { count += max(0, Int(notification.ranges[field].count)) }
            }
            return count
        }

        /// The texts written.
        consuming func texts() -> ComposedTexts {
            ComposedTexts(bytes: bytes, ranges: ranges)
        }
    }
}
