import Testing

@testable import NotificationEngine

@Suite struct JSONPointerTests {
    @Test(arguments: [
        ("", ""),
        ("maxUnits", "/maxUnits"),
        ("notifications", "/notifications"),
        ("notifications[1]", "/notifications/1"),
        ("notifications[1].timestamp", "/notifications/1/timestamp"),
        ("notifications[12].sender.name", "/notifications/12/sender/name"),
        ("displayed[0].key", "/displayed/0/key"),
        ("grid[2][3]", "/grid/2/3"),
    ])
    func pointer_ofFieldPath_namesEachMemberAndIndex(_ path: String, _ pointer: String) {
        #expect(JSONPointer.pointer(fromPath: path) == pointer)
    }

    @Test func pointer_escapesTildeAndSlash_asRFC6901Says() {
        #expect(JSONPointer.pointer(fromPath: "a/b") == "/a~1b")
        #expect(JSONPointer.pointer(fromPath: "m~n") == "/m~0n")
        #expect(JSONPointer.pointer(fromPath: "x.~/[0]") == "/x/~0~1/0")
        #expect(JSONPointer.pointer(fromPath: "/") == "/~1")
    }

    @Test func problem_atPath_writesThePointerBesideTheDetail() {
        let problem = Problem(.invalidTimestamp, "now must be …", at: "now")
        let text = String(decoding: problem.jsonBody(), as: UTF8.self)
        #expect(text.contains(#""detail":"now must be …","pointer":"/now","code":"invalid-timestamp"}"#), "\(text)")
        let unplaced = String(decoding: Problem(.invalidJSON, "at byte 3: …").jsonBody(), as: UTF8.self)
        #expect(!unplaced.contains("pointer"), "\(unplaced)")
    }
}
