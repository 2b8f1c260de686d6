#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the command line and the bench need from the system (reading
/// descriptors and files, the environment, errno's text, the descriptor
/// limit), behind signatures of plain values: their modules are built with
/// strict memory safety and hold no raw memory, so the buffers and the C
/// calls that take pointers are here, at the service's edge with the
/// platform (docs/adr/0032).
package enum ProcessIO {
    /// The bytes of one read(2), at most.
    package static let chunkBytes = 65_536

    /// Reads `descriptor` to its end, handing `each` every chunk read (at
    /// most `chunkBytes`, never empty), and calling `beforeEachRead` before
    /// every read(2); EINTR is retried. The `errno` of a failed read, else nil.
    ///
    /// Each chunk is a slice of one buffer that the next read reuses; a
    /// slice `each` keeps stays as it was (the next read copies the buffer).
    package static func readChunks(
        from descriptor: Int32, beforeEachRead: () -> Void = {}, _ each: (ArraySlice<UInt8>) -> Void
    ) -> Int32? {
        var chunk = [UInt8](repeating: 0, count: chunkBytes)
        while true {
            beforeEachRead()
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                each(chunk[0..<count])
            } else if count == 0 {
                return nil
            } else if errno != EINTR {
                return errno
            }
        }
    }

    /// All of `descriptor` to its end, or up to a failed read (EINTR is retried).
    package static func readAll(from descriptor: Int32) -> [UInt8] {
        var data: [UInt8] = []
        _ = readChunks(from: descriptor) { data.append(contentsOf: $0) }
        return data
    }

    /// The whole file at `path`, or nil when it cannot be opened or read.
    package static func readFile(atPath path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var contents: [UInt8] = []
        let failure = readChunks(from: descriptor) { contents.append(contentsOf: $0) }
        return failure == nil ? contents : nil
    }

    /// Why a small file could not be read.
    package enum SmallFileProblem: Error, CustomStringConvertible {
        case cannotOpen(errno: Int32)
        case notARegularFile
        case tooLarge(maxBytes: Int)
        case cannotRead(errno: Int32)

        package var description: String {
            switch self {
            case .cannotOpen(let code): "cannot be opened: \(errorDescription(errno: code))"
            case .notARegularFile: "is not a regular file"
            case .tooLarge(let maxBytes): "is larger than \(maxBytes) bytes"
            case .cannotRead(let code): "cannot be read: \(errorDescription(errno: code))"
            }
        }
    }

    /// The whole regular file at `path`, of at most `maxBytes`.
    ///
    /// Opened without blocking and refused unless `fstat` says it is a
    /// regular file: the control thread reads the token file on SIGHUP, and
    /// a FIFO or a device there would otherwise block it in `open` or
    /// `read` (and with it the SIGTERM that comes next).
    package static func readSmallFile(atPath path: String, maxBytes: Int) -> Result<[UInt8], SmallFileProblem> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { return .failure(.cannotOpen(errno: errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(.cannotRead(errno: errno)) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .failure(.notARegularFile) }
        // Not `st_size`: files of /proc and /sys (the memory limit) give 0 or a page.
        var contents = [UInt8](repeating: 0, count: maxBytes + 1)
        var count = 0
        while count <= maxBytes {
            let read = contents.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + count, maxBytes + 1 - count)
            }
            if read < 0, errno == EINTR { continue }
            guard read >= 0 else { return .failure(.cannotRead(errno: errno)) }
            if read == 0 { break }
            count += read
        }
        guard count <= maxBytes else { return .failure(.tooLarge(maxBytes: maxBytes)) }
        return .success(Array(contents[..<count]))
    }

    /// A descriptor for writing to the existing file at `path`, or -1.
    package static func openForWriting(atPath path: String) -> Int32 {
        open(path, O_WRONLY | O_CLOEXEC)
    }

    /// The environment variable `name`, or nil when it is not set.
    package static func environmentValue(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// `strerror`'s text for `code`.
    package static func errorDescription(errno code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// The hard limit on open descriptors (RLIMIT_NOFILE); nil when it cannot
    /// be read or there is none.
    package static func descriptorHardLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_max != rlim_t.max else { return nil }
        return Int(clamping: limit.rlim_max)
    }

    /// Raises the soft limit on open descriptors to the hard one, as far as
    /// the system allows.
    package static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
