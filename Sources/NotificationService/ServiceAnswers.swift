import HTTPCore
import NotificationEngine

/// `POST /body`, `POST /compose` and `POST /relay` without HTTP: a request body in, the
/// JSON of the 200 answer out, or the problem the route answers with. The
/// routes call these, and so does the command line (`render --json`,
/// `render --json-lines`, `compose --json-lines`), so both give the same
/// bytes; each is one call into the engine (`RequestAnswers`).
package enum ServiceAnswers {
    /// The `POST /body` answer for a request body: `{"body","units","truncated","inputCut"}`.
    package static func body(request: [UInt8]) throws(Problem) -> [UInt8] {
        try RequestAnswers.body(request: request)
    }

    /// `body(request:)`; `observe` sees the rendering (the service counts
    /// truncated bodies and cut inputs).
    static func body(request: [UInt8], observe: (RenderedBytes) -> Void) throws(Problem) -> [UInt8] {
        try RequestAnswers.body(request: request, observe: observe)
    }

    /// The `POST /body` answer for `{"text": <markdown>, "maxUnits": maxUnits}`,
    /// from the Markdown's own bytes (`render --json`).
    /// - Precondition: `maxUnits` is in `BodyRenderer.maxUnitsRange`.
    package static func body(markdown: String, maxUnits: Int) -> [UInt8] {
        var markdown = markdown
        return markdown.withUTF8 { BodyRenderer.withRendering(utf8: $0, maxUnits: maxUnits) { $0.jsonBody() } }
    }

    /// The `POST /compose` answer for a request body, with the calling
    /// thread's kept shapes and buffers (`ThreadKeptShapes`).
    /// - Parameters:
    ///   - appName: the configured app name (`serve --app-name`).
    ///   - catalogs: the catalogs and default locale (`serve --default-locale`).
    ///   - now: the clock, read only when the request has no `now`.
    package static func compose(
        request: [UInt8], appName: String, catalogs: CatalogSet = .builtIn, now: () -> Timestamp
    ) throws(Problem) -> [UInt8] {
        try RequestAnswers.compose(
            request: request, appName: appName, catalogs: catalogs, now: now, kept: ThreadKeptShapes.current())
    }

    /// `compose(request:appName:catalogs:now:)` with the service's composer
    /// (which tests replace to reach the 500 path).
    static func compose(
        request: [UInt8], appName: String, catalogs: CatalogSet = .builtIn, now: () -> Timestamp,
        composer: (ComposeRequest, inout ComposeRequest.Storage) throws -> ComposeResponse
    ) throws -> [UInt8] {
        try RequestAnswers.compose(
            request: request, appName: appName, catalogs: catalogs, now: now, kept: ThreadKeptShapes.current(),
            composer: composer)
    }

    /// The `POST /relay` answer for a request body (`RelayCore`): the relay's
    /// next record and what to do; its `loop` composes with the calling
    /// thread's kept shapes, as `compose` does.
    package static func relay(request: [UInt8], appName: String, catalogs: CatalogSet = .builtIn) throws(Problem)
        -> [UInt8]
    {
        try RequestAnswers.relay(
            request: request, appName: appName, catalogs: catalogs, kept: ThreadKeptShapes.current())
    }

    /// The problem of a request body larger than `maxBytes` (413 `payload-too-large`).
    package static func payloadTooLarge(maxBytes: Int) -> Problem {
        Problem(TransportRejection.bodyTooLarge(maxBytes: maxBytes))
    }
}
