/// A request's buffers, handed from one request to the next: a filler that
/// makes many requests, one at a time, fills each into the storage the one
/// before gave back, so a typical request allocates none of them.
extension ComposeRequest {
    /// The buffers of a request, empty, with the room they had.
    @_spi(Engine) public struct Storage: Sendable {
        var bytes: [UInt8] = []
        var notificationRecords: [NotificationRecord] = []
        var displayedRecords: [DisplayedRecord] = []

        /// No room yet.
        @_spi(Engine) public init() {}

        /// Storage larger than this many bytes per buffer is not kept, so
        /// one large request does not hold its memory for the thread's life.
        @_spi(Engine) public static var maxKeptBytes: Int { 64 * 1024 }

        /// The bytes of room in each buffer (tests check what is kept).
        @_spi(Engine) public var capacities: (bytes: Int, notifications: Int, displayed: Int) {
            (bytes.capacity, notificationRecords.capacity, displayedRecords.capacity)
        }
    }

    /// A request whose ranges will point into a copy of `body` (a request
    /// body) made in `storage`, with room after it for typical keys
    /// (`reserve(notifications:)` then finds it), otherwise as
    /// `init(bytes:serverApp:catalog:)`.
    @_spi(Engine) public init(
        copying body: UnsafeBufferPointer<UInt8>, into storage: consuming Storage, serverApp: String,
        catalog: Catalog = CatalogSet.builtIn.defaultCatalog
    ) {
        self.init(bytes: [], serverApp: serverApp, catalog: catalog)
        // Swapped, not assigned: a copy would share the buffers until
        // `storage` ends, and growing a shared buffer copies it.
        swap(&bytes, &storage.bytes)
        swap(&notificationRecords, &storage.notificationRecords)
        swap(&displayedRecords, &storage.displayedRecords)
        bytes.reserveCapacity(body.count + Self.keyRoomBytes(notifications: Self.typicalNotifications))
        bytes.append(contentsOf: body)
    }

    /// Takes the request's buffers, emptied, for the next request (the
    /// request is left with none):
    /// those over `Storage.maxKeptBytes` are dropped. Call it once nothing
    /// made from the request is left (its response shares `bytes`): a
    /// buffer still shared is emptied into a new one of the same room,
    /// which costs an allocation, and the sharer keeps its own.
    @_spi(Engine) public mutating func takeStorage() -> Storage {
        var storage = Storage()
        Self.keep(&bytes, in: &storage.bytes)
        Self.keep(&notificationRecords, in: &storage.notificationRecords)
        Self.keep(&displayedRecords, in: &storage.displayedRecords)
        return storage
    }

    /// Moves `array` into `kept`, emptied, when it is small enough.
    @inline(__always)
    private static func keep<Element>(_ array: inout [Element], in kept: inout [Element]) {
        guard array.capacity * MemoryLayout<Element>.stride <= Storage.maxKeptBytes else { return }
        array.removeAll(keepingCapacity: true)
        swap(&array, &kept)
    }

    /// Notifications a request is assumed to have before its array is read.
    @_spi(Engine) public static var typicalNotifications: Int { 32 }
}
