#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits input chunks into lines of at most `maxLineBytes` bytes (without
/// the `\n`); a longer line is reported as `.tooLong` once its end is found,
/// and only `maxLineBytes` of it are ever held. The command line's
/// `--json-lines` reads with it (the chunks `ProcessIO.readChunks` hands
/// out): it is here, not there, for `memchr`, which finds a line's end
/// several times faster than a byte-by-byte search (docs/adr/0032).
package struct LineSplitter {
    package enum Line: Equatable {
        case complete([UInt8])
        case tooLong
    }

    package let maxLineBytes: Int
    /// The start of a line whose end is in a later chunk.
    private var pending: [UInt8] = []
    /// The current line is over the limit: its bytes are dropped up to its end.
    private var overLimit = false

    package init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    /// The lines `chunk` ends, the first one joined to what earlier chunks
    /// left pending; the rest is held (or, over the limit, dropped) until a
    /// later chunk ends it.
    package mutating func feed(_ chunk: ArraySlice<UInt8>, _ each: (Line) -> Void) {
        chunk.withUnsafeBufferPointer { feed($0, each) }
    }

    private mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, _ each: (Line) -> Void) {
        guard let base = chunk.baseAddress else { return }
        var start = 0
        while start < chunk.count {
            let rest = chunk.count - start
            guard let found = memchr(base + start, 0x0A, rest) else {
                hold(UnsafeBufferPointer(start: base + start, count: rest))
                return
            }
            let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            let piece = UnsafeBufferPointer(rebasing: chunk[start..<end])
            if overLimit || pending.count + piece.count > maxLineBytes {
                each(.tooLong)
            } else if pending.isEmpty {
                each(.complete(Array(piece)))
            } else {
                pending.append(contentsOf: piece)
                each(.complete(pending))
            }
            pending = []
            overLimit = false
            start = end + 1
        }
    }

    /// The end of the input: a last line without `\n` is a line too.
    package mutating func finish(_ each: (Line) -> Void) {
        if overLimit {
            each(.tooLong)
        } else if !pending.isEmpty {
            each(.complete(pending))
        }
        pending = []
        overLimit = false
    }

    private mutating func hold(_ piece: UnsafeBufferPointer<UInt8>) {
        guard !overLimit else { return }
        if pending.count + piece.count > maxLineBytes {
            pending = []
            overLimit = true
        } else {
            pending.append(contentsOf: piece)
        }
    }
}
