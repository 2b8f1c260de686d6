import Foundation
import HTTPTestSupport
import Testing

/// test-fixtures/reject.json through the built binary: every request in one
/// `render --json-lines` or `compose --json-lines` run, and every request to
/// a running `serve` over one kept-alive connection.
@Suite struct RejectFixtureCLITests {
    static func cases(_ route: String) -> [RejectCase] { RejectCase.all.filter { $0.route == route } }

    @Test(arguments: [("render", "/body"), ("compose", "/compose")])
    func jsonLines_everyRejectCase_answersItsProblemWithItsPointer(_ command: String, _ route: String) throws {
        let cases = Self.cases(route)
        #expect(cases.count >= 20, "test-fixtures/reject.json did not load")
        // One request per line: a raw line feed would split one (the fixture escapes them).
        #expect(cases.allSatisfy { !$0.request.utf8.contains(0x0A) })
        let input = cases.map(\.request).joined(separator: "\n") + "\n"
        let result = try BuiltExecutable.run([command, "--json-lines"], stdin: Array(input.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        try #require(lines.count == cases.count, "\(lines.count) answers for \(cases.count) lines")
        for (fixture, line) in zip(cases, lines) {
            let body = Array(line.utf8)
            let status = (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["status"] as? Int
            let mismatch = fixture.mismatch(status: status ?? 0, contentType: nil, body: body)
            #expect(mismatch == nil, "\(mismatch ?? "")")
        }
    }

    @Test func serve_everyRejectCase_answersItsProblemWithItsPointer() throws {
        let serve = try ServeProcess(arguments: ["--port", "0", "--threads", "1", "--access-log", "off"])
        defer { serve.terminateIfRunning() }
        _ = try serve.readStartLine()
        let connection = try RawHTTPConnection(port: serve.port)
        for fixture in RejectCase.all {
            let body = Array(fixture.request.utf8)
            try connection.send(
                Array(
                    ("POST \(fixture.route) HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(body.count)\r\n\r\n").utf8) + body)
            let response = try connection.readResponse()
            let mismatch = fixture.mismatch(
                status: response.status, contentType: response.header("Content-Type"), body: response.body)
            #expect(mismatch == nil, "\(mismatch ?? "")")
        }
    }
}
