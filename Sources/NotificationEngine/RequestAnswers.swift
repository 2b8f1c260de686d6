/// The engine's entry points, one call per request: the bytes of a
/// `POST /body`, `POST /compose` or `POST /relay` request body in, the bytes of the 200
/// answer out, or the problem the route answers with. The service's routes
/// and command line (`ServiceAnswers`) and the library's JSON answers
/// (`NotificationText.answer(bodyRequest:)`, `answer(composeRequest:)`) call
/// these, so every caller gets the same bytes, and none depends on small
/// functions being inlined across modules.
package enum RequestAnswers {
    /// The `POST /body` answer for a request body: `{"body","units","truncated","inputCut"}`;
    /// `observe` sees the rendering (the service counts truncated bodies and cut inputs).
    package static func body(request: [UInt8], observe: (RenderedBytes) -> Void = { _ in }) throws(Problem)
        -> [UInt8]
    {
        let fields = try BodyRequest.Fields.decode(request)
        // Only what decides the input cut is decoded: the parser checked the rest.
        return fields.tape.withStringBytes(fields.text, prefixOfAtLeast: BodyRenderer.inputPrefixBytes) { utf8 in
            BodyRenderer.withRendering(utf8: utf8, maxUnits: fields.maxUnits) { rendering in
                observe(rendering)
                return rendering.jsonBody()
            }
        }
    }

    /// The `POST /compose` answer for a request body.
    /// - Parameters:
    ///   - appName: the configured app name (`serve --app-name`).
    ///   - catalogs: the catalogs and default locale (`serve --default-locale`).
    ///   - now: the clock, read only when the request has no `now`.
    ///   - kept: the caller's shapes and buffers, lent for the call: the
    ///     request's buffers come from there, the response's from what they
    ///     leave, and both go back to it (the service keeps one per thread).
    ///     A fresh `KeptShapes()` gives the same bytes, only slower.
    package static func compose(
        request: [UInt8], appName: String, catalogs: CatalogSet, now: () -> Timestamp, kept: KeptShapes
    ) throws(Problem) -> [UInt8] {
        #if hasFeature(Embedded)
        // Embedded Swift (the WebAssembly module, docs/wasm.md) has no untyped
        // `throws` and no `any Error` to catch: the overload below's steps,
        // with the composer, which does not throw.
        let composeRequest = try ComposeDecoder.decode(
            request, serverApp: appName, catalogs: catalogs, now: now, kept: kept)
        let response = Composer.compose(composeRequest, reusing: &kept.requestStorage)
        return answer(consume composeRequest, consume response, kept: kept)
        #else
        do {
            return try compose(request: request, appName: appName, catalogs: catalogs, now: now, kept: kept) {
                Composer.compose($0, reusing: &$1)
            }
        } catch let problem as Problem {
            throw problem
        } catch {
            // Only a bug gets here: Composer.compose does not throw.
            throw Problem(.internalError, "an unexpected error occurred")
        }
        #endif
    }

    #if !hasFeature(Embedded)
    /// `compose(request:appName:catalogs:now:kept:)` with another composer
    /// (the service's, which tests replace to reach the 500 path); its errors
    /// are thrown as they are.
    package static func compose(
        request: [UInt8], appName: String, catalogs: CatalogSet, now: () -> Timestamp, kept: KeptShapes,
        composer: (ComposeRequest, inout ComposeRequest.Storage) throws -> ComposeResponse
    ) throws -> [UInt8] {
        let composeRequest = try ComposeDecoder.decode(
            request, serverApp: appName, catalogs: catalogs, now: now, kept: kept)
        let response = try composer(composeRequest, &kept.requestStorage)
        return answer(consume composeRequest, consume response, kept: kept)
    }
    #endif

    /// The answer's bytes, with the push payloads when the request asked;
    /// then the response's and the request's storage go back to `kept`
    /// (the response first: it shares the request's bytes).
    @inline(__always)
    private static func answer(
        _ request: consuming ComposeRequest, _ response: consuming ComposeResponse, kept: KeptShapes
    ) -> [UInt8] {
        let json =
            !request.hasPush
            ? response.jsonBody() : response.jsonBody(push: Composer.push(for: request, response: response, kept: kept))
        response.giveStorage(to: &kept.requestStorage)
        request.giveStorage(to: &kept.requestStorage)
        return json
    }

    /// The `POST /relay` answer for a request body (`RelayCore`): the relay's
    /// next record and what to do, or the problem. Its `loop` composes as
    /// `compose(request:appName:catalogs:now:kept:)` does.
    package static func relay(request: [UInt8], appName: String, catalogs: CatalogSet, kept: KeptShapes)
        throws(Problem) -> [UInt8]
    {
        try RelayCore.answer(request: request, appName: appName, catalogs: catalogs, kept: kept)
    }
}
