import HTTPCore
import NotificationEngine
import NotificationService

/// The service's share of one HTTP request, without sockets: the bench
/// payloads of `bench/payloads/` through `NotificationTextService.handle`
/// (routing, content checks, JSON decoding, the rules, the JSON reply) and
/// `didRespond` (metrics, and in the cases so named the access log). The
/// adapter's and libevent's share is measured by `bench/instructions.py`
/// against the live server.
func serviceBenchCases(payloads directory: String) -> [BenchCase] {
    let service = NotificationTextService(configuration: ServiceConfiguration(accessLogEnabled: false))
    service.setState(.running)
    // As `serve` runs it: the access log on, buffered per thread (here into /dev/null).
    let loggingService = NotificationTextService(
        configuration: ServiceConfiguration(accessLogEnabled: true),
        accessLog: .buffered(descriptor: ProcessIO.openForWriting(atPath: "/dev/null")))
    loggingService.setState(.running)
    // The 20-pending request also in ru and ar (`"locale"` added first): the
    // same work with the catalog's messages, plural rules and isolation; and
    // with `"push":{}` (the payloads of push.md, issue 29's 1.3× budget). The
    // names keep the en case's name out of the others' (the filter is a substring).
    let routes: [(name: String, path: String, file: String, member: String?, logged: Bool)] = [
        ("service POST /body, typical message", "/body", "body-typical.json", nil, false),
        ("service POST /body (access log on), typical message", "/body", "body-typical.json", nil, true),
        ("service POST /compose, 20 pending", "/compose", "compose-20.json", nil, false),
        ("service POST /compose (access log on), 20 pending", "/compose", "compose-20.json", nil, true),
        ("service POST /compose (ru), 20 pending", "/compose", "compose-20.json", #""locale":"ru","#, false),
        ("service POST /compose (ar), 20 pending", "/compose", "compose-20.json", #""locale":"ar","#, false),
        ("service POST /compose (push), 20 pending", "/compose", "compose-20.json", #""push":{},"#, false),
    ]
    var cases: [BenchCase] = []
    if let compose = ProcessIO.readFile(atPath: directory + "/compose-20.json") {
        let now = Timestamp(rfc3339: "2026-11-29T18:00:00Z")!
        // The shapes one decode leaves for the next, as a service thread keeps them.
        let kept = KeptShapes()
        cases.append(
            BenchCase(name: "service parse only, compose-20.json") {
                (try? JSONParser.tape(compose).count(JSONTape.root)) ?? -1
            })
        cases.append(
            BenchCase(name: "service decode only, compose-20.json") {
                (try? ComposeRequest.decode(compose, serverApp: "App", now: { now }, kept: kept).notificationRecords
                    .count) ?? -1
            })
    }
    // The engine's one call per request, as the WebAssembly module makes it
    // (bench/wasm.sh puts the module's figure in Node beside this one).
    if let body = ProcessIO.readFile(atPath: directory + "/body-typical.json") {
        cases.append(
            BenchCase(name: "engine RequestAnswers.body, body-typical.json") {
                (try? RequestAnswers.body(request: body).count) ?? -1
            })
    }
    return cases
        + routes.compactMap { route in
            guard var body = ProcessIO.readFile(atPath: directory + "/" + route.file) else { return nil }
            if let member = route.member, body.first == UInt8(ascii: "{") {
                body.insert(contentsOf: Array(member.utf8), at: 1)
            }
            let request = HTTPRequest(
                method: "POST", path: route.path,
                headers: [
                    ("host", "127.0.0.1"), ("content-type", "application/json"), ("content-length", String(body.count)),
                ],
                body: body
            )
            let service = route.logged ? loggingService : service
            return BenchCase(name: route.name) {
                let response = service.handle(request)
                precondition(response.status == 200, "the bench payload \(route.file) was refused: \(response.status)")
                service.didRespond(to: request, with: response, durationNanoseconds: 1000)
                return response.body.count
            }
        }
}
