/// A growable buffer of trivial values for one render's scratch work, without
/// the uniqueness checks of `Array` on every append. Its owner frees it with
/// `deallocate()` when the render ends.
struct ScratchBuffer<Element: BitwiseCopyable> {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 4)
        storage = .allocate(capacity: self.capacity)
    }

    func deallocate() {
        storage.deallocate()
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        storage[count] = element
        count += 1
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: 2 * capacity)
        larger.update(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity *= 2
    }

    @inline(__always)
    subscript(index: Int) -> Element {
        get { storage[index] }
        nonmutating set { storage[index] = newValue }
    }

    /// Drops the elements from `index` on.
    @inline(__always)
    mutating func truncate(to index: Int) {
        count = index
    }

    mutating func removeAll() {
        count = 0
    }

    mutating func removeLast() -> Element {
        count -= 1
        return storage[count]
    }
}
