import NotificationText

/// `POST /body`: `{"text": string, "maxUnits": integer 256…4096 (default 256)}`.
public struct BodyRequest: Sendable, Equatable {
    public var text: String
    public var maxUnits: Int

    public init(text: String, maxUnits: Int = BodyRenderer.defaultMaxUnits) {
        self.text = text
        self.maxUnits = maxUnits
    }

    /// Decodes and validates a request body; the problem says what and where.
    public static func decode(_ bytes: [UInt8]) throws(Problem) -> BodyRequest {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw Problem(error)
        }
        return try decode(document)
    }

    static func decode(_ document: JSONValue) throws(Problem) -> BodyRequest {
        guard case .object(let object) = document else {
            throw Problem(.invalidType, "the request body must be a JSON object, got \(document.typeName)")
        }
        var text: String? = nil
        var maxUnits = BodyRenderer.defaultMaxUnits
        for (name, value) in object.members {
            switch name {
            case "text":
                if case .null = value { continue }
                text = try FieldDecoding.string(value, at: "text")
            case "maxUnits":
                if case .null = value { continue }
                maxUnits = try FieldDecoding.integer(value, in: BodyRenderer.maxUnitsRange, at: "maxUnits")
            default:
                continue  // unknown members are ignored
            }
        }
        guard let text else { throw FieldDecoding.missing("text") }
        return BodyRequest(text: text, maxUnits: maxUnits)
    }
}

extension BodyRendering {
    /// `{"body","units","truncated","inputCut"}`, compact.
    func jsonBody() -> [UInt8] {
        var writer = JSONWriter(capacity: body.utf8.count + 64)
        writer.beginObject()
        writer.key("body")
        writer.string(body)
        writer.key("units")
        writer.integer(units)
        writer.key("truncated")
        writer.bool(truncated)
        writer.key("inputCut")
        writer.bool(inputCut)
        writer.endObject()
        return writer.bytes
    }
}
