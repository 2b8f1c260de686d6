/// SHA-256 (FIPS 180-4) of a byte sequence, in plain Swift: the engine links
/// no crypto library, and push.md P4 hashes group keys and topics with it.
/// Not constant-time, which a digest of public identifiers does not need.
package enum SHA256 {
    /// The 32-byte digest of `bytes`.
    package static func digest(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        if let digest = bytes.withContiguousStorageIfAvailable({ withDigest(of: $0, Array.init) }) { return digest }
        return Array(bytes).withUnsafeBufferPointer { withDigest(of: $0, Array.init) }
    }

    /// Calls `body` with the 32-byte digest of `message`, held for the call:
    /// whole blocks are read in place, the last one or two (with the padding
    /// and the length) from a buffer of their own; nothing is allocated.
    package static func withDigest<Result>(
        of message: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 8 + 64) { words in
            let state = UnsafeMutableBufferPointer(rebasing: words[0..<8])
            let schedule = UnsafeMutableBufferPointer(rebasing: words[8..<72])
            let initial: [UInt32] = [
                0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
            ]
            for index in 0..<8 { state[index] = initial[index] }
            return roundConstants.withUnsafeBufferPointer { constants in
                let wholeBlocks = message.count / 64
                for block in 0..<wholeBlocks {
                    compress(
                        state, UnsafeBufferPointer(rebasing: message[(64 * block)..<(64 * block + 64)]), constants,
                        schedule)
                }
                return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
                    // The rest, 0x80, zeros, and the length in bits, big-endian, ending a block.
                    let rest = message.count - 64 * wholeBlocks
                    let tailCount = rest < 56 ? 64 : 128
                    tail.initialize(repeating: 0)
                    for index in 0..<rest { tail[index] = message[64 * wholeBlocks + index] }
                    tail[rest] = 0x80
                    let bits = UInt64(message.count) &* 8
                    for index in 0..<8 {
                        tail[tailCount - 8 + index] = UInt8(truncatingIfNeeded: bits >> (56 - 8 * UInt64(index)))
                    }
                    for block in 0..<(tailCount / 64) {
                        compress(
                            state, UnsafeBufferPointer(rebasing: tail[(64 * block)..<(64 * block + 64)]), constants,
                            schedule)
                    }
                    // The digest, big-endian, over the tail's first 32 bytes.
                    for (index, word) in state.enumerated() {
                        tail[4 * index] = UInt8(truncatingIfNeeded: word >> 24)
                        tail[4 * index + 1] = UInt8(truncatingIfNeeded: word >> 16)
                        tail[4 * index + 2] = UInt8(truncatingIfNeeded: word >> 8)
                        tail[4 * index + 3] = UInt8(truncatingIfNeeded: word)
                    }
                    return body(UnsafeBufferPointer(rebasing: tail[0..<32]))
                }
            }
        }
    }

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// One block of 64 bytes into `state` (8 words); `schedule` has room for 64 words.
    @inline(__always)
    private static func compress(
        _ state: UnsafeMutableBufferPointer<UInt32>, _ block: UnsafeBufferPointer<UInt8>,
        _ constants: UnsafeBufferPointer<UInt32>, _ schedule: UnsafeMutableBufferPointer<UInt32>
    ) {
        // Masking shifts: `>>` and `<<` would test for a shift past the width.
        @inline(__always) func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { x &>> n | x &<< (32 &- n) }
        for t in 0..<16 {
            schedule[t] =
                UInt32(block[4 &* t]) &<< 24 | UInt32(block[4 &* t &+ 1]) &<< 16 | UInt32(block[4 &* t &+ 2]) &<< 8
                | UInt32(block[4 &* t &+ 3])
        }
        for t in 16..<64 {
            let (w15, w2) = (schedule[t &- 15], schedule[t &- 2])
            let s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ w15 &>> 3
            let s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ w2 &>> 10
            schedule[t] = schedule[t &- 16] &+ s0 &+ schedule[t &- 7] &+ s1
        }
        var (a, b, c, d) = (state[0], state[1], state[2], state[3])
        var (e, f, g, h) = (state[4], state[5], state[6], state[7])
        // Eight rounds a step, each naming the working variables in its turn,
        // so none is moved between rounds.
        @inline(__always) func round(
            _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32,
            _ h: inout UInt32, _ t: Int
        ) {
            let t1 = h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ (g ^ e & (f ^ g)) &+ constants[t] &+ schedule[t]
            let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ (a & b | c & (a | b))
            d &+= t1
            h = t1 &+ t2
        }
        for t in stride(from: 0, to: 64, by: 8) {
            round(a, b, c, &d, e, f, g, &h, t)
            round(h, a, b, &c, d, e, f, &g, t &+ 1)
            round(g, h, a, &b, c, d, e, &f, t &+ 2)
            round(f, g, h, &a, b, c, d, &e, t &+ 3)
            round(e, f, g, &h, a, b, c, &d, t &+ 4)
            round(d, e, f, &g, h, a, b, &c, t &+ 5)
            round(c, d, e, &f, g, h, a, &b, t &+ 6)
            round(b, c, d, &e, f, g, h, &a, t &+ 7)
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
        state[5] &+= f
        state[6] &+= g
        state[7] &+= h
    }
}
