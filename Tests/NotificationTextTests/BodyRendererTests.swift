import NotificationText
import Testing

/// `BodyRenderer.render` on plain strings.
@Suite struct BodyRendererTests {
    @Test func render_strongEmphasis_dropsMarkers() {
        let rendering = BodyRenderer.render("**hi** there")
        #expect(rendering == BodyRendering(body: "hi there", units: 8, truncated: false, inputCut: false))
    }

    @Test func render_capOutsideTheRange_isClampedIntoIt() {
        let text = String(repeating: "word ", count: 200)
        #expect(BodyRenderer.render(text, maxUnits: 10).units <= BodyRenderer.defaultMaxUnits)
        #expect(BodyRenderer.render(text, maxUnits: 10) == BodyRenderer.render(text))
        let long = String(repeating: "x", count: 5000)
        #expect(BodyRenderer.render(long, maxUnits: 100_000).units <= BodyRenderer.largestMaxUnits)
    }

    @Test func render_longInput_isCutBeforeRendering() {
        let rendering = BodyRenderer.render(String(repeating: "a", count: BodyRenderer.inputMaxUnits + 1))
        #expect(rendering.inputCut)
        #expect(rendering.truncated)
    }
}
