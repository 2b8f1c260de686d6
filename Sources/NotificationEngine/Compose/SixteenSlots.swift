/// Sixteen values stored in place, read and written by index: what
/// `InlineArray<16, Element>` gives, for the platforms the library declares
/// (`InlineArray` needs iOS 26 and macOS 26; `make check-library` says so).
///
/// Two `EightSlots` side by side: index 0 to 7 in the first, 8 to 15 in the
/// second, so the read switch is written once, in `EightSlots`. The halves
/// are laid out one after the other, so the value's bytes are the sixteen
/// slots in order (what `furthestReach` and the shaped read's rules load;
/// `SixteenSlotsTests` checks it). Indices are
/// the caller's to keep in `0..<16`: a slot read with a raw value masked by
/// 15, as `NotificationRanges` does, needs no check.
package struct SixteenSlots<Element> {
    @usableFromInline
    var low: EightSlots<Element>
    @usableFromInline
    var high: EightSlots<Element>

    /// Every slot holds `value`.
    @inlinable
    package init(repeating value: Element) {
        low = EightSlots(repeating: value)
        high = EightSlots(repeating: value)
    }

    @inlinable
    package subscript(index: Int) -> Element {
        // A constant index folds the test away, as it folds the switch.
        @inline(__always) get {
            precondition(index & ~15 == 0, "slot index out of 0..<16")
            return index & 8 == 0 ? low[index & 7] : high[index & 7]
        }
        @inline(__always) set {
            precondition(index & ~15 == 0, "slot index out of 0..<16")
            setSlotValue(newValue, of: &self, at: index)
        }
    }
}

extension SixteenSlots: Sendable where Element: Sendable {}

/// Eight values stored in place, read and written by index: a record that a
/// response carries and copies (`ComposedTexts`), and each half of
/// `SixteenSlots`.
///
/// The values are one homogeneous tuple, which Swift lays out contiguously
/// like an array's elements, so a pointer to it is a pointer to its first
/// element and a store is one store at `index`.
package struct EightSlots<Element> {
    @usableFromInline
    var storage: (Element, Element, Element, Element, Element, Element, Element, Element)

    /// Every slot holds `value`.
    @inlinable
    package init(repeating value: Element) {
        storage = (value, value, value, value, value, value, value, value)
    }

    @inlinable
    package subscript(index: Int) -> Element {
        // Read by a switch, not through a pointer: a pointer to the tuple
        // makes the compiler copy the value holding it first (a whole
        // record read from an array, to read one of its ranges), where a
        // field is one load, and a constant index folds the switch away.
        @inline(__always) get {
            precondition(index & ~7 == 0, "slot index out of 0..<8")
            switch index {
            case 0: return storage.0
            case 1: return storage.1
            case 2: return storage.2
            case 3: return storage.3
            case 4: return storage.4
            case 5: return storage.5
            case 6: return storage.6
            default: return storage.7
            }
        }
        @inline(__always) set {
            precondition(index & ~7 == 0, "slot index out of 0..<8")
            setSlotValue(newValue, of: &storage, at: index)
        }
    }
}

extension EightSlots: Sendable where Element: Sendable {}

/// Stores `value` at `index` of `tuple`, a homogeneous tuple of `Element`s
/// (laid out as an array's elements) or two of them side by side, in
/// place: the slot types' one store.
@inlinable @inline(__always)
func setSlotValue<Tuple, Element>(_ value: Element, of tuple: inout Tuple, at index: Int) {
    withUnsafeMutablePointer(to: &tuple) {
        UnsafeMutableRawPointer($0).assumingMemoryBound(to: Element.self)[index] = value
    }
}
