/// What a compose answer may show (`preview`, compose.md C11), applied to the
/// answer's `notification` itself, so the push payloads built from it and a
/// notification service extension show the same thing.
public enum PreviewTier: String, Hashable, Sendable, CaseIterable {
    /// The notification as composed.
    case full
    /// No text the sender wrote (`text`, `defaultText`): bodies come from the catalog.
    case sender
    /// As `sender`, and no name or thread title either: the title is the app.
    case none
}
