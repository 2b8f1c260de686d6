/// A growable buffer of trivial values for one render's scratch work, without
/// the uniqueness checks of `Array` on every append. Its owner frees it with
/// `deallocate()` when the render ends.
struct ScratchBuffer<Element: BitwiseCopyable> {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0
    /// False while `storage` is the caller's memory (`init(in:capacity:)`),
    /// which the buffer neither frees nor keeps once it grows.
    private var ownsStorage: Bool

    init(capacity: Int) {
        self.capacity = max(capacity, 4)
        storage = .allocate(capacity: self.capacity)
        ownsStorage = true
    }

    /// A buffer that starts in `capacity` values of the caller's memory at
    /// `storage`, which must outlive it; growing moves it to memory of its own.
    init(in storage: UnsafeMutablePointer<Element>, capacity: Int) {
        precondition(capacity > 0, "a scratch buffer needs room for one value")
        self.storage = storage
        self.capacity = capacity
        ownsStorage = false
    }

    /// Frees the memory the buffer grew into (not the caller's it started in).
    func deallocate() {
        if ownsStorage { storage.deallocate() }
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
        if ownsStorage { storage.deallocate() }
        storage = larger
        ownsStorage = true
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
