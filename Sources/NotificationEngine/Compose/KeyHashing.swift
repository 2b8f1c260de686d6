/// How `DisplayedState` hashes keys, and for at most how many.
protocol KeyHashing {
    init()
    /// The most keys (entries and notifications) a table may hash this way.
    static var maxKeys: Int { get }
    func hash(_ utf8: UnsafeBufferPointer<UInt8>) -> UInt64
}

/// `KeyHash`'s SipHash-1-3, for any number of keys.
struct SipKeyHashing: KeyHashing {
    private let key = KeyHash()
    static var maxKeys: Int { .max }

    @inline(__always)
    func hash(_ utf8: UnsafeBufferPointer<UInt8>) -> UInt64 { key.hash(utf8) }
}

/// `KeyHash.quickHash`, for tables of at most 32 keys: even keys crafted to
/// collide cost at most 32 comparisons each, and a typical request's twenty
/// keys cost a fraction of SipHash's rounds.
struct QuickKeyHashing: KeyHashing {
    private let key = KeyHash()
    static var maxKeys: Int { 32 }

    @inline(__always)
    func hash(_ utf8: UnsafeBufferPointer<UInt8>) -> UInt64 { key.quickHash(utf8) }
}
