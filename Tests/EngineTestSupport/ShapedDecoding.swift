import NotificationEngine
import Testing

/// The decoder's two paths side by side, for the tests of shapes (engine) and
/// of the shapes each thread keeps (service): a request decoded with shapes
/// and without, and requests of few shapes with their mutations.
package enum ShapedDecoding {
    private static let clock = Timestamp(rfc3339: "2026-11-29T12:00:00Z")!

    /// What the service's decoder answers, shapes on or off, and how many
    /// objects the passes read by their shape. The first pass starts from
    /// `kept` (by default none; nil: the calling thread's).
    package static func decode(_ json: [UInt8], readsShapes: Bool, kept: KeptShapes? = KeptShapes()) -> (
        outcome: Result<ComposeRequest, Problem>, shapedReads: Int
    ) {
        var shaped = 0
        var validatedShaped = 0
        let outcome = Result { () throws(Problem) -> ComposeRequest in
            if let request = try? ComposeDecoder.decode(
                json, serverApp: "Buzz", catalogs: .builtIn, now: { clock }, validated: false,
                readsShapes: readsShapes, keptShapes: kept, shapedReads: &shaped)
            {
                return request
            }
            do throws(JSONParseError) {
                _ = try JSONParser.tape(json)
            } catch {
                throw Problem(error)
            }
            return try ComposeDecoder.decode(
                json, serverApp: "Buzz", catalogs: .builtIn, now: { clock }, validated: true,
                readsShapes: readsShapes, shapedReads: &validatedShaped)
        }
        return (outcome, shaped + validatedShaped)
    }

    /// Checks the promise for `json`, its first pass starting from `kept`
    /// (as `decode`); the number of objects read by shape.
    @discardableResult
    package static func checkSameAsGeneralPath(
        _ json: [UInt8], _ label: @autoclosure () -> String, kept: KeptShapes? = KeptShapes()
    ) -> Int {
        let shaped = decode(json, readsShapes: true, kept: kept)
        let general = decode(json, readsShapes: false)
        #expect(general.shapedReads == 0, "\(label()): shapes off, yet read by shape")
        switch (shaped.outcome, general.outcome) {
        case (.success(let request), .success(let expected)):
            #expect(request == expected, "\(label()): a different request")
            #expect(request.bytes == expected.bytes, "\(label()): different bytes appended")
        case (.failure(let problem), .failure(let expected)):
            #expect(problem.code == expected.code, "\(label())")
            #expect(problem.detail == expected.detail, "\(label())")
        case (.success, .failure(let expected)):
            Issue.record("\(label()): accepted by shape, refused without (\(expected.code): \(expected.detail))")
        case (.failure(let problem), .success):
            Issue.record("\(label()): refused by shape (\(problem.code): \(problem.detail)), accepted without")
        }
        return shaped.shapedReads
    }

    /// One random edit: a byte dropped or changed, a piece of JSON inserted, a span repeated.
    package static func mutate<R: RandomNumberGenerator>(_ json: inout [UInt8], using random: inout R) {
        guard !json.isEmpty else { return }
        let at = Int.random(in: 0..<json.count, using: &random)
        let pieces = [
            "null", ",", ":", "{", "}", "[", "]", "\"", "\\", "\\u0041", "\\ud800", " ", "0", "-", "1e5", ".5", "true",
            "\"id\":\"x\",",
            "\"type\":\"t\",", "\"sender\":{},", "\"x\":[],", "\u{1}", "\u{E9}", "\"now\":\"2026-11-29T12:00:00Z\",",
            "\"read\":true,",
        ]
        switch Int.random(in: 0..<4, using: &random) {
        case 0: json.remove(at: at)
        case 1: json[at] = UInt8.random(in: 0x20...0x7E, using: &random)
        case 2: json.insert(contentsOf: Array(pieces[Int.random(in: 0..<pieces.count, using: &random)].utf8), at: at)
        default:
            let end = min(json.count, at + Int.random(in: 1...24, using: &random))
            json.insert(contentsOf: json[at..<end], at: end)
        }
    }
}

/// Compose requests whose notifications share one set of members, in one
/// order and one spacing, as clients write them; values vary, now and then
/// escaped, a source with a `:`, an invalid timestamp or a `null`; one
/// request in eight has a member its objects do not define (`Text`,
/// `score`), in every notification, and some a displayed entry's `Key`.
package enum UniformCompose {
    private static let members = [
        "id", "source", "type", "timestamp", "read", "thread", "threadTitle", "sender", "text", "defaultText", "url",
    ]
    private static let unknownMembers = ["Text", "score"]
    private static let words = ["a", "Ana", "release-4182", "#release", "ok", "x:y", "", "héllo", "👍"]

    /// A request; with `shape`, its members, order, spacing and `read` are
    /// drawn from that seed alone, so requests of one `shape` differ only in
    /// their values (and their numbers of objects).
    package static func json(using random: inout SplitMix64, shape: UInt64? = nil) -> [UInt8] {
        var drawn = shape.map { SplitMix64(seed: $0) } ?? random
        let space = [",", ", ", ",\n  "][Int.random(in: 0..<3, using: &drawn)]
        var names = members.filter { ["id", "type", "timestamp"].contains($0) || Bool.random(using: &drawn) }
        if Int.random(in: 0..<8, using: &drawn) == 0 {
            names.append(unknownMembers[Int.random(in: 0..<unknownMembers.count, using: &drawn)])
        }
        names.shuffle(using: &drawn)
        let read = Bool.random(using: &drawn) ? "true" : "false"
        let extraDisplayed = [#""#, #" "#, #","Key":"x""#, #"  "#, #""#, #" "#, #""#, #" "#][
            Int.random(in: 0..<8, using: &drawn)]
        if shape == nil { random = drawn }
        var notifications: [String] = []
        for index in 0..<Int.random(in: 2...8, using: &random) {
            let fields = names.map { name -> String in
                let value: String
                switch name {
                case "timestamp":
                    let second = Int.random(in: 0..<60, using: &random)
                    value =
                        Int.random(in: 0..<40, using: &random) == 0
                        ? #""2026-11-29T11:00:61Z""# : "\"2026-11-29T11:00:\(second < 10 ? "0" : "")\(second)Z\""
                case "read": value = read
                case "sender": value = #"{"id":"u\#(index)","name":\#(string(&random))}"#
                case "score": value = ["1.5", "2", "true"][Int.random(in: 0..<3, using: &random)]
                default: value = Int.random(in: 0..<30, using: &random) == 0 ? "null" : string(&random)
                }
                return "\"\(name)\":\(value)"
            }
            notifications.append("{" + fields.joined(separator: space) + "}")
        }
        let displayed = (0..<Int.random(in: 0...6, using: &random)).map { index -> String in
            let second = Int.random(in: 10..<60, using: &random)
            let key = Int.random(in: 0..<10, using: &random) == 0 ? #""k\u0041:\#(index)""# : #""k:\#(index)""#
            let timestamp =
                Int.random(in: 0..<30, using: &random) == 0 ? "null" : "\"2026-11-29T11:59:\(second)Z\""
            return "{\"key\":\(key),\"timestamp\":\(timestamp)\(extraDisplayed)}"
        }
        let body =
            #"{"now":"2026-11-29T12:00:00Z","notifications":["# + notifications.joined(separator: space)
            + #"],"displayed":["# + displayed.joined(separator: space) + "]}"
        return Array(body.utf8)
    }

    /// A JSON string of a word or two, a share of them escaped.
    private static func string<R: RandomNumberGenerator>(_ random: inout R) -> String {
        var text = words[Int.random(in: 0..<words.count, using: &random)]
        if Bool.random(using: &random) { text += " " + words[Int.random(in: 0..<words.count, using: &random)] }
        switch Int.random(in: 0..<8, using: &random) {
        case 0: text += #"\n"#
        case 1: text = #"\u0041"# + text
        case 2: text += #"\""#
        default: break
        }
        return "\"\(text)\""
    }
}
