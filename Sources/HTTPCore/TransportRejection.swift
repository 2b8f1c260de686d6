/// Why the adapter refuses a complete request before the handler sees it.
///
/// Only the refusals that leave a request to answer are here: a head evhttp
/// cannot parse, a head over the header limit, a body far over the limit and
/// an unknown method are answered by evhttp itself and the connection closed
/// (docs/adr/0003-event-loop.md); a slow request is closed unanswered.
public enum TransportRejection: Sendable, Equatable {
    /// The request target is longer than `maxBytes`.
    case uriTooLong(maxBytes: Int)
    /// The body is larger than `maxBytes` (it has been read, so the
    /// connection stays usable).
    case bodyTooLarge(maxBytes: Int)

    /// The status every answer to this rejection has.
    public var status: Int {
        switch self {
        case .uriTooLong: 414
        case .bodyTooLarge: 413
        }
    }
}
