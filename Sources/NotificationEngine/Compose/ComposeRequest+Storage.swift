/// A request's buffers, and those of the response composed from it, handed
/// from one request to the next: a filler that makes many requests, one at a
/// time, fills each into the storage the one before gave back, so a typical
/// request and its response allocate none of them.
extension ComposeRequest {
    /// The buffers of a request and its response, empty, with the room they had.
    package struct Storage: Sendable {
        var bytes: [UInt8] = []
        var notificationRecords: [NotificationRecord] = []
        var displayedRecords: [DisplayedRecord] = []
        /// The response's key records (`ComposeResponse.records`).
        var responseRecords: [ComposeResponse.KeyRecord] = []
        /// The response's texts (`ComposedTexts.bytes`).
        var responseTexts: [UInt8] = []

        /// No room yet.
        package init() {}

        /// A buffer larger than this many bytes is not kept, so one large
        /// request does not hold its memory for the thread's life.
        package static var maxKeptBytes: Int { 64 * 1024 }

        /// The room of each buffer, in elements (tests check what is kept).
        package var capacities: [Int] {
            [
                bytes.capacity, notificationRecords.capacity, displayedRecords.capacity, responseRecords.capacity,
                responseTexts.capacity,
            ]
        }

        /// Moves `array` into `kept`, emptied, when it is small enough.
        /// - Important: emptying a buffer another value shares allocates a
        ///   new one (the sharer keeps its own): call it on the last holder.
        @inline(__always)
        static func keep<Element>(_ array: inout [Element], in kept: inout [Element]) {
            guard array.capacity * MemoryLayout<Element>.stride <= maxKeptBytes else { return }
            array.removeAll(keepingCapacity: true)
            swap(&array, &kept)
        }
    }

    /// A request whose ranges will point into a copy of `body` (a request
    /// body) made in `storage`, with room after it for typical keys
    /// (`reserve(notifications:)` then finds it), otherwise as
    /// `init(bytes:serverApp:catalog:)`. It takes the request's buffers
    /// from `storage` and leaves the response's there, for
    /// `Composer.compose(_:reusing:)`.
    package init(
        copying body: UnsafeBufferPointer<UInt8>, into storage: inout Storage, serverApp: String,
        catalog: Catalog = CatalogSet.builtIn.defaultCatalog
    ) {
        self.init(bytes: [], serverApp: serverApp, catalog: catalog)
        // Swapped, not assigned: a copy would share the buffers, and
        // growing a shared buffer copies it.
        swap(&bytes, &storage.bytes)
        swap(&notificationRecords, &storage.notificationRecords)
        swap(&displayedRecords, &storage.displayedRecords)
        // Keys are shorter than the notifications they name: an eighth of
        // the body is room for most requests' keys, so a large body is not
        // copied again when its keys are made.
        bytes.reserveCapacity(
            body.count + Swift.max(Self.keyRoomBytes(notifications: Self.typicalNotifications), body.count / 8))
        bytes.append(contentsOf: body)
    }

    /// Moves the request's buffers, emptied, into `storage` for the next
    /// request (the request is left with none); those over
    /// `Storage.maxKeptBytes` are dropped. Call it once nothing made from
    /// the request is left (its response shares `bytes`: give the
    /// response's storage first, `ComposeResponse.giveStorage(to:)`).
    package mutating func giveStorage(to storage: inout Storage) {
        Storage.keep(&bytes, in: &storage.bytes)
        Storage.keep(&notificationRecords, in: &storage.notificationRecords)
        Storage.keep(&displayedRecords, in: &storage.displayedRecords)
    }

    /// Notifications a request is assumed to have before its array is read.
    package static var typicalNotifications: Int { 32 }
}

extension ComposeResponse {
    /// Gives the response's buffers (its records and texts), emptied, to
    /// `storage`, for the next request's response (`ComposeRequest.Storage`).
    /// Give it before the request's (`ComposeRequest.giveStorage(to:)`):
    /// the response shares the request's bytes.
    package consuming func giveStorage(to storage: inout ComposeRequest.Storage) {
        ComposeRequest.Storage.keep(&records, in: &storage.responseRecords)
        if var texts = takeComposedTexts() {
            ComposeRequest.Storage.keep(&texts.bytes, in: &storage.responseTexts)
        }
    }
}
