import EngineTestSupport
import Foundation
import Testing

@testable import NotificationEngine

/// push.md's guarantees over thousands of random, hostile requests (CJK,
/// emoji ZWJ sequences, combining marks, controls, RTL, long thread ids and
/// urls, `maxUnits` up to 4096, `reserveBytes` up to 2048): every payload fits
/// its limit less `reserveBytes`, every cut text is whole grapheme clusters of
/// the uncut text followed by "…", nothing else changes, and no tier shows
/// what it hides.
@Suite struct PushPropertyTests {
    /// Clusters and pieces of clusters a relay meets, and some it should not.
    static let pieces = [
        "a", "Z", " ", "\n", "\t", "\r\n", "\"", "\\", "/", "\u{1}", "\u{1F}", "\u{7F}", "\u{85}", "é", "e\u{301}",
        "e\u{301}\u{302}\u{303}", "中", "文", "日本", "한", "👍", "👍🏽", "👨‍👩‍👧", "👩🏽‍💻", "🇫🇷", "🏳️‍🌈", "ש", "ا", "\u{200F}",
        "\u{2068}", "\u{2069}", "\u{202E}", "\u{2028}", "*", "`", "**", "_", "[a](b)", "\u{FE0F}", "\u{200D}",
        "ก\u{E31}",
        "क्ष", "\u{10FFFF}",
    ]

    /// Words the request's texts carry, so a leak is a substring search.
    static let textToken = "TEXTSECRET"
    static let defaultToken = "DEFAULTSECRET"
    static let nameToken = "NAMESECRET"
    static let titleToken = "TITLESECRET"

    static func hostile(_ count: Int, using random: inout SplitMix64) -> String {
        var text = ""
        for _ in 0..<count { text += pieces.randomElement(using: &random)! }
        return text
    }

    static func request(using random: inout SplitMix64) -> ComposeRequest {
        let long = Int.random(in: 0..<10, using: &random) < 7
        let threads = [
            "t1", String(repeating: "x", count: 64), String(repeating: "x", count: 65),
            hostile(Int.random(in: 1...90, using: &random), using: &random),
            String(repeating: "t", count: 5000), "café", "a b",
        ]
        let thread = threads.randomElement(using: &random)!
        var notifications: [PendingNotification] = []
        for index in 0..<[0, 1, 1, 2, 3].randomElement(using: &random)! {
            let textLength = Int.random(in: 0...(long ? 5000 : 50), using: &random)
            notifications.append(
                PendingNotification(
                    id: "n\(index)", type: ["message", "mention", "reply", "wiki-edit"].randomElement(using: &random)!,
                    timestamp: Timestamp(rfc3339: "2026-11-29T11:5\(Int.random(in: 0...9, using: &random)):00Z")!,
                    read: Int.random(in: 0..<10, using: &random) == 0,
                    thread: Bool.random(using: &random) ? thread : nil,
                    threadTitle: titleToken + hostile(Int.random(in: 0...300, using: &random), using: &random),
                    sender: .init(
                        id: nil, name: nameToken + hostile(Int.random(in: 0...300, using: &random), using: &random)),
                    text: textToken + hostile(textLength, using: &random),
                    defaultText: Bool.random(using: &random) ? defaultToken + hostile(20, using: &random) : nil,
                    url: Bool.random(using: &random)
                        ? "https://e.example/" + String(repeating: "u", count: Int.random(in: 0...5000, using: &random))
                        : nil))
        }
        let displayed = notifications.filter { _ in Int.random(in: 0..<4, using: &random) == 0 }.map {
            DisplayedEntry(key: $0.key, timestamp: Timestamp(rfc3339: "2026-11-29T11:40:00Z")!)
        }
        let channels: [String?] = [nil, "m", String(repeating: "\"\\", count: 64), String(repeating: "é", count: 64)]
        return ComposeRequest(
            notifications: notifications, displayed: displayed, now: Timestamp(rfc3339: "2026-11-29T12:00:00Z")!,
            maxAgeSeconds: [0, 600, 86_400].randomElement(using: &random)!,
            maxUnits: [256, 1024, 4096, 4096, 4096].randomElement(using: &random)!,
            app: Bool.random(using: &random) ? hostile(Int.random(in: 0...300, using: &random), using: &random) : nil,
            fetch: Int.random(in: 0..<20, using: &random) == 0 ? .timeout : .ok,
            catalog: CatalogSet.builtIn.catalogs.randomElement(using: &random)!,
            preview: [.full, .full, .sender, .none].randomElement(using: &random)!,
            push: PushOptions(
                badge: [nil, 0, 7, 2_147_483_647].randomElement(using: &random)!,
                androidChannel: channels.randomElement(using: &random)!,
                reserveBytes: [0, 1, 500, 2048, Int.random(in: 0...2048, using: &random)].randomElement(using: &random)!
            ))
    }

    /// Whether `cut` is whole grapheme clusters of `uncut`, then "…".
    static func isGraphemeCut(_ cut: String, of uncut: String) -> Bool {
        guard cut.unicodeScalars.last == "…" else { return false }
        let prefix = Array(cut.unicodeScalars.dropLast())
        var boundary = 0
        var boundaries: Set<Int> = [0]
        for character in uncut {
            boundary += character.unicodeScalars.count
            boundaries.insert(boundary)
        }
        return boundaries.contains(prefix.count) && Array(uncut.unicodeScalars.prefix(prefix.count)) == prefix
    }

    @Test func randomHostileRequests_fitCutOnGraphemesAndLeakNothing() throws {
        var random = SplitMix64(seed: 29)
        let count = ProcessInfo.processInfo.environment["PUSH_PROPERTY_COUNT"].flatMap(Int.init) ?? 3000
        var cutCount = 0
        for round in 0..<count {
            let request = Self.request(using: &random)
            let response = Composer.compose(request)
            let push = try #require(Composer.push(for: request, response: response), "round \(round): no push")
            let note = response.notification
            let reserve = request.push!.reserveBytes
            for transport in PushAnswer.Transport.allCases {
                let payload = push[transport]
                let json = push.payloadJSON(transport)
                #expect(json.count == payload.byteCount, "round \(round) \(transport): measured size")
                #expect(
                    json.count <= transport.limitBytes - reserve, "round \(round) \(transport): \(json.count) bytes")
                let texts = push.texts(transport)
                for (field, value, uncut) in [
                    (PushAnswer.Field.title, texts.title, note.title), (.body, texts.body, note.body),
                ] {
                    if payload.cut.contains(field) {
                        cutCount += 1
                        #expect(Self.isGraphemeCut(value, of: uncut), "round \(round) \(transport) \(field)")
                    } else {
                        #expect(value.unicodeScalars.elementsEqual(uncut.unicodeScalars), "round \(round) \(field)")
                    }
                }
                if payload.cut.contains(.subtitle) {
                    #expect(Self.isGraphemeCut(texts.subtitle ?? "", of: note.subtitle ?? ""), "round \(round)")
                } else {
                    #expect(texts.subtitle == note.subtitle, "round \(round) \(transport) subtitle")
                }
                #expect(
                    (texts.url != nil) == (note.url != nil && !payload.cut.contains(.url)), "round \(round) url")
            }
            #expect(push.groupKey.utf8.count <= 64, "round \(round): apns-collapse-id")
            #expect(
                push.topic.utf8.count == 32
                    && push.topic.utf8.allSatisfy {
                        $0 == 0x2D || $0 == 0x5F || (0x30...0x39).contains($0)
                            || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
                    },
                "round \(round): Topic")
            // No tier shows what it hides, anywhere in the answer.
            let answer = String(decoding: response.jsonBody(push: push), as: UTF8.self)
            var hidden: [String] = []
            if request.preview != .full { hidden += [Self.textToken, Self.defaultToken] }
            if request.preview == .none { hidden += [Self.nameToken, Self.titleToken] }
            for token in hidden {
                #expect(!answer.contains(token), "round \(round): preview \(request.preview) shows \(token)")
            }
        }
        #expect(cutCount > count / 10, "only \(cutCount) cuts in \(count) rounds: the inputs are not hostile enough")
    }
}
