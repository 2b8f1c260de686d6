import HTTPCore

extension HTTPRequestID {
    /// The value's bytes, in place, for the reply head: a caller's id in its
    /// string's storage, an inline one in a copy of its words on the stack.
    /// Here, not in HTTPCore, which holds no raw memory (docs/adr/0032); the
    /// service's access log hands the two fields to the engine's JSON
    /// writer instead (docs/adr/0053).
    func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let ownText {
            if let result = ownText.utf8.withContiguousStorageIfAvailable(body) { return result }
            return Array(ownText.utf8).withUnsafeBufferPointer(body)
        }
        var words = inlineWords
        return withUnsafeBytes(of: &words) { body($0.bindMemory(to: UInt8.self)) }
    }
}
