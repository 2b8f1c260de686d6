import Testing
@testable import NotificationText

@Suite struct BodyCapTests {
    @Test func cap_whenTextFits_keepsItWhole() {
        let r = BodyCap.apply("hello", maxUnits: 256, inputCut: false)
        #expect(r == BodyRendering(body: "hello", units: 5, truncated: false, inputCut: false))
    }
}
