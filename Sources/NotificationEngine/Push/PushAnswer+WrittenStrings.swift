/// The answer's `JSONStrings` kept beside it: its uncut texts and other
/// strings escaped once, when the builder makes it. The texts' costs are
/// their lengths (P20), the payloads are measured from them, and the
/// answer's `push` copies them into each payload, so a text is scanned once.
extension PushAnswer {
    struct WrittenStrings: Sendable {
        private let bytes: [UInt8]
        private let ends: JSONStringEnds

        /// The strings of an answer with these values and uncut `texts`
        /// (`withJSONStrings(of:_:)`'s). A function, not an initializer,
        /// whose parameters are owned: the texts and the identity would be copied in.
        static func of(
            _ texts: Texts, groupKey: String, topic: String, locale: String, androidChannel: String?,
            navigate: String?, stamp: Int64, identity: PushIdentity
        ) -> WrittenStrings {
            var estimate = 64 + texts.title.utf8.count + texts.body.utf8.count + groupKey.utf8.count
            estimate += topic.utf8.count + locale.utf8.count + identity.objects.count + identity.data.count
            estimate += (texts.subtitle?.utf8.count ?? 0) + (texts.url?.utf8.count ?? 0)
            estimate += (androidChannel?.utf8.count ?? 0) + (navigate?.utf8.count ?? 0)
            var ends = JSONStringEnds()
            let bytes = JSONWriter.bytes(capacity: estimate) { out in
                PushAnswer.writeJSONStrings(
                    of: texts, groupKey: groupKey, topic: topic, locale: locale, androidChannel: androidChannel,
                    navigate: navigate, stamp: stamp, identity: identity, to: &out, ends: &ends)
            }
            return WrittenStrings(bytes: bytes, ends: ends)
        }

        /// Calls `body` with the strings.
        @inline(__always)
        func withStrings<Result>(_ body: (JSONStrings) -> Result) -> Result {
            bytes.withUnsafeBufferPointer { body(ends.strings(in: $0)) }
        }
    }
}
