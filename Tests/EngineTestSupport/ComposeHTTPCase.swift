import NotificationEngine
import Testing

/// A case of test-fixtures/compose.json, kept as parsed JSON so the request is
/// sent exactly as the fixture writes it.
public struct ComposeHTTPCase: Sendable, CustomTestStringConvertible {
    public let id: String
    public let description: String
    public let request: JSONValue
    public let response: JSONValue

    public var testDescription: String { id }

    public static let all: [ComposeHTTPCase] = {
        guard case .object(let file)? = try? JSONParser.parse(repositoryFile("test-fixtures/compose.json")),
            case .array(let cases)? = file["cases"]
        else { return [] }
        return cases.compactMap { value in
            guard case .object(let object) = value, case .string(let id)? = object["id"],
                case .string(let description)? = object["description"],
                let request = object["request"], let response = object["response"]
            else { return nil }
            return ComposeHTTPCase(id: id, description: description, request: request, response: response)
        }
    }()
}
