import NotificationEngine

/// What `POST /body`, `POST /compose` or `POST /relay` answers for a request body: the
/// status, the media type and the bytes, identical to the service's for the
/// same body (the HTTP layer alone adds its refusals: size, media type,
/// method, access).
public struct JSONAnswer: Hashable, Sendable {
    /// 200, or the problem's status (400 for every problem of a body).
    public var status: Int
    /// `application/json`, or `application/problem+json` for a problem.
    public var contentType: String
    /// The JSON: the answer, or an RFC 9457 problem with its stable `code`.
    public var body: [UInt8]

    /// An answer with these values.
    public init(status: Int, contentType: String, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    init(_ result: () throws(Problem) -> [UInt8]) {
        do {
            self.init(status: 200, contentType: "application/json", body: try result())
        } catch {
            self.init(status: error.status, contentType: "application/problem+json", body: error.jsonBody())
        }
    }
}

/// The `POST /body` answer for a request body `{"text", "maxUnits"}`: the
/// service's bytes, so an app can be its own oracle.
public func answer(bodyRequest: [UInt8]) -> JSONAnswer {
    JSONAnswer { () throws(Problem) in try RequestAnswers.body(request: bodyRequest) }
}

/// The `POST /compose` answer for a request body: the service's bytes.
/// - Parameters:
///   - appName: the server's app name (`serve --app-name`).
///   - defaultLocale: the server's default locale (`serve --default-locale`);
///     a tag without a built-in catalog means `en`.
///   - now: the time used when the request has no `now` (a server reads its clock).
public func answer(
    composeRequest: [UInt8], appName: String = ComposeRequest.defaultApp,
    defaultLocale: String = ComposeRequest.defaultLocale, now: Timestamp
) -> JSONAnswer {
    JSONAnswer { () throws(Problem) in
        try RequestAnswers.compose(
            request: composeRequest, appName: appName, catalogs: CatalogSet.forDefaultLocale(defaultLocale),
            now: { now }, kept: KeptShapes())
    }
}

/// The `POST /relay` answer for a request body: the relay's core without IO
/// (docs/relay.md). An `event`, `loop`, `gave-up`, `answer` or `wake` with
/// the stored record in, the next record and what to send out: the
/// service's bytes, so a relay in Swift does only its IO around it.
/// - Parameters:
///   - appName: the server's app name (`serve --app-name`), for the loop's compose.
///   - defaultLocale: the server's default locale (`serve --default-locale`).
public func answer(
    relayRequest: [UInt8], appName: String = ComposeRequest.defaultApp,
    defaultLocale: String = ComposeRequest.defaultLocale
) -> JSONAnswer {
    JSONAnswer { () throws(Problem) in
        try RequestAnswers.relay(
            request: relayRequest, appName: appName, catalogs: CatalogSet.forDefaultLocale(defaultLocale),
            kept: KeptShapes())
    }
}
