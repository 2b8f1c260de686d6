import Synchronization

/// `X-Request-Id`: a caller's id is echoed when it is safe to echo, else a
/// fresh one is made, so every response and log line has one.
final class RequestIDGenerator: Sendable {
    /// Longer ids are replaced: they would bloat every log line.
    static let maxLength = 128

    private let prefix: UInt64
    private let counter = Atomic<UInt64>(0)

    init(prefix: UInt64 = UInt64.random(in: .min ... .max)) {
        self.prefix = prefix
    }

    /// A caller's id when it is 1…128 bytes of visible ASCII (0x21–0x7E), else nil.
    static func validated(_ raw: String?) -> String? {
        guard let raw else { return nil }
        let utf8 = raw.utf8
        guard !utf8.isEmpty, utf8.count <= maxLength, utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else { return nil }
        return raw
    }

    /// 32 lower-case hex digits: a random per-process prefix and a counter, so
    /// ids are unique across instances without a system call per request.
    func next() -> String {
        let sequence = counter.wrappingAdd(1, ordering: .relaxed).newValue
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 32) { buffer in
            let d = digits.utf8Start
            for i in 0..<16 {
                buffer[i] = d[Int((prefix >> UInt64(60 - 4 * i)) & 0xF)]
                buffer[16 + i] = d[Int((sequence >> UInt64(60 - 4 * i)) & 0xF)]
            }
            return 32
        }
    }
}
