/// Hashes of keys and names by their UTF-8 bytes (code points, not canonical
/// equivalence), for compose's open-addressing tables.
///
/// SipHash-1-3, the function behind the stdlib's `Hasher`, keyed by a value
/// drawn once per process from `Hasher`'s randomly seeded state: crafted keys
/// cannot force collisions, exactly as with `Hasher`. It is written out here
/// because a short key then costs about a third of `Hasher`'s
/// `combine(bytes:)` plus `finalize()`, and compose hashes every key it sees.
struct KeyHash {
    private let k0: UInt64
    private let k1: UInt64

    /// The process's key, so every table of a run agrees (and
    /// `SWIFT_DETERMINISTIC_HASHING` makes runs reproducible, as for `Hasher`).
    private static let processKey: (UInt64, UInt64) = {
        var first = Hasher()
        first.combine(UInt64(0x6b65_7968_6173_6830))
        var second = Hasher()
        second.combine(UInt64(0x6b65_7968_6173_6831))
        return (UInt64(UInt(bitPattern: first.finalize())), UInt64(UInt(bitPattern: second.finalize())))
    }()

    init() {
        (k0, k1) = Self.processKey
    }

    /// A fixed key, for testing against published vectors.
    init(k0: UInt64, k1: UInt64) {
        self.k0 = k0
        self.k1 = k1
    }

    @inline(__always)
    func hash(_ utf8: UnsafeBufferPointer<UInt8>) -> UInt64 {
        sipHash(utf8, compressionRounds: 1, finalizationRounds: 3)
    }

    /// A cheaper hash, for tables that never hold more than a few dozen keys
    /// (`QuickKeyHashing.maxKeys`): up to three words of `utf8` (all
    /// of it up to 16 bytes) and its length, each keyed by the process's key,
    /// folded by one full-width multiply. Crafted keys can make these collide,
    /// but a table that small bounds the damage: at most n(n − 1)/2 key comparisons.
    @inline(__always)
    func quickHash(_ utf8: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let count = utf8.count
        var first: UInt64 = 0
        var last: UInt64 = 0
        if count > 0, let base = UnsafeRawPointer(utf8.baseAddress) {
            if count >= 8 {
                first = UInt64(littleEndian: base.loadUnaligned(as: UInt64.self))
                last = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
                if count > 16 {
                    let middle = UInt64(
                        littleEndian: base.loadUnaligned(fromByteOffset: count &>> 1 &- 4, as: UInt64.self))
                    first ^= middle.rotatedLeft(29)
                }
            } else if count >= 4 {
                first = UInt64(UInt32(littleEndian: base.loadUnaligned(as: UInt32.self)))
                last = UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)))
            } else {
                first = UInt64(base.load(as: UInt8.self))
                first |= UInt64(base.load(fromByteOffset: count &>> 1, as: UInt8.self)) &<< 8
                first |= UInt64(base.load(fromByteOffset: count &- 1, as: UInt8.self)) &<< 16
            }
        }
        let lengthWord = UInt64(truncatingIfNeeded: count) &* 0x9e37_79b9_7f4a_7c15
        let product = (first ^ k0).multipliedFullWidth(by: last ^ k1 ^ lengthWord)
        return product.high ^ product.low
    }

    /// SipHash-c-d of `bytes` (Aumasson and Bernstein, 2012).
    @inline(__always)
    func sipHash(_ bytes: UnsafeBufferPointer<UInt8>, compressionRounds c: Int, finalizationRounds d: Int) -> UInt64 {
        var state = State(
            v0: k0 ^ 0x736f_6d65_7073_6575, v1: k1 ^ 0x646f_7261_6e64_6f6d,
            v2: k0 ^ 0x6c79_6765_6e65_7261, v3: k1 ^ 0x7465_6462_7974_6573
        )
        let count = bytes.count
        var offset = 0
        if let base = bytes.baseAddress {
            while offset + 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
                state.compress(word, rounds: c)
                offset += 8
            }
        }
        // The last block: the remaining 0…7 bytes, little-endian, and the
        // length's low byte on top. The bytes are read with at most three
        // loads, overlapping ones, rather than one at a time.
        var last = UInt64(truncatingIfNeeded: count) &<< 56
        let rest = count &- offset
        if rest > 0, let base = UnsafeRawPointer(bytes.baseAddress) {
            if count >= 8 {
                // The last eight bytes; the remaining ones are their top `rest`.
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
                last |= word &>> UInt64(64 &- 8 &* rest)
            } else if rest >= 4 {
                let low = UInt64(UInt32(littleEndian: base.loadUnaligned(as: UInt32.self)))
                let high = UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: rest &- 4, as: UInt32.self)))
                last |= low | high &<< UInt64(8 &* (rest &- 4))
            } else {
                // The first, middle and last of one to three bytes.
                let middle = rest &>> 1
                last |= UInt64(base.load(as: UInt8.self))
                last |= UInt64(base.load(fromByteOffset: middle, as: UInt8.self)) &<< UInt64(8 &* middle)
                last |= UInt64(base.load(fromByteOffset: rest &- 1, as: UInt8.self)) &<< UInt64(8 &* (rest &- 1))
            }
        }
        state.compress(last, rounds: c)
        state.v2 ^= 0xff
        for _ in 0..<d { state.round() }
        return state.v0 ^ state.v1 ^ state.v2 ^ state.v3
    }

    private struct State {
        var v0, v1, v2, v3: UInt64

        @inline(__always)
        mutating func compress(_ word: UInt64, rounds: Int) {
            v3 ^= word
            for _ in 0..<rounds { round() }
            v0 ^= word
        }

        @inline(__always)
        mutating func round() {
            v0 &+= v1
            v1 = v1.rotatedLeft(13)
            v1 ^= v0
            v0 = v0.rotatedLeft(32)
            v2 &+= v3
            v3 = v3.rotatedLeft(16)
            v3 ^= v2
            v0 &+= v3
            v3 = v3.rotatedLeft(21)
            v3 ^= v0
            v2 &+= v1
            v1 = v1.rotatedLeft(17)
            v1 ^= v2
            v2 = v2.rotatedLeft(32)
        }
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 {
        (self &<< count) | (self &>> (64 - count))
    }
}
