/// The rule a device applies to the payloads of `POST /compose` answers
/// (docs/spec/screen.md section 2, push.md P22), for an app or a
/// notification service extension: payloads arrive late, reordered or
/// twice, and are applied by their stamp, never by when they arrive.
///
/// A value, with no I/O: the app keeps it (it is `Codable`; an extension
/// and its app share it through an app group), calls `alert`, `withdrawal`
/// or `opened` for each payload or tap, and does what the returned `Change`
/// says with UserNotifications or NotificationManager. Keep it two days,
/// longer than any payload lives.
public struct DeviceScreen: Hashable, Sendable, Codable {
    /// A notification the device shows: the stamp of the payload that posted it.
    public struct Shown: Hashable, Sendable, Codable {
        /// Its group key (`apns-collapse-id`, the FCM data `tag`, the Web Push `tag`).
        public var group: String
        /// The stamp of the alert that posted it.
        public var stamp: Int64
    }

    /// What the app does after a payload: post it (replacing its group's
    /// notification), take these groups' notifications off, set the badge.
    public struct Change: Hashable, Sendable {
        /// Whether to post the alert under its group; false: it is ignored whole.
        public var post: Bool
        /// The groups whose notifications leave the device, in key order.
        public var remove: [String]
        /// The badge to set, or nil to leave it.
        public var badge: Int?
    }

    /// What the device shows, by group key.
    public private(set) var shown: [String: Shown] = [:]
    /// Per group key, the newest stamp applied (an alert posted, a withdrawal).
    public private(set) var seen: [String: Int64] = [:]
    /// The newest stamp of an alert that is not a fallback: no older alert is applied.
    public private(set) var floor: Int64?
    /// The stamp of the payload that set the badge last.
    public private(set) var badgeStamp: Int64?

    /// A device that has applied nothing.
    public init() {}

    /// Applies an alert payload of `group` with `stamp`. `isFallback`: the
    /// answer's kind is `fallback` (a failed fetch: FCM and Web Push carry
    /// `kind`; on APNs the group key is `fallback`).
    public mutating func alert(group: String, stamp: Int64, isFallback: Bool, badge: Int?) -> Change {
        if let last = seen[group], stamp <= last { return Change(post: false, remove: [], badge: nil) }
        if let floor, stamp < floor { return Change(post: false, remove: [], badge: nil) }
        seen[group] = stamp
        var removed: [String] = []
        if !isFallback {
            // An answer of a successful fetch covers everything unread and
            // withdraws every other group (compose.md S1).
            removed = removeOlder(than: stamp, keeping: group)
            floor = max(floor ?? stamp, stamp)
        }
        shown[group] = Shown(group: group, stamp: stamp)
        return Change(post: true, remove: removed, badge: takeBadge(badge, stamp: stamp))
    }

    /// Applies a withdrawal payload: the notifications of `groups` older than
    /// `stamp` leave. The others stay, and so does the floor: the answer may
    /// keep its own group without sending it again.
    public mutating func withdrawal(groups: [String], stamp: Int64, badge: Int?) -> Change {
        var removed: [String] = []
        for group in Set(groups).sorted() {
            if seen[group].map({ $0 < stamp }) ?? true { seen[group] = stamp }
            if let shown = shown[group], shown.stamp < stamp {
                self.shown[group] = nil
                removed.append(group)
            }
        }
        return Change(post: false, remove: removed, badge: takeBadge(badge, stamp: stamp))
    }

    /// The user opened (or dismissed) the notification of `group`.
    public mutating func opened(group: String) {
        shown[group] = nil
    }

    private mutating func removeOlder(than stamp: Int64, keeping kept: String) -> [String] {
        let older = shown.values.filter { $0.group != kept && $0.stamp < stamp }.map(\.group).sorted()
        for group in older { shown[group] = nil }
        return older
    }

    private mutating func takeBadge(_ badge: Int?, stamp: Int64) -> Int? {
        guard let badge, badgeStamp.map({ $0 < stamp }) ?? true else { return nil }
        badgeStamp = stamp
        return badge
    }
}
