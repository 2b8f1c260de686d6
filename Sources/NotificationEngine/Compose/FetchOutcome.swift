/// How the caller's fetch of pending notifications went (`fetch` on the wire).
public enum FetchOutcome: String, Hashable, Sendable, CaseIterable {
    /// The notifications were fetched; compose decides from them.
    case ok
    /// The fetch failed: compose shows the fallback with reason `failed`.
    case failed
    /// The fetch timed out: compose shows the fallback with reason `timeout`.
    case timeout
}
