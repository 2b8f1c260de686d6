/// The displayed texts of a composed notification as ranges of one UTF-8
/// buffer, as `Composer` writes them for a bundle: the reply copies them from
/// there, so no `String` is made per text (`content` makes them when asked).
package struct ComposedTexts: Sendable {
    /// Well-formed UTF-8 that the ranges point into.
    package internal(set) var bytes: [UInt8]
    package let title: TextRange
    /// Absent for none.
    package let subtitle: TextRange
    package let body: TextRange
    /// Absent for none.
    package let threadIdentifier: TextRange
    /// Absent for none.
    package let url: TextRange

    /// The texts as `String`s.
    var content: ComposeResponse.Content {
        bytes.withUnsafeBufferPointer { bytes in
            func string(_ range: TextRange) -> String? {
                bytes[range].map { String(decoding: $0, as: UTF8.self) }
            }
            return ComposeResponse.Content(
                title: string(title) ?? "", subtitle: string(subtitle), body: string(body) ?? "",
                threadIdentifier: string(threadIdentifier), url: string(url))
        }
    }

    /// Appends texts to one buffer and makes the `ComposedTexts` of them.
    struct Writer {
        private var bytes: [UInt8] = []

        /// - Parameter capacity: the bytes expected (more only make the buffer grow).
        init(capacity: Int) {
            bytes.reserveCapacity(capacity)
        }

        /// A writer into `storage` (emptied, and left with none), which a
        /// response before gave back (`ComposeRequest.Storage`).
        init(capacity: Int, reusing storage: inout [UInt8]) {
            swap(&bytes, &storage)
            bytes.removeAll(keepingCapacity: true)
            bytes.reserveCapacity(capacity)
        }

        /// Appends `utf8` (well-formed UTF-8) and returns its range.
        mutating func append(_ utf8: UnsafeBufferPointer<UInt8>) -> TextRange {
            let start = bytes.count
            bytes.append(contentsOf: utf8)
            return TextRange(start: start, count: utf8.count)
        }

        /// Appends `utf8` through the body cap (`BodyCap.apply`) at
        /// `maxUnits` and returns the range of the capped text.
        mutating func appendCapped(_ utf8: UnsafeBufferPointer<UInt8>, maxUnits: Int, inputCut: Bool) -> TextRange {
            let cap = BodyCap.cut(utf8, maxUnits: maxUnits, inputCut: inputCut, text: nil)
            let start = bytes.count
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[..<cap.kept]))
            if cap.truncated { bytes.append(contentsOf: BodyCap.ellipsis) }
            return TextRange(start: start, count: bytes.count - start)
        }

        /// The texts written, at the ranges given.
        /// - Important: append every text first, not in this call's
        ///   arguments: the writer is consumed before they are evaluated.
        consuming func texts(
            title: TextRange, subtitle: TextRange, body: TextRange, threadIdentifier: TextRange, url: TextRange
        ) -> ComposedTexts {
            ComposedTexts(
                bytes: bytes, title: title, subtitle: subtitle, body: body, threadIdentifier: threadIdentifier,
                url: url)
        }
    }
}
