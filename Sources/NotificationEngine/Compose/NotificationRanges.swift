extension ComposeRequest {
    /// A notification's texts as ranges, one slot per field (`Field`), held
    /// as one value: a filler writes each range into its slot as it reads
    /// it, and the record keeps the value as it was written.
    package struct NotificationRanges: Sendable {
        /// A slot: a notification's field, or a displayed entry's `key`.
        package enum Field: UInt8, Sendable, CaseIterable {
            case id, source, type
            /// `source:id`, or `id` when the source is absent or empty
            /// (`appendNotification` writes it); a displayed entry's key.
            /// Just before `timestamp`: compose reads the two together.
            case key
            case timestamp, senderID, senderName, thread, threadTitle, text, defaultText, url
            /// A displayed entry's `group` (compose.md C14).
            case group
            /// A displayed entry's `digest` (C15); a notification's
            /// `importance` (`importance`), which has no digest.
            case digest
            /// A displayed entry's `alerted` (S3).
            case alerted
            /// A notification's `sender.avatar`.
            case senderAvatar

            /// A notification's `importance` (compose.md 2.1) shares the
            /// slot of a displayed entry's `digest`: the two objects fill
            /// their own records, and the 16 slots are all taken.
            package static let importance = Field.digest
        }

        /// By `Field.rawValue`. Room for 16, so that a raw value masked by
        /// 15 needs no bounds check (`SlotCapacityTests` fails when `Field`
        /// has more).
        @usableFromInline
        var slots: SixteenSlots<TextRange>

        /// Every slot absent.
        @inlinable
        package init() {
            slots = SixteenSlots(repeating: .absent)
        }

        @inlinable
        package subscript(field: Field) -> TextRange {
            @inline(__always) get { slots[Int(field.rawValue & 15)] }
            @inline(__always) set { slots[Int(field.rawValue & 15)] = newValue }
        }

        /// The furthest byte any slot's range reaches (`ComposeRequest.reach`;
        /// 0 when every slot is absent): every slot is read, so a field
        /// added to `Field` is checked with the others. The slots are read
        /// as the tuple's bytes, each loaded in place: a loop of
        /// `slots[index]` copies the tuple at every step (bench/README.md,
        /// "What each decision is worth").
        package var furthestReach: Int {
            withUnsafeBytes(of: slots) { raw in
                var reach = 0
                let stride = MemoryLayout<TextRange>.stride
                for offset in Swift.stride(from: 0, to: 16 * stride, by: stride) {
                    reach = max(reach, ComposeRequest.reach(raw.load(fromByteOffset: offset, as: TextRange.self)))
                }
                return reach
            }
        }
    }
}

extension ComposeRequest {
    /// A notification's values that are not texts (booleans and integers),
    /// one slot per field (`Field`), beside its `NotificationRanges`: the
    /// decoder writes each where its wire table (`NotificationMember.field`)
    /// says, starting from the table's defaults.
    package struct ScalarSlots: Sendable, Equatable {
        /// A slot: a field.
        package enum Field: UInt8, Sendable, CaseIterable {
            /// A notification's `read`.
            case read
            /// A displayed entry's `direct`: 0 false, 1 true, 2 absent.
            case direct
            /// A notification's `threadIsGroup`.
            case threadIsGroup
        }

        /// Room for 4 (`SlotCapacityTests` fails when `Field` has
        /// more): booleans are 0 or 1, integers as read.
        private var first: Int64 = 0
        private var second: Int64 = 0
        private var third: Int64 = 0
        private var fourth: Int64 = 0

        /// Every slot 0 (false).
        package init() {}

        package subscript(field: Field) -> Int64 {
            @inline(__always) get {
                switch field.rawValue & 3 {
                case 0: first
                case 1: second
                case 2: third
                default: fourth
                }
            }
            @inline(__always) set {
                switch field.rawValue & 3 {
                case 0: first = newValue
                case 1: second = newValue
                case 2: third = newValue
                default: fourth = newValue
                }
            }
        }
    }
}
