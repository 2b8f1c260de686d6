#if canImport(Glibc)
import Glibc
#endif

/// A test client on raw sockets: writes exactly the bytes a test gives it and
/// parses replies itself, so nothing between the test and the server hides
/// what the server did. Every read has a timeout, so no test can hang.
public final class RawHTTPConnection {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    public struct Response {
        /// The status line's first word ("HTTP/1.1").
        public var version: String
        public var status: Int
        /// The status line after the code ("Unauthorized").
        public var reasonPhrase: String
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public func header(_ name: String) -> String? {
            headers.first { $0.name == name.lowercased() }?.value
        }

        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public private(set) var descriptor: Int32
    private var pending: [UInt8] = []

    /// `receiveBufferBytes`: a small kernel receive buffer, so the server
    /// meets a full socket and must write a large reply in parts.
    public init(port: Int, timeoutSeconds: Double = 5, receiveBufferBytes: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket failed: errno \(errno)") }
        if var receiveBufferBytes {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &receiveBufferBytes, socklen_t(MemoryLayout<Int32>.size))
        }
        var timeout = timeval(
            tv_sec: Int(timeoutSeconds), tv_usec: Int((timeoutSeconds - timeoutSeconds.rounded(.down)) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw Failure(description: "connect to port \(port) failed: errno \(code)")
        }
    }

    deinit { close() }

    public func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { throw Failure(description: "send failed: errno \(errno)") }
            offset += written
        }
    }

    /// Reads one response (Content-Length framing, as the server always sends);
    /// `isBodyless` for replies that have none whatever their header says (HEAD, 204).
    public func readResponse(isBodyless: Bool = false) throws -> Response {
        let headEnd = try readUntil(separator: Array("\r\n\r\n".utf8))
        let head = String(decoding: pending[..<headEnd], as: UTF8.self)
        pending.removeFirst(headEnd + 4)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line in '\(head)'")
        }
        let reasonPhrase = statusLine.count == 3 ? String(statusLine[2]) : ""
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingPrefix(" ").description)
        }
        let length = isBodyless ? 0 : headers.first { $0.name == "content-length" }.flatMap { Int($0.value) } ?? 0
        while pending.count < length {
            guard try fill() else {
                throw Failure(description: "closed after \(pending.count) of \(length) body bytes")
            }
        }
        let body = Array(pending[..<length])
        pending.removeFirst(length)
        return Response(
            version: String(statusLine[0]), status: status, reasonPhrase: reasonPhrase, headers: headers, body: body)
    }

    /// True when the server closes (EOF or reset) within the read timeout
    /// without sending anything more.
    public func isClosedByPeer() -> Bool {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, 0)
        if count == 0 { return true }
        if count < 0 { return errno == ECONNRESET }
        pending.append(byte)
        return false
    }

    /// Waits until the server's kernel has acknowledged every byte sent, so
    /// they are in the server's receive queue (or read): the server can tell
    /// a request has begun. False if that takes longer than `timeoutSeconds`.
    public func waitUntilSentBytesAreAcknowledged(timeoutSeconds: Double = 5) -> Bool {
        // TIOCOUTQ (SIOCOUTQ) on a TCP socket: bytes sent but not yet acknowledged.
        eventually(withinSeconds: timeoutSeconds) {
            var unacknowledgedByteCount: Int32 = 0
            return ioctl(descriptor, UInt(TIOCOUTQ), &unacknowledgedByteCount) == 0 && unacknowledgedByteCount == 0
        }
    }

    /// Waits until the server has sent something (or closed); false after `timeoutSeconds`.
    public func waitUntilReadable(timeoutSeconds: Double = 5) -> Bool {
        guard pending.isEmpty else { return true }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, Int32(timeoutSeconds * 1_000)) > 0
    }

    /// True when the server closes the connection within `seconds` without
    /// sending anything more; false when it sends a byte or stays silent.
    public func closes(withinSeconds seconds: Double) -> Bool {
        waitUntilReadable(timeoutSeconds: seconds) && pending.isEmpty && isClosedByPeer()
    }

    private func readUntil(separator: [UInt8]) throws -> Int {
        var searchFrom = 0
        while true {
            if pending.count >= separator.count {
                for start in searchFrom...(pending.count - separator.count)
                where pending[start..<(start + separator.count)].elementsEqual(separator) {
                    return start
                }
                searchFrom = pending.count - separator.count + 1
            }
            guard try fill() else { throw Failure(description: "closed before a full response head") }
        }
    }

    /// Reads what is available; false at EOF.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            pending.append(contentsOf: chunk[..<count])
            return true
        }
        if count == 0 { return false }
        if errno == ECONNRESET { return false }
        throw Failure(description: "recv failed or timed out: errno \(errno)")
    }
}
