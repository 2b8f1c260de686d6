/// A growable buffer of trivial values for one render's scratch work, without
/// the uniqueness checks of `Array` on every append. It frees the memory it
/// allocated when it ends; `~Copyable`, so no copy can outlive that memory.
struct ScratchBuffer<Element: BitwiseCopyable>: ~Copyable {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0
    /// False while `storage` is the caller's memory (`init(capacity:startingIn:after:atLeast:)`),
    /// which the buffer neither frees nor keeps once it grows.
    private var ownsStorage: Bool

    init(capacity: Int) {
        self.capacity = max(capacity, 4)
        storage = .allocate(capacity: self.capacity)
        ownsStorage = true
    }

    /// A buffer that starts in `memory` (which must outlive it) after its
    /// first `used` bytes, advancing `used` past what it takes: with room for
    /// `capacity` values there, or for fewer but at least `minimum` (all of
    /// `capacity` by default); else in `capacity` values of its own. Growing
    /// moves it to memory of its own.
    @inline(__always)
    init(
        capacity: Int, startingIn memory: UnsafeMutableRawBufferPointer, after used: inout Int,
        atLeast minimum: Int? = nil
    ) {
        let alignment = MemoryLayout<Element>.alignment
        let start = (used + alignment - 1) & -alignment
        let room = memory.count > start ? (memory.count - start) / MemoryLayout<Element>.stride : 0
        if let base = memory.baseAddress, Int(bitPattern: base) % alignment == 0, room >= max(1, minimum ?? capacity) {
            self.capacity = min(capacity, room)
            storage = (base + start).bindMemory(to: Element.self, capacity: self.capacity)
            ownsStorage = false
            used = start + self.capacity * MemoryLayout<Element>.stride
        } else {
            self.capacity = max(capacity, 4)
            storage = .allocate(capacity: self.capacity)
            ownsStorage = true
        }
    }

    /// Frees the memory the buffer allocated (not the caller's it started in).
    deinit {
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
