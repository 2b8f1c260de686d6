import Foundation
import NotificationText
import Testing

/// `DeviceScreen` against test-fixtures/device.json: after every payload,
/// whether an alert is posted, what the device shows (each group with the
/// stamp that posted it) and the badge.
@Suite struct DeviceScreenTests {
    @Test func deviceFixtures_showWhatTheStampsSay() throws {
        let cases = FixtureAnswerTests.cases("test-fixtures/device.json")
        #expect(cases.count >= 12, "test-fixtures/device.json did not load")
        for fixture in cases {
            let id = fixture["id"] as! String
            var device = DeviceScreen()
            var badge: Int?
            for (index, step) in (fixture["steps"] as! [[String: Any]]).enumerated() {
                let payload = step["payload"] as! [String: Any]
                let stamp = (payload["stamp"] as? NSNumber)?.int64Value ?? 0
                let change: DeviceScreen.Change?
                switch payload["do"] as! String {
                case "alert":
                    change = device.alert(
                        group: payload["group"] as! String, stamp: stamp,
                        isFallback: payload["kind"] as! String == "fallback", badge: payload["badge"] as? Int)
                    #expect(change?.post == step["posted"] as? Bool, "[\(id)] step \(index + 1): posted")
                case "withdrawal":
                    change = device.withdrawal(
                        groups: payload["groups"] as! [String], stamp: stamp, badge: payload["badge"] as? Int)
                default:
                    device.opened(group: payload["group"] as! String)
                    change = nil
                }
                if let set = change?.badge { badge = set }
                let screen = device.shown.values.sorted { $0.group < $1.group }.map { [$0.group: $0.stamp] }
                let expected = (step["screen"] as! [[String: Any]]).map {
                    [$0["group"] as! String: ($0["stamp"] as! NSNumber).int64Value]
                }
                #expect(screen == expected, "[\(id)] step \(index + 1): screen")
                if let want = step["badge"] as? Int { #expect(badge == want, "[\(id)] step \(index + 1): badge") }
            }
        }
    }

    /// The changes the app carries out: what a newer alert removes, and that
    /// an ignored payload asks for nothing.
    @Test func change_namesWhatTheAppDoes() {
        var device = DeviceScreen()
        #expect(device.alert(group: "t1", stamp: 5, isFallback: false, badge: 1).badge == 1)
        #expect(device.alert(group: "fallback", stamp: 6, isFallback: true, badge: nil).remove == [])
        let summary = device.alert(group: "summary", stamp: 7, isFallback: false, badge: 2)
        #expect(summary.post && summary.remove == ["fallback", "t1"] && summary.badge == 2)
        let late = device.alert(group: "t1", stamp: 5, isFallback: false, badge: 9)
        #expect(!late.post && late.remove.isEmpty && late.badge == nil)
        let withdrawal = device.withdrawal(groups: ["summary"], stamp: 8, badge: 0)
        #expect(withdrawal.remove == ["summary"] && withdrawal.badge == 0 && device.shown.isEmpty)
    }

    /// The state survives a round trip through the app's storage.
    @Test func state_isCodable() throws {
        var device = DeviceScreen()
        _ = device.alert(group: "t1", stamp: 5, isFallback: false, badge: 1)
        let stored = try JSONEncoder().encode(device)
        var restored = try JSONDecoder().decode(DeviceScreen.self, from: stored)
        #expect(restored == device)
        #expect(!restored.alert(group: "t1", stamp: 5, isFallback: false, badge: nil).post)
    }
}
