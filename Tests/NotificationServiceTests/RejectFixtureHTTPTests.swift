import HTTPTestSupport
import Testing

@testable import NotificationService

/// test-fixtures/reject.json through the service's routes (the CLI tests
/// send them to a running `serve` and through `--json-lines`, the library's
/// tests through `answer(bodyRequest:)` and `answer(composeRequest:)`).
@Suite struct RejectFixtureHTTPTests {
    let harness = ServiceHarness()

    @Test func fixture_isLoadedWithUniqueIDsAndBothRoutes() {
        let cases = RejectCase.all
        #expect(cases.count >= 40, "test-fixtures/reject.json did not load")
        #expect(Set(cases.map(\.id)).count == cases.count, "ids repeat")
        #expect(Set(cases.map(\.route)) == ["/body", "/compose"])
        #expect(cases.contains { $0.pointer == nil } && cases.contains { $0.pointer == "" })
    }

    @Test(arguments: RejectCase.all)
    func rejectFixture_overHTTP_answersTheProblemWithItsPointer(_ fixture: RejectCase) {
        let response = harness.post(fixture.route, bytes: Array(fixture.request.utf8))
        let mismatch = fixture.mismatch(
            status: response.status, contentType: response.header("Content-Type"), body: response.body)
        #expect(mismatch == nil, "\(mismatch ?? "") (\(fixture.description))")
    }
}

extension RejectCase: CustomTestStringConvertible {
    public var testDescription: String { id }
}
