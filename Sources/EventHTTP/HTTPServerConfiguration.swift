#if canImport(Glibc)
import Glibc
#endif

/// Everything the event-loop adapter needs, with a default for every field.
/// Read once at start; the server never changes it.
public struct HTTPServerConfiguration: Sendable, Equatable {
    /// The address to listen on (numeric IPv4/IPv6, or a name that resolves).
    public var host = "127.0.0.1"
    /// The TCP port; 0 asks the kernel for a free one (the server reports it).
    public var port = 8080
    /// Event-loop threads; each has its own `event_base` and SO_REUSEPORT
    /// listening socket on the same address.
    public var threadCount = HTTPServerConfiguration.onlineProcessorCount
    /// The largest request body; a larger one (its `Content-Length`, or its
    /// chunk sizes so far) gets the handler's 413 before it is read.
    public var maxBodyBytes = 1_048_576
    /// The largest request head (request line and fields, line ends
    /// included); a larger one gets the handler's 431 and the connection
    /// closes. `maxURIBytes` bounds the target within it.
    public var maxHeaderBytes = 16_384
    /// The longest request target; a longer one gets the handler's 414.
    public var maxURIBytes = 4_096
    /// How long a connection may stay silent, and how long one request may
    /// take to arrive from its first byte to its last.
    public var readTimeoutSeconds = 10.0
    /// How long a reply may sit unsent because the client does not read.
    public var writeTimeoutSeconds = 10.0
    /// After SIGTERM/SIGINT (and `shutdownDelaySeconds`), how long the
    /// server drains: requests in flight finish, each request on a keep-alive
    /// connection is answered with `Connection: close`; at its end every
    /// remaining connection is closed.
    public var drainSeconds = 10.0
    /// After SIGTERM/SIGINT, how long the server goes on serving as before
    /// (only `/readyz` says 503) before the drain starts: the time a load
    /// balancer takes to stop sending new connections (Kubernetes' preStop sleep).
    public var shutdownDelaySeconds = 0.0
    /// Whether idle keep-alive connections stay open through the drain (for
    /// a last request, answered with `Connection: close`) or close when it
    /// starts (fine where clients reconnect at once, as scrapers do).
    public var keepsIdleConnectionsWhileDraining = true
    /// The most client connections open at once, over all threads. Past it a
    /// new connection takes the place of its loop's connection idle longest
    /// (closed), else of the one that has been sending its request head
    /// longest (answered `503`); with neither it is on probation: a probe
    /// (`HTTPHandler.answersBeyondCapacity`) is answered, anything else gets
    /// `503` with `Retry-After`.
    public var maxConnections = 1_024
    /// The bytes every connection's buffers may take at once, over all
    /// threads (docs/operations.md has the formula), charged for the bytes
    /// they hold: each connection's own state (`connectionBaseBytes`) when
    /// it is accepted, a request's head and body as they arrive, its reply
    /// when it is made. Short of room, idle connections are closed, then the
    /// slowest upload refused; what still does not fit is answered `503`
    /// with `Retry-After`. nil: nothing is counted.
    public var memoryBudgetBytes: Int?
    /// A request head must arrive at `minHeadBytesPerSecond` on average, from
    /// its first byte, and a body at `minBodyBytesPerSecond` from the end of
    /// its head, once this long has passed (slow requests hold memory and
    /// slots; Apache's mod_reqtimeout `MinRate`).
    public var headGraceSeconds = 2.0
    public var minHeadBytesPerSecond = 256
    public var minBodyBytesPerSecond = 500
    /// An upload arriving slower than this on average is closed, slowest
    /// first, when another request's bytes need room in the memory budget
    /// and no idle connection is left to close; short of room beside faster
    /// ones, a request gets `503` instead.
    public var slowUploadBytesPerSecond = 16_384

    public init() {}

    /// Connections each event loop admits past capacity, on probation (only
    /// a probe is answered there): each holds a descriptor beside the
    /// connection limit.
    public static var probationPlacesPerThread: Int { 64 }

    /// Connections each event loop refuses for want of room (`503` and a
    /// lingering close) that hold no slot and are not on probation: one that
    /// gave its slot to a new connection, or a new one refused outright.
    /// Each holds a descriptor beside the connection limit; past this many,
    /// the one refused first closes at once.
    public static var refusalPlacesPerThread: Int { 64 }

    /// The processors this process may run on now (at least 1).
    public static var onlineProcessorCount: Int {
        max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }

    /// What a connection is charged from its accept to its close, idle or
    /// not: libevent's bufferevent with its empty buffers, our record and
    /// framer, and one libevent read (4 KiB) of
    /// what arrives. A request is charged on top of it as its bytes arrive.
    public var connectionBaseBytes: Int { 8_192 }

    /// The kernel's send and receive buffers of every accepted socket
    /// (`SO_SNDBUF`, `SO_RCVBUF` on the listening socket, which accepted
    /// sockets inherit): fixed sizes instead of the kernel's autotuning,
    /// which let a client that never reads make the kernel hold megabytes
    /// for it. Linux doubles each for its own bookkeeping.
    public static var socketSendBufferBytes: Int { 65_536 }
    public static var socketReceiveBufferBytes: Int { 16_384 }

    /// What the kernel's receive buffer holds at most (Linux doubles the
    /// size asked for; one segment's overhead more): it fills while a reply
    /// is pending, since reading stops then.
    public static var socketReceiveHeldBytes: Int { 2 * socketReceiveBufferBytes + 4_096 }
    /// What the kernel's send buffer holds at most, likewise.
    public static var socketSendHeldBytes: Int { 2 * socketSendBufferBytes + 4_096 }
    /// The most the kernel holds for one connection: both buffers.
    public static var socketHeldBytes: Int { socketReceiveHeldBytes + socketSendHeldBytes }
}
