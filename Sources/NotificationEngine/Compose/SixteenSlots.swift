/// Sixteen values stored in place, read and written by index: what
/// `InlineArray<16, Element>` gives, for the platforms the library declares
/// (`InlineArray` needs iOS 26 and macOS 26; `make check-library` says so).
///
/// The values are one homogeneous tuple, which Swift lays out contiguously
/// like an array's elements, so a pointer to it is a pointer to its first
/// element and an access is one load or store at `index`. Indices are the caller's to keep in `0..<16`: a slot read with a
/// raw value masked by 15, as `NotificationRanges` does, needs no check.
package struct SixteenSlots<Element> {
    @usableFromInline
    var storage:
        (
            Element, Element, Element, Element, Element, Element, Element, Element,
            Element, Element, Element, Element, Element, Element, Element, Element
        )

    /// Every slot holds `value`.
    @inlinable
    package init(repeating value: Element) {
        storage = (
            value, value, value, value, value, value, value, value,
            value, value, value, value, value, value, value, value
        )
    }

    @inlinable
    package subscript(index: Int) -> Element {
        @inline(__always) get {
            precondition(index & ~15 == 0, "slot index out of 0..<16")
            return slotValue(of: storage, at: index)
        }
        @inline(__always) set {
            precondition(index & ~15 == 0, "slot index out of 0..<16")
            setSlotValue(newValue, of: &storage, at: index)
        }
    }
}

extension SixteenSlots: Sendable where Element: Sendable {}

/// Eight values stored in place, as `SixteenSlots` stores sixteen: for a
/// record that a response carries and copies (`ComposedTexts`), where the
/// room of sixteen would be copied with it.
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
        @inline(__always) get {
            precondition(index & ~7 == 0, "slot index out of 0..<8")
            return slotValue(of: storage, at: index)
        }
        @inline(__always) set {
            precondition(index & ~7 == 0, "slot index out of 0..<8")
            setSlotValue(newValue, of: &storage, at: index)
        }
    }
}

extension EightSlots: Sendable where Element: Sendable {}

/// The element at `index` of `tuple`, a homogeneous tuple of `Element`s
/// (laid out as an array's elements): the slot types' one load.
@inlinable @inline(__always)
func slotValue<Tuple, Element>(of tuple: Tuple, at index: Int) -> Element {
    withUnsafePointer(to: tuple) { UnsafeRawPointer($0).assumingMemoryBound(to: Element.self)[index] }
}

/// Stores `value` at `index` of `tuple`, as `slotValue` reads it.
@inlinable @inline(__always)
func setSlotValue<Tuple, Element>(_ value: Element, of tuple: inout Tuple, at index: Int) {
    withUnsafeMutablePointer(to: &tuple) {
        UnsafeMutableRawPointer($0).assumingMemoryBound(to: Element.self)[index] = value
    }
}
