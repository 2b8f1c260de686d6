import NotificationEngine

/// The renderer's cases: typical and large messages, and the hostile patterns
/// that would be quadratic in a naive implementation.
func bodyBenchCases() -> [BenchCase] {
    let typical =
        "Hey @ana, the deploy of **api-gateway** finished. See [the run](https://ci.example.com/runs/4812) and `make release`; ping me if ~~anything~~ something breaks!"
    var rich = ""
    while rich.utf16.count < 4000 {
        rich +=
            "## Notes\nSee [docs](https://x.io/a_(b)) and ![img](i.png) with `code` and **bold ~~strike~~** text, é and 👍🏽.\n```swift\nlet x = [1, 2]\n```\n\n"
    }
    let huge = String(repeating: "Lorem ipsum **dolor** sit [amet](u), `consectetur` adipiscing elit. ", count: 4000)
    var ticks = ""
    var length = 1
    while ticks.utf16.count < 4096 {
        ticks += String(repeating: "`", count: length) + "x"
        length = length % 40 + 1
    }
    let cases: [(String, String)] = [
        ("typical chat message (\(typical.utf8.count) B)", typical),
        ("rich message (\(rich.utf8.count) B)", rich),
        ("huge message (\(huge.utf8.count / 1024) KB)", huge),
        ("hostile: 4096 × [", String(repeating: "[", count: 4096)),
        ("hostile: 1000 × [a](", String(repeating: "[a](", count: 1024)),
        (
            "hostile: nested links 800 deep",
            String(repeating: "[", count: 800) + "a" + String(repeating: "](u)", count: 800)
        ),
        ("hostile: unmatched backtick runs", ticks),
        ("hostile: 2048 × **", String(repeating: "**", count: 2048)),
        ("hostile: 1365 × **a", String(repeating: "**a", count: 1365)),
        (
            "hostile: ~~ openers and ** closers",
            String(repeating: "~~a ", count: 500) + String(repeating: "b** ", count: 500)
        ),
        ("hostile: 4096 combining marks", "a" + String(repeating: "\u{0301}", count: 5000)),
    ]
    return cases.map { name, text in
        BenchCase(name: "render \(name)") { BodyRenderer.render(text).units }
    }
}
