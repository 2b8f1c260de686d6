/// `POST /body`: `{"text": string, "maxUnits": integer 256…4096 (default 256)}`.
package struct BodyRequest: Sendable, Equatable {
    package var text: String
    package var maxUnits: Int

    package init(text: String, maxUnits: Int = BodyRenderer.defaultMaxUnits) {
        self.text = text
        self.maxUnits = maxUnits
    }

    /// The members a request has (body.md, Input and output); any other is
    /// refused (`unknown-member`, compose.md 2.2).
    static let members = ["text", "maxUnits"]

    /// Decodes and validates a request body; the problem says what and where.
    package static func decode(_ bytes: [UInt8]) throws(Problem) -> BodyRequest {
        let fields = try Fields.decode(bytes)
        return BodyRequest(text: fields.tape.string(fields.text), maxUnits: fields.maxUnits)
    }

    /// A validated request on its tape: the service renders the text from the
    /// request's own bytes, without a `String` of it.
    struct Fields {
        let tape: JSONTape
        /// The entry of the `text` string.
        let text: Int
        let maxUnits: Int

        static func decode(_ bytes: [UInt8]) throws(Problem) -> Fields {
            let tape: JSONTape
            do {
                tape = try JSONParser.tape(bytes)
            } catch {
                throw Problem(error)
            }
            let root = JSONTape.root
            guard tape.kind(root) == .object else {
                throw Problem(
                    .invalidType, "the request body must be a JSON object, got \(tape.typeName(root))", at: "")
            }
            var text: Int? = nil
            var maxUnits = BodyRenderer.defaultMaxUnits
            for (name, value) in tape.members(root) {
                if tape.isName(name, "text") {
                    if tape.kind(value) == .null { continue }
                    guard tape.kind(value) == .string else {
                        throw FieldDecoding.typeMismatch("text", expected: "a string", got: tape.typeName(value))
                    }
                    text = value
                } else if tape.isName(name, "maxUnits") {
                    if tape.kind(value) == .null { continue }
                    maxUnits = try FieldDecoding.integer(tape, value, in: BodyRenderer.maxUnitsRange, at: "maxUnits")
                } else {
                    throw FieldDecoding.unknownMember(tape.string(name), in: "", members: BodyRequest.members)
                }
            }
            guard let text else { throw FieldDecoding.missing("text") }
            return Fields(tape: tape, text: text, maxUnits: maxUnits)
        }
    }
}

extension RenderedBytes {
    /// `{"body","units","truncated","inputCut"}`, compact.
    package func jsonBody() -> [UInt8] {
        RenderedJSON.body(text, ellipsis: ellipsis, units: units, truncated: truncated, inputCut: inputCut)
    }
}

/// The `/body` reply.
enum RenderedJSON {
    static func body(_ text: UnsafeBufferPointer<UInt8>, ellipsis: Bool, units: Int, truncated: Bool, inputCut: Bool)
        -> [UInt8]
    {
        // Escapes rarely grow a body by more than a few bytes; the rest is 64 at most.
        JSONWriter.bytes(capacity: text.count + text.count / 8 + 72) { json in
            json.raw(#"{"body":""#)
            json.escaped(text)
            if ellipsis { json.raw("…") }
            json.raw(#"","units":"#)
            json.integer(units)
            json.raw(truncated ? #","truncated":true"# : #","truncated":false"#)
            json.raw(inputCut ? #","inputCut":true}"# : #","inputCut":false}"#)
        }
    }
}
