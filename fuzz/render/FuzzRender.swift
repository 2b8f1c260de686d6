// libFuzzer target for the body renderer (docs/spec/body.md, sections 1 to 7).
//
// Built by `make fuzz-build` with SwiftPM (the `fuzz-render` target that
// Package.swift declares when NOTIFICATION_TEXT_FUZZ=1, with
// --sanitize=fuzzer --sanitize=address). Every input is decoded as
// UTF-8 (invalid bytes become U+FFFD, as a JSON decoder would never let them
// through anyway) and rendered with several caps; each rendering must keep the
// renderer's promises, checked against small, obviously-correct references
// built on Swift's own `Character` segmentation. A broken promise traps, which
// libFuzzer reports as a crash with the input saved.

@testable import NotificationEngine

/// Stops the run with a message naming the promise that failed.
func require(_ condition: @autoclosure () -> Bool, _ promise: @autoclosure () -> String) {
    if !condition() {
        fatalError("renderer promise broken: \(promise())")
    }
}

/// Byte-for-byte equality: `String ==` compares canonical equivalence, which
/// would hide a renderer that changed normalization.
func same(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }

/// U+0020, U+0009 and U+000A: the only whitespace the body rules know.
func isRuleWhitespace(_ scalar: Unicode.Scalar) -> Bool {
    scalar == " " || scalar == "\t" || scalar == "\n"
}

/// The longest prefix of whole Characters of `text` holding at most `maxUnits`
/// UTF-16 units: the reference for both cuts (sections 1 and 7).
func characterPrefix(_ text: String, maxUnits: Int) -> String {
    var units = 0
    var end = text.startIndex
    for character in text {
        let characterUnits = character.utf16.count
        if units + characterUnits > maxUnits { break }
        units += characterUnits
        end = text.index(after: end)
    }
    return String(text[..<end])
}

/// `text` without trailing space, tab or line feed scalars.
func withoutTrailingWhitespace(_ text: String) -> String {
    var scalars = Array(text.unicodeScalars)
    while let last = scalars.last, isRuleWhitespace(last) { scalars.removeLast() }
    var result = String.UnicodeScalarView()
    result.append(contentsOf: scalars)
    return String(result)
}

/// Section 7 done the slow, plain way over Characters.
func referenceCap(_ text: String, maxUnits: Int, inputCut: Bool) -> String {
    if text.utf16.count <= maxUnits && !inputCut { return text }
    return withoutTrailingWhitespace(characterPrefix(text, maxUnits: maxUnits - 1)) + "\u{2026}"
}

/// The caps to try for one input: the smallest, one chosen by the input, and,
/// when the rendering is longer than the smallest, caps right around its
/// length, where the cap decides most. (A rendering within 256 units gives
/// the same body under every cap, so more caps would only cost time.)
func caps(for uncappedUnits: Int, seed: Int) -> [Int] {
    let range = BodyRenderer.maxUnitsRange
    var result = [range.lowerBound, range.lowerBound + seed % range.count]
    if uncappedUnits > range.lowerBound {
        for candidate in [uncappedUnits - 1, uncappedUnits, uncappedUnits + 1]
        where range.contains(candidate) && !result.contains(candidate) {
            result.append(candidate)
        }
    }
    return result
}

func checkRendering(of text: String, seed: Int) {
    let uncapped = BodyRenderer.renderUncapped(text)
    let rendered = uncapped.text
    let again = BodyRenderer.renderUncapped(text)
    require(same(again.text, rendered) && again.inputCut == uncapped.inputCut, "rendering is deterministic")
    let inputUnits = text.utf16.count

    // Section 1: cut iff longer than 4096 units, and then exactly the
    // rendering of the longest whole-Character prefix.
    require(uncapped.inputCut == (inputUnits > BodyRenderer.inputMaxUnits), "inputCut iff input > 4096 units")
    if uncapped.inputCut {
        let prefix = characterPrefix(text, maxUnits: BodyRenderer.inputMaxUnits)
        let ofPrefix = BodyRenderer.renderUncapped(prefix)
        require(!ofPrefix.inputCut, "a whole-Character prefix of 4096 units is not cut again")
        require(same(ofPrefix.text, rendered), "a cut input renders like its whole-Character prefix")
    }

    // Section 6.4: no leading or trailing whitespace before the cap.
    if let first = rendered.unicodeScalars.first {
        require(!isRuleWhitespace(first), "uncapped text has no leading whitespace")
    }
    if let last = rendered.unicodeScalars.last {
        require(!isRuleWhitespace(last), "uncapped text has no trailing whitespace")
    }
    require(!rendered.unicodeScalars.contains("\r"), "no carriage return survives section 2")
    require(!rendered.contains("\n\n\n"), "no run of 3 line feeds survives section 6.3")

    for maxUnits in caps(for: rendered.utf16.count, seed: seed) {
        let result = BodyRenderer.render(text, maxUnits: maxUnits)
        let body = result.body
        let bodyUnits = body.utf16.count

        require(result.units == bodyUnits, "units == body.utf16.count")
        require(bodyUnits <= maxUnits, "body fits maxUnits \(maxUnits)")
        require(result.inputCut == uncapped.inputCut, "render and renderUncapped agree on inputCut")
        require(!result.inputCut || result.truncated, "inputCut implies truncated")
        // Valid Unicode: the body's UTF-8 decodes back to itself, so no scalar
        // was split and repaired into U+FFFD on the way.
        require(
            String(validating: Array(body.utf8), as: UTF8.self).map { same($0, body) } == true, "body is valid UTF-8")

        let mustCap = rendered.utf16.count > maxUnits || uncapped.inputCut
        require(result.truncated == mustCap, "truncated iff the rendering exceeds the cap or the input was cut")
        if result.truncated {
            require(body.unicodeScalars.last == "\u{2026}", "a truncated body ends with the ellipsis")
        } else {
            require(same(body, rendered), "a body that fits is the whole rendering")
        }
        require(
            same(body, referenceCap(rendered, maxUnits: maxUnits, inputCut: uncapped.inputCut)),
            "the cap keeps the longest whole-Character prefix (maxUnits \(maxUnits))")

        if let first = body.unicodeScalars.first { require(!isRuleWhitespace(first), "body has no leading whitespace") }
        if let last = body.unicodeScalars.last { require(!isRuleWhitespace(last), "body has no trailing whitespace") }
    }

    // The cap rule, reused by compose on arbitrary text, keeps the same promises.
    let maxUnits = caps(for: 0, seed: seed)[1]
    let capped = BodyCap.apply(text, maxUnits: maxUnits, inputCut: false)
    require(capped.units == capped.body.utf16.count, "BodyCap units == body.utf16.count")
    require(capped.units <= maxUnits, "BodyCap fits maxUnits")
    require(capped.truncated == (inputUnits > maxUnits), "BodyCap truncates iff the text exceeds the cap")
    require(
        same(capped.body, referenceCap(text, maxUnits: maxUnits, inputCut: false)), "BodyCap matches the reference cap")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRender(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    var seed = 0
    for byte in bytes.prefix(8) { seed = seed &* 31 &+ Int(byte) }
    checkRendering(of: text, seed: seed & Int.max)
    return 0
}
