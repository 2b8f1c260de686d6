import Testing

@testable import NotificationEngine

@Suite struct BodyFixtureTests {
    @Test func fixture_hasAtLeast80UniqueKebabCaseIds() {
        let ids = BodyFixtureCase.all.map(\.id)
        #expect(ids.count >= 80)
        expectUniqueKebabCaseIDs(ids)
    }

    @Test(arguments: BodyFixtureCase.all)
    func fixtureCase_rendersExpectedBody(_ fixture: BodyFixtureCase) {
        let actual = BodyRenderer.render(fixture.text, maxUnits: fixture.maxUnits)
        #expect(
            actual == fixture.expected,
            """
            [\(fixture.id)] \(fixture.description)
              expected: \(debugLiteral(fixture.expected))
              actual:   \(debugLiteral(actual))
            """)
    }

    @Test(arguments: BodyFixtureCase.all)
    func fixtureCase_unitsMatchBody(_ fixture: BodyFixtureCase) {
        #expect(fixture.expected.units == fixture.expected.body.utf16.count, "[\(fixture.id)] units disagree with body")
    }

    private func debugLiteral(_ rendering: BodyRendering) -> String {
        let body =
            rendering.body.count > 80
            ? String(rendering.body.prefix(40)) + "…(\(rendering.units) units)…" + String(rendering.body.suffix(20))
            : rendering.body
        return
            "\(body.debugDescription) units=\(rendering.units) truncated=\(rendering.truncated) inputCut=\(rendering.inputCut)"
    }
}
