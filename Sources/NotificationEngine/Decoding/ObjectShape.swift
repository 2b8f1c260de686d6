/// The bytes an object of a request's array (a notification, a displayed
/// entry) wrote around its string values, so the next object of the array
/// can be read as a comparison of those bytes and a scan of each string.
///
/// Clients write every notification of a request, and every displayed entry,
/// with the same members in the same order and the same spacing; only the
/// strings' contents differ.
/// When the general decoder reads an object it notes where each string value
/// starts and ends and which field it fills (`note`). The object is then a
/// sequence of literals and slots: literal 0 from the object's `{` through
/// the first value's opening quote, literal k from a value's closing quote
/// through the next value's opening quote, the last literal from the last
/// closing quote through the object's `}`. A boolean or a number is a slot
/// too (a scalar slot), with no quotes around it: the literal before it
/// ends at its first byte, the one after starts after its last. Everything
/// else of the object (member names, `:` and `,`, whitespace, a `null`,
/// `sender`'s braces) is inside a literal. Every name is one of its kind's:
/// the general path refuses any other (compose.md 2.2), so no shape holds one.
///
/// A later object whose literals are the same bytes, with a value of the
/// slot's kind in each slot, has the same members in the same order: the
/// general decoder would read it the same way, so its fields are the slots'
/// values, each still checked as its field requires (`WireField`).
///
/// The literals are copied into storage the shape owns when it is noted, so
/// a shape holds for any body, not only the one it came from: a thread's
/// first pass keeps its shapes from one request to the next (`KeptShapes`).
/// A shape with more than `literalCapacity` bytes of literals is not noted.
///
/// A shape owns its storage and frees it when it ends: it is `~Copyable`, so
/// no copy can outlive the storage, or share it with the shape it came from.
struct ObjectShape: ~Copyable {
    /// Where a string value goes: a notification's field, or a displayed
    /// entry's `key` (its `timestamp` is `timestamp`).
    typealias Slot = ComposeRequest.NotificationRanges.Field
    /// Where a boolean or an integer goes: a field's scalar slot.
    typealias ScalarSlot = ComposeRequest.ScalarSlots.Field

    /// What a slot holds.
    enum Kind: UInt8 {
        /// A string: the slot is a `Slot`.
        case text
        /// `true` or `false`: the slot is a `ScalarSlot`.
        case boolean
        /// An integer written as one, within the piece's bounds: a `ScalarSlot`.
        case integer
    }

    /// Slots a shape holds; an object with more strings has no shape.
    private static var capacity: Int { 24 }
    /// The bytes of literals a shape holds; an object with more has no shape.
    static var literalCapacity: Int { 1_024 }
    /// Zero bytes after the literals' room, so that the word `literalEnd`
    /// reads at a literal's end stays in the storage.
    private static var padding: Int { 8 }

    /// A literal and the slot after it (none after the last literal), with
    /// what matching it needs: two words compared under a mask, whatever
    /// its length, for literals of up to 16 bytes (nearly all of them).
    struct Piece {
        /// The literal's bytes in `literals`, once the object is noted.
        var literal: UnsafePointer<UInt8>?
        /// The bytes of a word that are the literal's: all, or the lowest
        /// `count` of a shorter literal (little-endian).
        var mask: UInt64
        /// Where the literal starts in the body, while the object is being noted.
        var start: Int32
        var count: Int32
        /// The bytes a match reads: the literal's, and at least a word (8).
        /// Its last word ends here.
        var reach: Int32
        /// The slot of a `text` piece (any for the others and the last literal).
        var slot: Slot
        /// The slot of any other kind's (any for a `text` piece).
        var scalar: ScalarSlot
        var kind: Kind
        /// An integer slot's allowed values.
        var lowest: Int64
        var highest: Int64
    }

    /// Piece k: literal k and slot k; piece `count`: the last literal.
    let pieces: UnsafeMutableBufferPointer<Piece>
    /// The literals' bytes, one after another, then `padding` zero bytes.
    /// Not initialized beyond those.
    let literals: UnsafeMutablePointer<UInt8>
    /// The number of slots.
    private(set) var count = 0
    /// The string slots whose member has a rule (`MemberRule`), one bit
    /// each by slot: those the shaped read checks, each filled by every
    /// object of the shape (a notification's `source`, nearly always alone).
    private(set) var ruledSlots: UInt16 = 0
    /// Whether the shape is complete and may be matched.
    private(set) var isKnown = false
    /// Where the next literal being noted starts: the object's `{` or the last closing quote.
    private var noted = 0

    /// Whether shapes are noted at all (tests turn them off to compare).
    private let isEnabled: Bool

    /// An unknown shape, in storage of its own until it ends.
    /// `isEnabled` false notes no shape at all.
    init(isEnabled: Bool) {
        let pieceBytes = MemoryLayout<Piece>.stride * (Self.capacity + 1)
        let block = UnsafeMutableRawPointer.allocate(
            byteCount: pieceBytes + Self.literalCapacity + Self.padding, alignment: MemoryLayout<Piece>.alignment)
        // Not initialized: a `Piece` is trivial, each is written (`note`,
        // `finish`) before it is read, and only pieces up to `count` of a
        // known shape are read; `finish` writes the literals and the padding
        // after them, all a match reads.
        literals = (block + pieceBytes).bindMemory(to: UInt8.self, capacity: Self.literalCapacity + Self.padding)
        pieces = UnsafeMutableBufferPointer(
            start: block.bindMemory(to: Piece.self, capacity: Self.capacity + 1), count: Self.capacity + 1)
        self.isEnabled = isEnabled
    }

    deinit {
        UnsafeMutableRawPointer(pieces.baseAddress.unsafelyUnwrapped).deallocate()
    }

    // MARK: Noting an object

    /// Starts noting the object whose `{` is at `start`; the shape is unknown until `finish`.
    @inline(__always)
    mutating func begin(at start: Int) {
        isKnown = false
        count = 0
        noted = start
    }

    /// Notes a string value: its opening quote at `open`, its closing quote at `close`.
    @inline(__always)
    mutating func note(_ slot: Slot, open: Int, close: Int) {
        guard count < Self.capacity else {
            count = Self.capacity + 1  // too many: no shape
            return
        }
        pieces[count] = Piece(noted, count: open &- noted &+ 1, slot: slot, kind: .text)
        count &+= 1
        noted = close
    }

    /// Notes a boolean or an integer of `kind` from `start` to `end` (the
    /// byte after it), for `slot`; an integer's allowed values are `bounds`.
    mutating func note(
        _ slot: ScalarSlot, _ kind: Kind, start: Int, end: Int, bounds: ClosedRange<Int> = Int.min...Int.max
    ) {
        guard count < Self.capacity else {
            count = Self.capacity + 1
            return
        }
        var piece = Piece(noted, count: start &- noted, slot: .id, kind: kind)
        piece.scalar = slot
        piece.lowest = Int64(bounds.lowerBound)
        piece.highest = Int64(bounds.upperBound)
        pieces[count] = piece
        count &+= 1
        noted = end
    }

    /// Ends the object of `body`: its `}` is the byte before `end`. Copies
    /// the literals into the shape's storage, and notes which of its string
    /// slots have a rule in `rules` (none without them); when the literals
    /// do not fit, the shape stays unknown.
    @inline(__always)
    mutating func finish(end: Int, in body: UnsafeBufferPointer<UInt8>, rules: SlotRules? = nil) {
        guard count <= Self.capacity, isEnabled, let base = body.baseAddress else { return }
        ruledSlots = 0
        pieces[count] = Piece(noted, count: end &- noted, slot: .id, kind: .text)
        var kept = 0
        for k in 0...count {
            let length = Int(pieces[k].count)
            guard length <= Self.literalCapacity &- kept else { return }
            UnsafeMutableRawPointer(literals + kept).copyMemory(from: base + Int(pieces[k].start), byteCount: length)
            // Through a local copy: the toolchain's ThreadSanitizer build
            // miscompiles (an invalid bitcast) the same writes made in
            // place through `pieces[k]` in this ~Copyable type.
            var piece = pieces[k]
            piece.literal = UnsafePointer(literals + kept)
            if k < count, piece.kind == .text, let rules, rules.rule(Int(piece.slot.rawValue)) != .none {
                ruledSlots |= 1 &<< piece.slot.rawValue
            }
            piece.prepare()
            pieces[k] = piece
            kept &+= length
        }
        (literals + kept).initialize(repeating: 0, count: Self.padding)
        isKnown = true
    }

}

extension ObjectShape.Piece {
    /// The literal of `count` bytes at `start` in the body; `finish` sets what matching it needs.
    @inline(__always)
    fileprivate init(_ start: Int, count: Int, slot: ObjectShape.Slot, kind: ObjectShape.Kind) {
        self.literal = nil
        self.mask = 0
        self.start = Int32(truncatingIfNeeded: start)
        self.count = Int32(truncatingIfNeeded: count)
        self.reach = 0
        self.slot = slot
        self.scalar = .read
        self.kind = kind
        self.lowest = 0
        self.highest = 0
    }

    /// The scalar of this piece's slot at `start` in `bytes`: where it ends
    /// and its value (a boolean's 1 or 0, an integer's value), when it is a
    /// value of the piece's kind; nil when not.
    static func scalar(_ piece: UnsafePointer<Self>, at start: Int, in bytes: UnsafeBufferPointer<UInt8>)
        -> (end: Int, value: Int64)?
    {
        switch piece.pointee.kind {
        case .boolean:
            if JSONReader.literal("true", at: start, in: bytes) { return (start &+ 4, 1) }
            if JSONReader.literal("false", at: start, in: bytes) { return (start &+ 5, 0) }
            return nil
        case .integer:
            guard let number = JSONReader.number(at: start, in: bytes), number.isInteger,
                let value = number.value, Int64(value) >= piece.pointee.lowest, Int64(value) <= piece.pointee.highest
            else { return nil }
            return (number.end, Int64(value))
        case .text:
            return nil
        }
    }

    /// Sets `reach` and `mask` from `count`.
    fileprivate mutating func prepare() {
        reach = max(count, 8)
        mask = count >= 8 ? ~0 : (1 &<< (8 &* UInt64(truncatingIfNeeded: count))) &- 1
    }

    /// Where the literal ends when the body, `bytes` at `base`, repeats it
    /// at `cursor`; nil when it does not. The piece is of a known shape.
    ///
    /// The words compared lie in the body: at `cursor`, the test of `reach`
    /// keeps them in. The literal's lie in the shape's storage: its words
    /// reach to its end, or at most 8 bytes past its start, so at most to
    /// the end of the zeroed padding after the last literal.
    @inline(__always)
    static func literalEnd(
        _ piece: UnsafePointer<Self>, at cursor: Int, in bytes: UnsafeBufferPointer<UInt8>,
        base: UnsafePointer<UInt8>
    ) -> Int? {
        guard _fastPath(bytes.count &- cursor >= Int(piece.pointee.reach)) else {
            return piece.pointee.slowLiteralEnd(at: cursor, in: bytes)
        }
        let length = Int(piece.pointee.count)
        let here = UnsafeRawPointer(base + cursor)
        let literal = UnsafeRawPointer(piece.pointee.literal.unsafelyUnwrapped)
        // Where the last word starts: 8 bytes before the literal's end, or at 0.
        let last = Int(piece.pointee.reach) &- 8
        let first = here.loadUnaligned(as: UInt64.self) ^ literal.loadUnaligned(as: UInt64.self)
        let final =
            here.loadUnaligned(fromByteOffset: last, as: UInt64.self)
            ^ literal.loadUnaligned(fromByteOffset: last, as: UInt64.self)
        guard (first | final) & UInt64(littleEndian: piece.pointee.mask) == 0 else { return nil }
        // The words between the first and the last, of a literal over 16 bytes.
        var offset = 8
        while offset < last {
            guard
                here.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    == literal.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            else { return nil }
            offset &+= 8
        }
        return cursor &+ length
    }

    /// `literalEnd` byte by byte, near the body's end, where a word would reach past it.
    @inline(never)
    private func slowLiteralEnd(at cursor: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let length = Int(count)
        guard bytes.count &- cursor >= length else { return nil }
        let literal = UnsafeBufferPointer(start: self.literal, count: length)
        return bytes[cursor..<cursor + length].elementsEqual(literal) ? cursor &+ length : nil
    }
}
