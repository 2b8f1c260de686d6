import HTTPCore
import NotificationEngine
import NotificationService

/// The cost curve (issue 45): `POST /compose` as compose-20.json writes its
/// notifications, with 1, 5, 100 and 1,000 of them, and `POST /body` with
/// texts of 100 B to 100 KB, through the service as the gate's other
/// in-process cases. A case makes its request on its first run (the gate's
/// difference of two run counts cancels it), so the bench's other cases do
/// not pay for making them.
func curveBenchCases() -> [BenchCase] {
    let service = NotificationTextService(configuration: ServiceConfiguration(accessLogEnabled: false))
    service.setState(.running)
    var cases: [BenchCase] = []
    for pending in [1, 5, 100, 1_000] {
        let request = MadeOnce { post("/compose", body: CurvePayloads.compose(pending: pending)) }
        cases.append(
            BenchCase(name: "service POST /compose curve, \(pending) pending") {
                answer(request.value, by: service)
            })
    }
    for (label, byteCount) in [("100 B", 100), ("1 KB", 1_000), ("10 KB", 10_000), ("100 KB", 100_000)] {
        let request = MadeOnce { post("/body", body: CurvePayloads.body(byteCount: byteCount)) }
        cases.append(
            BenchCase(name: "service POST /body curve, \(label)") {
                answer(request.value, by: service)
            })
    }
    return cases
}

/// A value made by `make` the first time it is read.
final class MadeOnce<Value> {
    private let make: () -> Value
    private var made: Value?

    init(_ make: @escaping () -> Value) { self.make = make }

    var value: Value {
        if let made { return made }
        let value = make()
        made = value
        return value
    }
}

/// A `POST` of `body` to `path`, as a client sends it.
func post(_ path: String, body: [UInt8]) -> HTTPRequest {
    HTTPRequest(
        method: "POST", path: path,
        headers: [("host", "127.0.0.1"), ("content-type", "application/json"), ("content-length", String(body.count))],
        body: body)
}

/// `service`'s answer to `request`, which must be a 200, as the route's metrics see it; its length.
func answer(_ request: HTTPRequest, by service: NotificationTextService) -> Int {
    let response = service.handle(request)
    precondition(response.status == 200, "the bench request to \(request.path) was refused: \(response.status)")
    service.didRespond(to: request, with: response, durationNanoseconds: 1000)
    return response.body.count
}

/// The curve's request bodies, generated: the same kind of text as the
/// payloads of `bench/payloads/`, in the counts and sizes the curve asks for.
enum CurvePayloads {
    /// Chat messages as compose-20.json has them (Markdown, a link, code).
    static let texts = [
        "Deploy of **build 4182** finished, see the [dashboard](https://status.example.com/deploys/4182).",
        "Can someone review `Sources/App/Router.swift`? It's ~~small~~ tiny, promise :)",
        "Thanks [@ana](https://chat.example.com/u/ana)! Merging after CI is green.",
        "```\nswift test --filter Body\n```\nall green here",
    ]
    static let names = ["Ana", "Bo", "Chen", "Dara", "Eli", "Fay", "Gus"]

    /// A `/compose` body with `pending` notifications of one thread, within
    /// the last 10 minutes of its `now`, oldest first, and compose-20.json's
    /// two displayed entries.
    static func compose(pending: Int) -> [UInt8] {
        var json = #"{"now":"2026-11-29T18:00:00Z","recipient":"u-me","maxAgeSeconds":600,"notifications":["#
        for index in 0..<pending {
            // From 17:50:30 to 17:59:30: some share a second at 1,000.
            let second = 30 + index * 540 / pending
            let time = "17:\(50 + second / 60):\(two(second % 60))"
            let name = names[index % names.count]
            if index > 0 { json += "," }
            json += #"{"id":"m\#(1000 + index)","source":"chat","type":"message","timestamp":"2026-11-29T\#(time)Z","#
            json += ##""thread":"release-4182","threadTitle":"#release","sender":{"id":"u-\##(name.lowercased())","##
            json += #""name":"\#(name)"},"text":\#(quoted(texts[index % texts.count])),"#
            json += #""url":"https://chat.example.com/c/release/m\#(1000 + index)"}"#
        }
        json += #"],"displayed":[{"key":"chat:m0990","timestamp":"2026-11-29T17:49:00Z"},"#
        json += #"{"key":"chat:m1003","timestamp":"2026-11-29T17:50:39Z"}]}"#
        return Array(json.utf8)
    }

    /// A `/body` body whose text is body-typical.txt's message repeated,
    /// one paragraph each, to `byteCount` bytes of UTF-8.
    static func body(byteCount: Int) -> [UInt8] {
        let paragraph =
            "Hey team, the deploy of **build 4182** finished. The [dashboard](https://status.example.com/deploys/4182)"
            + " looks green; run `make verify` if you touched the ~~old~~ new config. Ping [@ana](https://chat.example.com/u/ana) 👍"
        var text = ""
        while text.utf8.count < byteCount { text += (text.isEmpty ? "" : "\n\n") + paragraph }
        let cut = String(decoding: text.utf8.prefix(byteCount), as: UTF8.self)
        return Array(#"{"text":\#(quoted(cut)),"maxUnits":256}"#.utf8)
    }

    /// `text` as a JSON string: quotes, backslashes and line breaks escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private static func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
}
