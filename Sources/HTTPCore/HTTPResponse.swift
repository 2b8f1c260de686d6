/// One HTTP response: status, headers and body bytes.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header fields to send, in order (Content-Type included).
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// The route label used by metrics and logs ("/body", "/compose", …, or "unmatched").
    public var route: String
    /// The `X-Request-Id` field, written after `headers`; nil for none.
    public var requestID: HTTPRequestID?

    /// Inlinable: called across modules, it returned its value through a copy.
    @inlinable
    public init(
        status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = [], route: String,
        requestID: HTTPRequestID? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.route = route
        self.requestID = requestID
    }
}
