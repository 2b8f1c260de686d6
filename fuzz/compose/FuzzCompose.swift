// libFuzzer target for request decoding and composing: raw body bytes → the
// service's handler for `POST /body` and `POST /compose` (UTF-8 check, JSON
// parser, field decoding, renderer, composer, JSON writer), and the decoders
// (both passes) and composer called directly.
//
// Built by `make fuzz-build` with SwiftPM (the `fuzz-compose` target that
// Package.swift declares when NOTIFICATION_TEXT_FUZZ=1, with
// --sanitize=fuzzer --sanitize=address, every module instrumented alike). A
// broken promise traps, and libFuzzer saves the input.

import HTTPCore

@testable import NotificationEngine
@testable import NotificationService

func require(_ condition: @autoclosure () -> Bool, _ promise: @autoclosure () -> String) {
    if !condition() {
        fatalError("service promise broken: \(promise())")
    }
}

/// 2026-01-01T00:00:00Z: a fixed clock keeps every run deterministic.
let fixedNanoseconds: Int64 = 1_767_225_600 * 1_000_000_000

/// The service under test. Its error log traps: the only thing ever written
/// there is an internal error, which input must never cause.
let service = NotificationTextService(
    configuration: ServiceConfiguration(accessLogEnabled: false),
    clock: .fixed(nanosecondsSinceEpoch: fixedNanoseconds),
    accessLog: .discard,
    errorLog: LogSink { _ in fatalError("service promise broken: an input reached the internal-error path") }
)

func units(_ text: String?) -> Int { text?.utf16.count ?? 0 }

/// The handler answers 200 with JSON or 400 with problem+json, never anything
/// else for a POST of a JSON body of any bytes, and its body always parses as
/// an object; a 400's carries a 400 problem code. Returns a 200's body.
func checkHandler(path: String, body: [UInt8]) -> [UInt8]? {
    let response = service.handle(HTTPRequest(method: "POST", path: path, body: body))
    require(response.status == 200 || response.status == 400, "\(path) answers 200 or 400, got \(response.status)")
    let contentType = response.headers.first { $0.name == "Content-Type" }?.value
    require(
        contentType == (response.status == 200 ? "application/json" : "application/problem+json"),
        "\(path) content type")
    guard let document = try? JSONParser.tape(response.body) else {
        fatalError("service promise broken: \(path) answered JSON that does not parse")
    }
    require(document.kind(JSONTape.root) == .object, "\(path) answers an object")
    if response.status == 400 {
        guard let code = document.members(JSONTape.root).first(where: { document.isName($0.name, "code") }),
            document.kind(code.value) == .string
        else {
            fatalError("service promise broken: a problem without a code")
        }
        let text = document.string(code.value)
        require(ProblemCode(rawValue: text)?.status == 400, "a 400 carries a 400 problem code, got \(text)")
        return nil
    }
    return response.body
}

func checkBody(_ bytes: [UInt8]) {
    let answered = checkHandler(path: "/body", body: bytes)
    let decoded = try? BodyRequest.decode(bytes)
    require((answered != nil) == (decoded != nil), "/body answers 200 iff the request decodes")
    guard let request = decoded else { return }
    let rendering = BodyRenderer.render(request.text, maxUnits: request.maxUnits)
    require(rendering.units <= request.maxUnits, "/body fits maxUnits")
    var body = rendering.body
    let expected = body.withUTF8 {
        RenderedJSON.body(
            $0, ellipsis: false, units: rendering.units, truncated: rendering.truncated, inputCut: rendering.inputCut)
    }
    require(expected == answered, "/body answers the rendering's JSON")
}

func checkCompose(_ bytes: [UInt8]) {
    let answered = checkHandler(path: "/compose", body: bytes)
    let clock = { WallClock.fixed(nanosecondsSinceEpoch: fixedNanoseconds).timestamp() }
    let decoded = try? ComposeRequest.decode(bytes, serverApp: ComposeRequest.defaultApp, now: clock)
    require((answered != nil) == (decoded != nil), "/compose answers 200 iff the request decodes")
    // The first pass only ever returns what the validated pass would.
    if let first = try? ComposeDecoder.decode(
        bytes, serverApp: ComposeRequest.defaultApp, catalogs: .builtIn, now: clock, validated: false)
    {
        let validated = try? ComposeDecoder.decode(
            bytes, serverApp: ComposeRequest.defaultApp, catalogs: .builtIn, now: clock, validated: true)
        require(validated?.bytes == first.bytes, "both passes append the same bytes")
        require(validated == first, "both passes decode the same request")
    }
    // A notification read by its shape is read as the general path reads it
    // (the validated pass only of a text the parser accepts); the first pass
    // starts from the shapes the inputs before this one left on the thread.
    let isJSON = (try? JSONParser.tape(bytes)) != nil
    for validated in isJSON ? [false, true] : [false] {
        let shaped = Result { () throws(Problem) in
            try ComposeDecoder.decode(
                bytes, serverApp: ComposeRequest.defaultApp, catalogs: .builtIn, now: clock, validated: validated)
        }
        let general = Result { () throws(Problem) in
            try ComposeDecoder.decode(
                bytes, serverApp: ComposeRequest.defaultApp, catalogs: .builtIn, now: clock, validated: validated,
                readsShapes: false)
        }
        switch (shaped, general) {
        case (.success(let a), .success(let b)): require(a == b && a.bytes == b.bytes, "shapes decode as without")
        case (.failure(let a), .failure(let b)):
            require(!validated || (a.code == b.code && a.detail == b.detail), "shapes refuse as without")
        default: require(false, "shapes accept exactly what the general path accepts")
        }
    }
    guard let request = decoded else { return }
    let response = Composer.compose(request)
    require(response == Composer.compose(request), "composing is deterministic")
    // The service composes from ranges of the body; a Swift caller's strings are laid out anew.
    let rebuilt = ComposeRequest(
        notifications: request.notifications, displayed: request.displayed, now: request.now,
        maxAgeSeconds: request.maxAgeSeconds, maxUnits: request.maxUnits, app: request.app,
        serverApp: request.serverApp, recipient: request.recipient, fetch: request.fetch, catalog: request.catalog)
    require(Composer.compose(rebuilt).jsonBody() == answered, "the request's values compose the same reply")
    require(response.locale == request.catalog.tag, "the response names the catalog the request chose")
    let content = response.notification
    require(!content.title.isEmpty && units(content.title) <= 256, "title is non-empty and at most 256 units")
    require(
        content.subtitle.map { !$0.isEmpty && units($0) <= 256 } ?? true,
        "subtitle is null or non-empty, at most 256 units")
    require(units(content.body) <= request.maxUnits, "body fits maxUnits")
    require(response.displayed.count <= ComposeRequest.maxDisplayedOutput, "displayed holds at most 1000 entries")
    // Keys are compared by code points, not canonical equivalence (`String ==`);
    // an entry of a group alone (a fallback) is one per group (compose.md C10).
    let keyed = response.displayed.compactMap { $0.key.map { Array($0.unicodeScalars.map(\.value)) } }
    let groupsAlone = response.displayed.filter { $0.key == nil }.map { $0.group ?? "" }
    require(
        Set(keyed).count == keyed.count && Set(groupsAlone).count == groupsAlone.count,
        "displayed has one entry per key, and one per group for entries of a group alone")
    if request.fetch == .ok {
        require(
            response.shown.count + response.dropped.count == request.notifications.count,
            "every notification is either shown or dropped")
    } else {
        require(response.kind == .fallback && response.shown.isEmpty, "a failed fetch is a fallback showing nothing")
    }
    require((response.kind == .fallback) == response.shown.isEmpty, "only a fallback shows nothing")
    require(response.jsonBody() == answered, "/compose answers the response's JSON")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCompose(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    checkBody(bytes)
    checkCompose(bytes)
    return 0
}
