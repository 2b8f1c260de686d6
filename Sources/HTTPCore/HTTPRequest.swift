/// One HTTP request as a handler sees it: values only, no sockets, no C.
/// The event-loop adapter (EventHTTP) builds it from libevent's request.
public struct HTTPRequest: Sendable {
    /// Upper-case method as received: "GET", "POST", …
    public var method: String
    /// The URI's path, without query or fragment, as received (not decoded).
    public var path: String
    /// Header fields as received, names lower-cased, in order.
    public var headers: [(name: String, value: String)]
    /// The whole request body (the adapter enforces the size limit first).
    public var body: [UInt8]

    public init(method: String, path: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }

    /// The first value of a header, by lower-case name.
    public func header(_ lowercasedName: String) -> String? {
        // Most names differ in length from the one asked for; a count is
        // stored in the string, while `==` on two different strings is a call.
        let byteCount = lowercasedName.utf8.count
        return headers.first { $0.name.utf8.count == byteCount && $0.name == lowercasedName }?.value
    }
}
