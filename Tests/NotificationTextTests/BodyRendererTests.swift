import NotificationText
import Testing

@Suite struct BodyRendererTests {
    @Test func render_strongEmphasis_dropsMarkers() {
        let rendering = BodyRenderer.render("**hi** there")
        #expect(rendering == BodyRendering(body: "hi there", units: 8, truncated: false, inputCut: false))
    }
}
