import NotificationEngine

// The WebAssembly modules' exports (docs/wasm.md): the engine's
// answers, JSON in and JSON out, the bytes HTTP gives. This file is the
// modules' edge with their host, as EventHTTP is the service's with libevent:
// the only code here that reads the host's pointers. Built by `make wasm`
// with Embedded Swift for wasm32-unknown-none-wasm, never by SwiftPM, twice:
// the browser's notification-text.wasm (body, compose, locale) and, with
// `-D RELAY_MODULE`, the relay's notification-text-relay.wasm (the relay's
// core, which composes itself), each within the size targets (ADR 0041).
// One file for both, so the browser's module is the same bytes it was
// without the relay's.
//
// A call: the host takes memory with `nt_alloc`, writes the request's UTF-8
// there, calls `nt_body`, `nt_compose`, `nt_locale`, `nt_relay` or
// `nt_configure`, which return the HTTP status (200, or the problem's),
// frees its memory with `nt_free`, and reads the answer at
// `nt_answer_pointer` for `nt_answer_length` bytes: a 200's JSON, or the problem object
// (`application/problem+json`). The answer stays until the next call.
// A bad request is a problem, never a trap. A host that keeps its request
// memory from call to call reads the answer's place from `nt_answer_slot`
// instead: one call into the module per answer, where a call across the
// boundary is what costs (wasmtime-py converts every argument and result).

/// The module's state: one instance is one thread, one call at a time.
struct ModuleState {
    /// The last call's answer.
    var answer: [UInt8] = []
    /// `serve --app-name`, `--default-locale`: set by `nt_configure`.
    var appName = ComposeRequest.defaultApp
    var catalogs = CatalogSet.builtIn
    /// The shapes and buffers a compose leaves for the next (`RequestAnswers.compose`).
    let kept = KeptShapes()
    /// `nt_answer_slot`: the answer's pointer and length, rewritten with every answer.
    let slot: UnsafeMutablePointer<Int32> = {
        let slot = UnsafeMutablePointer<Int32>.allocate(capacity: 2)
        slot.initialize(repeating: 0, count: 2)
        return slot
    }()

    /// Keeps `bytes` as the answer and writes where they are into the slot.
    mutating func keep(_ bytes: [UInt8]) {
        answer = bytes
        slot[0] = answer.withUnsafeBytes { Int32(truncatingIfNeeded: Int(bitPattern: $0.baseAddress)) }
        slot[1] = Int32(answer.count)
    }
}

nonisolated(unsafe) var state = ModuleState()

/// The version of this interface: a host checks it before the first call.
/// 2 added `nt_answer_slot` to 1.
@_expose(wasm, "nt_abi_version") @_cdecl("nt_abi_version")
func abiVersion() -> Int32 { 2 }

/// `byteCount` bytes for the host to write a request into; 0 when there is no memory left.
@_expose(wasm, "nt_alloc") @_cdecl("nt_alloc")
func allocate(_ byteCount: Int32) -> UnsafeMutableRawPointer? {
    guard byteCount >= 0 else { return nil }
    return UnsafeMutableRawPointer.allocate(byteCount: Int(max(byteCount, 1)), alignment: 8)
}

/// Gives back what `nt_alloc` gave.
@_expose(wasm, "nt_free") @_cdecl("nt_free")
func free(_ pointer: UnsafeMutableRawPointer?) {
    pointer?.deallocate()
}

/// The last answer's first byte.
@_expose(wasm, "nt_answer_pointer") @_cdecl("nt_answer_pointer")
func answerPointer() -> UnsafeRawPointer? {
    state.answer.withUnsafeBytes { $0.baseAddress }
}

/// The last answer's length in bytes.
@_expose(wasm, "nt_answer_length") @_cdecl("nt_answer_length")
func answerLength() -> Int32 { Int32(state.answer.count) }

/// Where two 32-bit integers (little-endian, as all of the module's memory)
/// hold the last answer's pointer and length: the same place for the
/// instance's life, rewritten by every call, so a host asks once.
@_expose(wasm, "nt_answer_slot") @_cdecl("nt_answer_slot")
func answerSlot() -> UnsafeMutablePointer<Int32> { state.slot }

#if RELAY_MODULE
/// A `POST /relay` request (`RelayCore`, docs/relay.md "The core"): the
/// relay's next record and what to do, or its problem. The request carries
/// its own `now`; the loop composes with the settings of `nt_configure`.
@_expose(wasm, "nt_relay") @_cdecl("nt_relay")
func relay(_ request: UnsafePointer<UInt8>?, _ byteCount: Int32) -> Int32 {
    let bytes = copy(request, byteCount)
    return answer { () throws(Problem) in
        try RequestAnswers.relay(request: bytes, appName: state.appName, catalogs: state.catalogs, kept: state.kept)
    }
}
#else
/// A `POST /body` request: `{"body","units","truncated","inputCut"}` or its problem.
@_expose(wasm, "nt_body") @_cdecl("nt_body")
func body(_ request: UnsafePointer<UInt8>?, _ byteCount: Int32) -> Int32 {
    let bytes = copy(request, byteCount)
    return answer { () throws(Problem) in try RequestAnswers.body(request: bytes) }
}

/// A `POST /compose` request, with the clock the module lacks: `now`, an
/// RFC 3339 date-time, is used when the request has no `now` (as the
/// service reads its clock). -1 when `now` is not one (the host's mistake,
/// no answer).
@_expose(wasm, "nt_compose") @_cdecl("nt_compose")
func compose(
    _ request: UnsafePointer<UInt8>?, _ byteCount: Int32, _ now: UnsafePointer<UInt8>?, _ nowByteCount: Int32
) -> Int32 {
    guard let clock = Timestamp(rfc3339: String(decoding: copy(now, nowByteCount), as: UTF8.self)) else {
        state.keep([])
        return -1
    }
    let bytes = copy(request, byteCount)
    return answer { () throws(Problem) in
        try RequestAnswers.compose(
            request: bytes, appName: state.appName, catalogs: state.catalogs, now: { clock }, kept: state.kept)
    }
}

/// How a `locale` chooses its catalog: `{"locale","defaultLocale","count","format","arguments"}`
/// in, the `locale` command's JSON out (`LocaleQuestion`).
@_expose(wasm, "nt_locale") @_cdecl("nt_locale")
func locale(_ request: UnsafePointer<UInt8>?, _ byteCount: Int32) -> Int32 {
    let bytes = copy(request, byteCount)
    return answer { () throws(Problem) in try LocaleQuestion.decode(bytes).jsonAnswer() }
}
#endif

/// The service's settings for the calls that follow: `{"appName": NAME,
/// "defaultLocale": TAG}`, each optional (`serve --app-name`,
/// `--default-locale`); answers both as they now are.
@_expose(wasm, "nt_configure") @_cdecl("nt_configure")
func configure(_ request: UnsafePointer<UInt8>?, _ byteCount: Int32) -> Int32 {
    let bytes = copy(request, byteCount)
    return answer { () throws(Problem) in
        let settings = try ModuleSettings.decode(bytes)
        if let appName = settings.appName { state.appName = appName }
        if let catalogs = settings.catalogs { state.catalogs = catalogs }
        return ModuleSettings.json(appName: state.appName, defaultLocale: state.catalogs.defaultCatalog.tag)
    }
}

/// The host's bytes as an array: the engine reads `[UInt8]`. Copied with
/// memcpy: `Array(UnsafeBufferPointer)` copies byte by byte in Embedded Swift.
private func copy(_ pointer: UnsafePointer<UInt8>?, _ byteCount: Int32) -> [UInt8] {
    guard let pointer, byteCount > 0 else { return [] }
    return [UInt8](unsafeUninitializedCapacity: Int(byteCount)) { buffer, initialized in
        UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: pointer, byteCount: Int(byteCount))
        initialized = Int(byteCount)
    }
}

/// Keeps `compute`'s bytes, or its problem's, as the answer; returns the status.
private func answer(_ compute: () throws(Problem) -> [UInt8]) -> Int32 {
    do throws(Problem) {
        state.keep(try compute())
        return 200
    } catch {
        state.keep(error.jsonBody())
        return Int32(error.status)
    }
}
