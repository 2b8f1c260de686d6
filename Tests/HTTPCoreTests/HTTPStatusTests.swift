import HTTPCore
import Testing

/// The status table the adapter's status lines come from.
@Suite struct HTTPStatusTests {
    @Test(arguments: [
        (200, "OK"), (204, "No Content"), (400, "Bad Request"), (401, "Unauthorized"), (404, "Not Found"),
        (405, "Method Not Allowed"), (413, "Content Too Large"), (414, "URI Too Long"),
        (415, "Unsupported Media Type"), (500, "Internal Server Error"), (503, "Service Unavailable"),
    ])
    func listedStatus_hasItsRFC9110Name(status: Int, phrase: String) {
        #expect(HTTPStatus.listedReasonPhrase(status).map { "\($0)" } == phrase)
        #expect("\(HTTPStatus.reasonPhrase(status))" == phrase)
    }

    @Test(arguments: [
        (102, "Informational"), (299, "OK"), (308, "Redirection"), (418, "Client Error"), (599, "Server Error"),
    ])
    func unlistedStatus_getsItsClassName(status: Int, phrase: String) {
        #expect(HTTPStatus.listedReasonPhrase(status) == nil)
        #expect("\(HTTPStatus.reasonPhrase(status))" == phrase)
    }

    @Test func transportRejection_statusesAreListed() {
        let rejections: [TransportRejection] = [
            .uriTooLong(maxBytes: 1), .bodyTooLarge(maxBytes: 1), .badRequest(detail: "x"), .badFraming(detail: "x"),
            .headersTooLarge(maxBytes: 1), .notImplemented(detail: "x"), .expectationFailed,
            .tooManyConnections(limit: 1), .memoryBudgetSpent(budgetBytes: 1),
        ]
        for rejection in rejections {
            #expect(HTTPStatus.listedReasonPhrase(rejection.status) != nil, "\(rejection)")
        }
    }
}
