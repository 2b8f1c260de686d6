import NotificationEngine

// The values a compose request is made of are the engine's own, declared
// once for the engine, this library and the WebAssembly module
// (docs/adr/0050): what an app builds is what the composer reads, with no
// copy into a twin type on the way.

/// One fetched notification, as `POST /compose` receives it in `notifications`.
public typealias PendingNotification = NotificationEngine.PendingNotification
/// A notification the caller has already shown: its key and when it happened.
public typealias DisplayedEntry = NotificationEngine.DisplayedEntry
/// An RFC 3339 date-time as compose reads it: its text, kept as written
/// (the reply echoes it), and the instant it names.
public typealias Timestamp = NotificationEngine.Timestamp
/// How much a notification matters (`importance` on the wire; compose.md
/// S3, push.md P9).
public typealias Importance = NotificationEngine.Importance
/// How the caller's fetch of pending notifications went (`fetch` on the wire).
public typealias FetchOutcome = NotificationEngine.FetchOutcome
/// What a compose answer may show (`preview` of `POST /compose`, compose.md C11).
public typealias PreviewTier = NotificationEngine.PreviewTier
/// The request's `push` member (compose.md C13): with it, the response has
/// the APNs, FCM and Web Push payloads of `docs/spec/push.md`.
public typealias PushOptions = NotificationEngine.PushOptions
/// A member of a compose answer's `notification` object, in wire order
/// (compose.md 6.3): `ComposeResponse.Content`'s texts are read by it.
public typealias AnswerMember = NotificationEngine.AnswerMember
/// A compose answer's displayed texts (`notification` on the wire), by
/// `AnswerMember`: `ComposeResponse.Content`.
public typealias AnswerContent = NotificationEngine.AnswerContent
