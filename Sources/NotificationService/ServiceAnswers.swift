import HTTPCore
@_spi(Engine) import NotificationText

/// `POST /body` and `POST /compose` without HTTP: a request body in, the
/// JSON of the 200 answer out, or the problem the route answers with. The
/// routes call these, and so does the command line (`render --json`,
/// `render --json-lines`, `compose --json-lines`), so both give the same bytes.
public enum ServiceAnswers {
    /// The `POST /body` answer for a request body: `{"body","units","truncated","inputCut"}`.
    public static func body(request: [UInt8]) throws(Problem) -> [UInt8] {
        try body(request: request) { _ in }
    }

    /// `body(request:)`; `observe` sees the rendering (the service counts
    /// truncated bodies and cut inputs).
    static func body(request: [UInt8], observe: (RenderedBytes) -> Void) throws(Problem) -> [UInt8] {
        let fields = try BodyRequest.Fields.decode(request)
        return fields.tape.withStringBytes(fields.text) { utf8 in
            BodyRenderer.withRendering(utf8: utf8, maxUnits: fields.maxUnits) { rendering in
                observe(rendering)
                return rendering.jsonBody()
            }
        }
    }

    /// The `POST /body` answer for `{"text": <markdown>, "maxUnits": maxUnits}`,
    /// from the Markdown's own bytes.
    /// - Precondition: `markdown` is well-formed UTF-8; `maxUnits` is in `BodyRenderer.maxUnitsRange`.
    public static func body(markdown: UnsafeBufferPointer<UInt8>, maxUnits: Int) -> [UInt8] {
        BodyRenderer.withRendering(utf8: markdown, maxUnits: maxUnits) { $0.jsonBody() }
    }

    /// The `POST /compose` answer for a request body.
    /// - Parameters:
    ///   - appName: the configured app name (`serve --app-name`).
    ///   - catalogs: the catalogs and default locale (`serve --default-locale`).
    ///   - now: the clock, read only when the request has no `now`.
    public static func compose(
        request: [UInt8], appName: String, catalogs: CatalogSet = .builtIn, now: () -> Timestamp
    ) throws(Problem) -> [UInt8] {
        do {
            return try compose(request: request, appName: appName, catalogs: catalogs, now: now) {
                Composer.compose($0, reusing: &$1)
            }
        } catch let problem as Problem {
            throw problem
        } catch {
            // Only a bug gets here: Composer.compose does not throw.
            throw Problem(.internalError, "an unexpected error occurred")
        }
    }

    /// `compose(request:appName:catalogs:now:)` with the service's composer
    /// (which tests replace to reach the 500 path).
    static func compose(
        request: [UInt8], appName: String, catalogs: CatalogSet = .builtIn, now: () -> Timestamp,
        composer: (ComposeRequest, inout ComposeRequest.Storage) throws -> ComposeResponse
    ) throws -> [UInt8] {
        // The request's buffers come from the thread's storage, the
        // response's from what they leave there, and both go back to it.
        let kept = ComposeDecoder.keptForThisThread()
        var composeRequest = try ComposeDecoder.decode(
            request, serverApp: appName, catalogs: catalogs, now: now, kept: kept)
        let response = try composer(composeRequest, &kept.requestStorage)
        let json = response.jsonBody()
        // The response first: it shares the request's bytes.
        response.giveStorage(to: &kept.requestStorage)
        composeRequest.giveStorage(to: &kept.requestStorage)
        return json
    }

    /// The problem of a request body larger than `maxBytes` (413 `payload-too-large`).
    public static func payloadTooLarge(maxBytes: Int) -> Problem {
        Problem(TransportRejection.bodyTooLarge(maxBytes: maxBytes))
    }
}
