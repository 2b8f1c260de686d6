/// A server's life cycle: `starting` while it sets up, `running` while it
/// accepts, `draining` while requests in flight finish, then `stopped`.
public enum ServerState: UInt8, Sendable {
    case starting, running, draining, stopped
}
