#if canImport(Glibc)
import Glibc
#endif

/// Opens the listening sockets: one per event-loop thread, all bound to the
/// same address with SO_REUSEPORT so the kernel spreads connections over them.
///
/// SO_REUSEPORT would as well let another process of the same user bind
/// beside them (a stale instance taking a share of the traffic unseen), so
/// the port is first bound once without it: any socket already listening
/// there, ours or not, makes that bind fail with EADDRINUSE, and the server
/// does not start. Only then are this process's own sockets bound.
///
/// Every socket has TCP_NODELAY, which accepted connections inherit on
/// Linux: a reply is written whole, so Nagle's algorithm could only hold its
/// last segment back until the client's delayed ACK (about 40 ms for a reply
/// past 16 KiB on a kept-alive connection).
enum ListeningSocket {
    /// Pending connections the kernel queues per socket before accept.
    static let backlog: Int32 = 1_024

    /// Opens `count` non-blocking listening sockets on `host:port`. With port 0
    /// the first socket gets a free port from the kernel and the others join it.
    /// On failure every socket opened so far is closed.
    static func openAll(host: String, port: Int, count: Int) throws(HTTPServerError) -> (
        descriptors: [Int32], address: BoundAddress
    ) {
        var descriptors: [Int32] = []
        do {
            var address = try resolve(host: host, port: port)
            let display = BoundAddress(host: host, port: port).description
            if port != 0 { try checkUnclaimed(address, display: display) }
            let first = try open(address, display: display)
            descriptors.append(first)
            let bound = try localAddress(of: first)
            setPort(bound.port, in: &address)
            for _ in 1..<max(1, count) {
                descriptors.append(try open(address, display: bound.description))
            }
            return (descriptors, bound)
        } catch {
            for descriptor in descriptors { close(descriptor) }
            throw error
        }
    }

    /// The socket address for `host`, numeric or resolved, with `port`.
    private static func resolve(host: String, port: Int) throws(HTTPServerError) -> sockaddr_storage {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE
        var results: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &results) == 0, let first = results else {
            throw .unresolvableHost(host)
        }
        defer { freeaddrinfo(results) }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { target in
            target.copyMemory(
                from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
        }
        return storage
    }

    /// Fails with `bind`'s EADDRINUSE when any socket already listens on
    /// `address`: a bind without SO_REUSEPORT cannot join one. The probe is
    /// closed at once; a process binding in the moment between this and our
    /// own binds could still join them, which only a second start at the very
    /// same instant could do.
    private static func checkUnclaimed(_ address: sockaddr_storage, display: String) throws(HTTPServerError) {
        try bindOnce(address, display: display, reusePort: false, listening: false)
    }

    private static func open(_ address: sockaddr_storage, display: String) throws(HTTPServerError) -> Int32 {
        try bindOnce(address, display: display, reusePort: true, listening: true)!
    }

    /// A socket bound to `address` (SO_REUSEADDR, TCP_NODELAY, the socket
    /// buffers' sizes, SO_REUSEPORT when `reusePort`), listening when `listening`; else closed again, nil.
    @discardableResult
    private static func bindOnce(
        _ address: sockaddr_storage, display: String, reusePort: Bool, listening: Bool
    ) throws(HTTPServerError) -> Int32? {
        let family = Int32(address.ss_family)
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .listenFailed(address: display, call: "socket", errno: errno) }
        var on: Int32 = 1
        let length = socklen_t(family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        var address = address
        let failedCall: String? = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                if setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size)) != 0 {
                    return "setsockopt(SO_REUSEADDR)"
                }
                if reusePort,
                    setsockopt(descriptor, SOL_SOCKET, SO_REUSEPORT, &on, socklen_t(MemoryLayout<Int32>.size)) != 0
                {
                    return "setsockopt(SO_REUSEPORT)"
                }
                if setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
                    != 0
                {
                    return "setsockopt(TCP_NODELAY)"
                }
                // Accepted sockets inherit these sizes (fixed, not autotuned),
                // so what the kernel holds per connection is bounded.
                var sendBytes = Int32(HTTPServerConfiguration.socketSendBufferBytes)
                if setsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &sendBytes, socklen_t(MemoryLayout<Int32>.size)) != 0 {
                    return "setsockopt(SO_SNDBUF)"
                }
                var receiveBytes = Int32(HTTPServerConfiguration.socketReceiveBufferBytes)
                if setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &receiveBytes, socklen_t(MemoryLayout<Int32>.size))
                    != 0
                {
                    return "setsockopt(SO_RCVBUF)"
                }
                if bind(descriptor, socketAddress, length) != 0 { return "bind" }
                if listening, listen(descriptor, backlog) != 0 { return "listen" }
                return nil
            }
        }
        if let failedCall {
            let code = errno
            close(descriptor)
            throw .listenFailed(address: display, call: failedCall, errno: code)
        }
        guard listening else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// The numeric address and port a socket is bound to.
    static func localAddress(of descriptor: Int32) throws(HTTPServerError) -> BoundAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0 else { throw .listenFailed(address: "fd \(descriptor)", call: "getsockname", errno: errno) }
        return describe(storage)
    }

    static func describe(_ storage: sockaddr_storage) -> BoundAddress {
        let family = Int32(storage.ss_family)
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        return withUnsafeBytes(of: storage) { raw in
            if family == AF_INET6 {
                var address = raw.load(as: sockaddr_in6.self)
                inet_ntop(AF_INET6, &address.sin6_addr, &text, socklen_t(text.count))
                return BoundAddress(host: numericHost(text), port: Int(UInt16(bigEndian: address.sin6_port)))
            }
            var address = raw.load(as: sockaddr_in.self)
            inet_ntop(AF_INET, &address.sin_addr, &text, socklen_t(text.count))
            return BoundAddress(host: numericHost(text), port: Int(UInt16(bigEndian: address.sin_port)))
        }
    }

    /// inet_ntop's NUL-terminated ASCII output as a String.
    private static func numericHost(_ text: [CChar]) -> String {
        String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func setPort(_ port: Int, in storage: inout sockaddr_storage) {
        let networkPort = UInt16(truncatingIfNeeded: port).bigEndian
        let family = Int32(storage.ss_family)
        withUnsafeMutableBytes(of: &storage) { raw in
            if family == AF_INET6 {
                raw.storeBytes(
                    of: networkPort, toByteOffset: MemoryLayout<sockaddr_in6>.offset(of: \.sin6_port)!, as: UInt16.self)
            } else {
                raw.storeBytes(
                    of: networkPort, toByteOffset: MemoryLayout<sockaddr_in>.offset(of: \.sin_port)!, as: UInt16.self)
            }
        }
    }
}
