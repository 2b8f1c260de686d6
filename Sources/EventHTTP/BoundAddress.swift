/// The address a server listens on, as the kernel reports it.
public struct BoundAddress: Sendable, Equatable, CustomStringConvertible {
    /// The numeric host, without brackets ("127.0.0.1", "::1").
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// "host:port", with an IPv6 host in brackets ("[::1]:8080").
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
