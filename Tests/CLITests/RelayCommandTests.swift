import HTTPCore
import NotificationService
import Testing

/// `notification-text relay`, run as the built binary: the bytes of `POST /relay`.
@Suite struct RelayCommandTests {
    static let request =
        #"{"do":"loop","record":{"recipient":"u1","settings":{"locale":"en","preview":"full"},"devices":[{"id":"phone","transport":"apns","token":"ab","topic":"chat.app"}]},"now":"2026-11-29T12:00:00Z","fetch":"ok","unread":1,"jitter":0.5,"notifications":[{"id":"1","type":"message","timestamp":"2026-11-29T11:59:00Z","text":"Hi","sender":{"name":"Ana"}}]}"#

    @Test func relay_printsTheSameAnswerAsTheHTTPRoute() throws {
        let result = try BuiltExecutable.run(["relay"], stdin: Array(Self.request.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let service = NotificationTextService(configuration: ServiceConfiguration(accessLogEnabled: false))
        let http = service.handle(
            HTTPRequest(
                method: "POST", path: "/relay", headers: [("content-type", "application/json")],
                body: Array(Self.request.utf8)))
        #expect(http.status == 200)
        #expect(result.stdout == String(decoding: http.body, as: UTF8.self) + "\n")
        #expect(result.stdout.contains(#""mutable-content\":1}"#))
    }

    @Test func relay_jsonLines_answersEachLine_problemsIncluded() throws {
        let input = Self.request + "\n" + #"{"do":"nap"}"# + "\n"
        let result = try BuiltExecutable.run(["relay", "--json-lines"], stdin: Array(input.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix(#"{"record":"#) == true)
        #expect(lines.last?.contains(#""code":"invalid-value""#) == true)
    }

    @Test func relay_badRequest_exits65WithTheProblemsCode() throws {
        let result = try BuiltExecutable.run(["relay"], stdin: Array(#"{"do":"wake"}"#.utf8))
        #expect(result.status == 65)
        #expect(result.stderr.contains("missing-field"))
    }
}
