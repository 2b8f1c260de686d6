/// Every error the service answers with: a stable machine-readable code, its
/// HTTP status and its fixed title. Clients branch on the code, never on the
/// title or detail. The README's error table and openapi.yaml list the same set.
package enum ProblemCode: String, Sendable, CaseIterable {
    // 400: the body or a field is unacceptable. Checked in this order: bytes
    // (UTF-8), JSON syntax, then fields in document order.
    case invalidUTF8 = "invalid-utf8"
    case invalidJSON = "invalid-json"
    case loneSurrogate = "lone-surrogate"
    case nestingTooDeep = "nesting-too-deep"
    case duplicateMember = "duplicate-member"
    case invalidType = "invalid-type"
    case missingField = "missing-field"
    case outOfRange = "out-of-range"
    case invalidValue = "invalid-value"
    case invalidTimestamp = "invalid-timestamp"
    case invalidLocale = "invalid-locale"
    // Routing and transport (payload-too-large, uri-too-long and the
    // connection refusals below answer the adapter's `TransportRejection`s).
    case unauthorized = "unauthorized"
    case notFound = "not-found"
    case methodNotAllowed = "method-not-allowed"
    case payloadTooLarge = "payload-too-large"
    case uriTooLong = "uri-too-long"
    case unsupportedMediaType = "unsupported-media-type"
    case internalError = "internal-error"
    case notReady = "not-ready"
    // Refused in the request's head, before its body is read; the connection
    // closes after the answer (docs/adr/0016-request-framing.md).
    case badRequest = "bad-request"
    case invalidHost = "invalid-host"
    case badFraming = "bad-framing"
    case headerFieldsTooLarge = "header-fields-too-large"
    case expectationFailed = "expectation-failed"
    case notImplemented = "not-implemented"
    case tooManyConnections = "too-many-connections"

    /// The HTTP status this code is always answered with.
    package var status: Int {
        switch self {
        case .invalidUTF8, .invalidJSON, .loneSurrogate, .nestingTooDeep, .duplicateMember,
            .invalidType, .missingField, .outOfRange, .invalidValue, .invalidTimestamp, .invalidLocale, .badRequest,
            .invalidHost, .badFraming:
            400
        case .unauthorized: 401
        case .notFound: 404
        case .methodNotAllowed: 405
        case .payloadTooLarge: 413
        case .uriTooLong: 414
        case .unsupportedMediaType: 415
        case .expectationFailed: 417
        case .headerFieldsTooLarge: 431
        case .internalError: 500
        case .notImplemented: 501
        case .notReady, .tooManyConnections: 503
        }
    }

    /// A short summary that never changes between occurrences (RFC 9457 section 3.1.3).
    package var title: String {
        switch self {
        case .invalidUTF8: "The body is not valid UTF-8"
        case .invalidJSON: "The body is not valid JSON"
        case .loneSurrogate: "A string escapes a lone surrogate"
        case .nestingTooDeep: "The JSON nests too deeply"
        case .duplicateMember: "An object repeats a member name"
        case .invalidType: "A value has the wrong type"
        case .missingField: "A required field is missing"
        case .outOfRange: "A value is out of range"
        case .invalidValue: "A value is not allowed"
        case .invalidTimestamp: "A timestamp is not RFC 3339"
        case .invalidLocale: "A locale is not a language tag"
        case .unauthorized: "Authentication required"
        case .notFound: "No such resource"
        case .methodNotAllowed: "Method not allowed"
        case .payloadTooLarge: "The body is too large"
        case .uriTooLong: "The request target is too long"
        case .unsupportedMediaType: "Unsupported media type"
        case .internalError: "Internal error"
        case .notReady: "Not ready"
        case .badRequest: "The request is not valid HTTP/1.1"
        case .invalidHost: "The Host is not valid"
        case .badFraming: "The request's framing is ambiguous"
        case .headerFieldsTooLarge: "The request head is too large"
        case .expectationFailed: "The expectation cannot be met"
        case .notImplemented: "Not implemented"
        case .tooManyConnections: "Too many connections"
        }
    }

    /// The problem type URI: a tag URI (RFC 4151), which identifies the
    /// problem without pretending to be a web page; the README documents each.
    package var typeURI: String { Self.typeURIPrefix + rawValue }

    /// Every type URI is this prefix followed by the code.
    package static let typeURIPrefix = "tag:notification-text,2026:problem:"
}
