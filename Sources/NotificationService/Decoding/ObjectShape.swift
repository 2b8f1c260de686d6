@_spi(Engine) import NotificationText

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
/// closing quote through the object's `}`. Everything else of the object
/// (member names, `:` and `,`, whitespace, `read`'s `true`, a `null`, an
/// unknown member's number, `sender`'s braces) is inside a literal.
///
/// A later object whose literals are the same bytes, with a string in each
/// slot, has the same members in the same order and the same constant
/// values: the general decoder would read it the same way, so its fields are
/// the slots' strings (each still checked as its field requires) and the
/// constants' values (`read`). The literals are ranges of the body itself.
struct ObjectShape {
    /// Where a string value goes.
    enum Slot: UInt8 {
        case id, source, type, timestamp, thread, threadTitle, senderID, senderName, text, defaultText, url
        /// A displayed entry's key (its `timestamp` is `timestamp`).
        case key
        /// An unknown member's string: read and checked, not kept.
        case ignored
    }

    /// Slots a shape holds; an object with more strings has no shape.
    private static var capacity: Int { 24 }

    /// A literal and the slot after it (none after the last literal).
    struct Piece {
        /// Where the literal's bytes are in the body.
        var start: Int32
        var count: Int32
        var slot: Slot
    }

    /// Piece k: literal k and slot k; piece `count`: the last literal. In
    /// memory the decoder lends for one body (`withShapes`), so reading a
    /// shape copies nothing.
    let pieces: UnsafeMutableBufferPointer<Piece>
    /// The number of slots.
    private(set) var count = 0
    /// The value of `read` the literals spell (false when they do not name it).
    private(set) var read = false
    /// Whether the shape is complete and may be matched.
    private(set) var isKnown = false
    /// Where the next literal being noted starts: the object's `{` or the last closing quote.
    private var noted = 0

    /// Whether shapes are noted at all (tests turn them off to compare).
    private let isEnabled: Bool

    private init(_ pieces: UnsafeMutableBufferPointer<Piece>, isEnabled: Bool) {
        precondition(pieces.count > Self.capacity, "room for every piece")
        self.pieces = pieces
        self.isEnabled = isEnabled
    }

    /// Calls `body` with a notification's shape and a displayed entry's, in
    /// memory on the stack; `isEnabled` false notes no shape at all.
    static func withShapes<Result>(
        isEnabled: Bool, _ body: (_ notification: ObjectShape, _ displayed: ObjectShape) throws(Problem) -> Result
    ) throws(Problem) -> Result {
        let size = capacity + 1
        let outcome = withUnsafeTemporaryAllocation(of: Piece.self, capacity: 2 * size) {
            pieces -> Swift.Result<Result, Problem> in
            pieces.initialize(repeating: Piece(start: 0, count: 0, slot: .ignored))
            do throws(Problem) {
                return .success(
                    try body(
                        ObjectShape(UnsafeMutableBufferPointer(rebasing: pieces[0..<size]), isEnabled: isEnabled),
                        ObjectShape(UnsafeMutableBufferPointer(rebasing: pieces[size...]), isEnabled: isEnabled)))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
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
        pieces[count] = Piece(
            start: Int32(truncatingIfNeeded: noted), count: Int32(truncatingIfNeeded: open &- noted &+ 1), slot: slot)
        count &+= 1
        noted = close
    }

    /// Ends the object: its `}` is the byte before `end`; `read` is the value it gave.
    @inline(__always)
    mutating func finish(end: Int, read: Bool) {
        guard count <= Self.capacity, isEnabled else { return }
        pieces[count] = Piece(
            start: Int32(truncatingIfNeeded: noted), count: Int32(truncatingIfNeeded: end &- noted), slot: .ignored)
        self.read = read
        isKnown = true
    }

}

extension ObjectShape.Piece {
    /// Where the literal ends when the body repeats it at `cursor`; nil when it does not.
    @inline(__always)
    func literalEnd(at cursor: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let length = Int(count)
        guard bytes.count &- cursor >= length, let base = bytes.baseAddress else { return nil }
        let same = CodePoints.equalBytes(
            UnsafeBufferPointer(start: base + cursor, count: length),
            UnsafeBufferPointer(start: base + Int(start), count: length))
        return same ? cursor &+ length : nil
    }
}
