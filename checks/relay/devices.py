"""The devices of the relay check, each applying docs/spec/screen.md
section 2's stamp rule as its platform lets it.

The device rule (screen.md section 2): a device keeps `seen[G]` (the newest
stamp it applied for group G), a `floor` (the newest stamp of an alert
whose kind is not `fallback`: a successful fetch's answer covers everything
unread and withdraws every other group, compose.md S1) and `badge_stamp`.
- An alert of group G with stamp s and kind k is ignored when s <= seen[G]
  or s < floor. Otherwise it replaces or creates G's notification,
  seen[G] = s, and when k is not `fallback` every other notification older
  than s is removed and floor = max(floor, s).
- A withdrawal (W, s) removes the notifications of W older than s and
  seen[g] = max(seen[g], s) for g in W. It leaves the floor and the other
  groups: an answer that keeps its group G without sending it (`send`
  false: a badge-only withdrawal, or the fallback withdrawn once a fetch
  succeeds) still shows G's older alert, which may even arrive after it.
  (`WithdrawAllDevice` is the rule as first drafted: a withdrawal removes
  every older notification and raises the floor; the self-test shows what
  that breaks.)
- A badge is applied when present and s > badge_stamp.
- Opening a notification removes it.

Who applies it (one device class each):
- `AndroidDevice` (FCM data messages): the app applies the rule and posts;
  NotificationManager sheds a package's updates above 5 a second, so the
  app coalesces (at most one post every 200 ms, the newest per group wins).
- `WebDevice` (service worker): the rule; a push after which the origin
  shows nothing is counted (Safari revokes such subscriptions, Chrome shows
  a generic notification). So the relay sends it no withdrawal (screen.md
  section 6): what one would have taken back stays until the next alert
  (measured: its shadow gets the withdrawals).
- `IosDevice` (APNs): the system posts alerts; the relay's
  `mutable-content` runs the notification service extension, which applies
  the rule. A stale alert is suppressed with the filtering entitlement
  (`ios-filter`); without it (`ios-plain`) it becomes a quiet copy of the
  group's newer notification, or shows when none is shown (a measured
  limit). Withdrawals are background pushes: delayed or dropped by iOS's
  throttling, never delivered to a force-quit app (measured limits).

Every device has a `shadow`: a device applying the rule with none of its
platform's limits, fed every payload the push service accepted for it (APNs
keeps only the last payload of an offline device; the shadow gets them
all). A broken invariant on a device whose shadow holds it, after one of the
platform's limits acted, is counted as that measured limit; any other is a
"""
from __future__ import annotations

class Device:
    """A device applying the stamp rule itself and showing at once: the
    service worker's (the Web), and every device's shadow. `notes` is what
    the rule keeps (group → notification with its stamp), `shown` what the
    screen shows: the same map here."""
    platform = "ideal"
    by_group = True  # a withdrawal removes the notifications of its groups only
    withdrawal_floor = False  # a withdrawal leaves the floor: an answer that keeps its group may not send it

    def __init__(self, device_id, transport, world=None, shadow=True, **_):
        self.id, self.transport, self.world = device_id, transport, world
        self.notes, self.badge = {}, None
        self.shown = self.notes
        self.seen, self.floor, self.badge_stamp = {}, -1, -1
        self.events = {}  # platform limit → times it acted on this device
        self.expired = []  # alerts the push service dropped at the end of their lifetime (the device offline)
        self.offline_until = None
        self.pending, self.shadow_pending = [], []  # held by the push service while offline
        self.shadow = Device(device_id, transport, world, shadow=False) if shadow else None

    def event(self, name, count=1):
        self.events[name] = self.events.get(name, 0) + count

    def explained_by_expiry(self, problems):
        """Whether every problem is what an alert that expired at the push
        service (the device offline past its lifetime, or a latency past its
        end) left: the badge it carried, or an older notification it would
        have replaced in the new tier or language, or that covers messages
        read since (I3: the alert that replaced it quietly expired); its own
        messages are stale by then, or within the second its end was rounded
        down by (I1)."""
        for rule, _, group in problems:
            if rule == "I1":  # an alert's end is its newest message's staleness rounded down to a second:
                # delivered after it, its messages are fresh for less than a second more
                if not any(group in p["fields"]["covers"] for p in self.expired):
                    return False
            elif rule == "BADGE":
                if not any(p["badge"] is not None and p["stamp"] > self.badge_stamp for p in self.expired):
                    return False
            elif rule in ("TIER", "LANG", "I3", "I8"):
                note = self.shown.get(group)
                if note is None or not any(p["stamp"] > note["stamp"]
                                           and (p["group"] == group or p["kind"] != "fallback")
                                           for p in self.expired):
                    return False
            else:
                return False
        return bool(problems)

    # The rule.
    def stale(self, group, stamp):
        return stamp <= self.seen.get(group, -1) or stamp < self.floor

    def receive(self, push):
        if push["message"] == "alert":
            self.alert(push)
        else:
            self.withdrawal(push)

    def alert(self, push):
        group, stamp = push["group"], push["stamp"]
        if self.stale(group, stamp):
            self.ignored(push)
            return
        self.apply_alert(push)

    def apply_alert(self, push):
        group, stamp = push["group"], push["stamp"]
        self.seen[group] = stamp
        self.post(group, dict(push["fields"], group=group, stamp=stamp, posted=self.now()))
        if push["kind"] != "fallback":
            for other, note in list(self.notes.items()):
                if other != group and note["stamp"] < stamp:
                    self.remove(other)
            self.floor = max(self.floor, stamp)
        self.set_badge(push["badge"], stamp)

    def ignored(self, push):
        """A stale alert: the app does not post it."""

    def withdrawal(self, push):
        self.apply_withdrawal(push)

    def apply_withdrawal(self, push):
        stamp, groups = push["stamp"], push["groups"]
        for group, note in list(self.notes.items()):
            if note["stamp"] < stamp and (group in groups or not self.by_group):
                self.remove(group)
        for group in groups:
            self.seen[group] = max(self.seen.get(group, -1), stamp)
        if self.withdrawal_floor:
            self.floor = max(self.floor, stamp)
        self.set_badge(push["badge"], stamp)

    def set_badge(self, badge, stamp):
        if badge is not None and stamp > self.badge_stamp:
            self.badge, self.badge_stamp = int(badge), stamp

    # What the platform does with it.
    def post(self, group, note):
        self.notes[group] = note

    def remove(self, group):
        self.notes.pop(group, None)

    def open(self, group):
        """The user opens the notification: it leaves the screen."""
        self.notes.pop(group, None)
        self.shown.pop(group, None)
        if self.shadow is not None:
            self.shadow.open(group)

    def now(self):
        return self.world.clock.now() if self.world is not None else 0

    def screen(self):
        return [{k: n[k] for k in ("group", "kind", "title", "subtitle", "body", "covers", "alert")}
                for _, n in sorted(self.shown.items())]


class WebDevice(Device):
    """The service worker: the rule; a push that leaves the origin showing
    nothing is counted (Safari: the user-visible rule; Chrome: a generic
    "site updated in the background" notification)."""
    platform = "web"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.silent = {"withdrawal": 0, "alert": 0}

    def receive(self, push):
        super().receive(push)
        if not self.shown:
            self.silent[push["message"]] += 1


class AndroidDevice(Device):
    """The app posts what the rule keeps through NotificationManager, which
    sheds a package's updates (a notify of a tag already shown) once 5 were
    enqueued in the last second. The app coalesces: at most one post every
    200 ms, the newest pending post of a group wins; cancels go at once."""
    platform = "android"
    coalesce = True
    RATE, WINDOW_MS, SPACING_MS = 5, 1000, 200

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.shown = {}  # NotificationManager's notifications
        self.queue = {}  # group → the newest post waiting for its turn
        self.enqueued, self.last_post, self.armed = [], None, False

    def post(self, group, note):
        self.notes[group] = note
        if not self.coalesce:
            self.enqueue(group, note)
            return
        self.queue.pop(group, None)
        self.queue[group] = note  # newest wins, in the order of their latest update
        self.flush()

    def remove(self, group):
        self.notes.pop(group, None)
        self.queue.pop(group, None)
        self.shown.pop(group, None)  # cancel(tag, 0): not rate limited

    def open(self, group):
        self.queue.pop(group, None)
        super().open(group)

    def flush(self):
        if self.armed or not self.queue:
            return
        now = self.now()
        turn = now if self.last_post is None else max(now, self.last_post + self.SPACING_MS)
        if turn > now:
            self.armed = True
            self.world.scheduler.call_at(turn, "device", self.flushed)
            return
        group = next(iter(self.queue))
        self.enqueue(group, self.queue.pop(group))
        if self.queue:
            self.armed = True
            self.world.scheduler.call_at(now + self.SPACING_MS, "device", self.flushed)

    def flushed(self):
        self.armed = False
        self.flush()

    def enqueue(self, group, note):
        now = self.now()
        self.last_post = now
        self.enqueued = [t for t in self.enqueued if t > now - self.WINDOW_MS]
        if group in self.shown and len(self.enqueued) >= self.RATE:
            self.event("android-shed")  # "Shedding events": the update is lost
            return
        self.enqueued.append(now)
        self.shown[group] = note


class UncoalescedAndroidDevice(AndroidDevice):
    """The self-test's app that posts every update at once."""
    coalesce = False


class IosDevice(Device):
    """APNs: the system posts an alert; with `mutable-content` the app's
    notification service extension runs first and applies the rule (it
    records seen and floor in the app group and removes older delivered
    notifications). A withdrawal is a background push for the app."""
    platform = "ios-filter"
    filtering = True  # com.apple.developer.usernotifications.filtering

    def __init__(self, *args, throttle=(0.0, 0.0), **kwargs):
        super().__init__(*args, **kwargs)
        self.force_quit = False
        self.throttle = throttle  # (probability a background push is dropped, of one delayed 0-20 s)

    def alert(self, push):
        if not push.get("mutable"):  # no extension: the system posts it as it is
            self.notes[push["group"]] = dict(push["fields"], group=push["group"], stamp=push["stamp"],
                                             posted=self.now())
            if push["badge"] is not None:
                self.badge = int(push["badge"])
            return
        super().alert(push)

    def ignored(self, push):
        if self.filtering:
            return  # the extension suppresses it
        if push["group"] in self.notes:
            return  # rewritten as a quiet copy of the group's newer notification
        self.event("ios-plain")  # it cannot suppress it: the stale alert shows
        self.notes[push["group"]] = dict(push["fields"], group=push["group"], stamp=push["stamp"],
                                         posted=self.now())

    def withdrawal(self, push):
        if self.force_quit:
            self.event("force-quit")  # iOS does not launch a force-quit app for a background push
            return
        drop, delay = self.throttle
        rng = self.world.net_rng
        if drop and rng.random() < drop:
            self.event("ios-throttled")
            return
        if delay and rng.random() < delay:
            self.world.scheduler.call_at(self.now() + rng.randint(0, 20_000), "device",
                                         lambda: self.late_withdrawal(push))
            return
        self.apply_withdrawal(push)

    def late_withdrawal(self, push):
        if self.force_quit:
            self.event("force-quit")
            return
        self.apply_withdrawal(push)

    def open(self, group):
        self.force_quit = False  # the user opened the app
        super().open(group)


class PlainIosDevice(IosDevice):
    platform = "ios-plain"
    filtering = False


class SentAtDevice(Device):
    """The old device (issue 41, 1): an alert replaces its group whatever its
    stamp; a withdrawal removes each listed group's notification posted at or
    before its instant (the stamp, the relay's clock), by the device's clock."""
    platform = "old-sentAt"

    def alert(self, push):
        self.notes[push["group"]] = dict(push["fields"], group=push["group"], stamp=push["stamp"],
                                         posted=self.now())
        if push["badge"] is not None:
            self.badge = int(push["badge"])

    def withdrawal(self, push):
        for group in push["groups"]:
            note = self.notes.get(group)
            if note is not None and note["posted"] <= push["stamp"]:
                self.remove(group)
        if push["badge"] is not None:
            self.badge = int(push["badge"])


class NoGroupStampDevice(Device):
    """Issue 41, 2: the rule without the stamp check of an alert: an older
    alert of a group delivered late replaces the newer one."""
    platform = "old-no-group-stamp"

    def stale(self, group, stamp):
        return False


class WithdrawAllDevice(Device):
    """The rule as first drafted: a withdrawal removes every notification
    older than its stamp, whatever its group, and raises the floor. An answer
    that keeps its group without sending it (a badge-only withdrawal, or the
    fallback withdrawn with `send` false) then removes, or refuses when it
    comes late, the notification the answer keeps."""
    platform = "withdraw-all"
    by_group = False
    withdrawal_floor = True


PLATFORMS = {"ios-filter": IosDevice, "ios-plain": PlainIosDevice, "android": AndroidDevice,
             "android-uncoalesced": UncoalescedAndroidDevice, "web": WebDevice, "old-sentAt": SentAtDevice,
             "old-no-group-stamp": NoGroupStampDevice, "withdraw-all": WithdrawAllDevice}
DEFAULT_PLATFORM = {"apns": "ios-filter", "fcm": "android", "webpush": "web"}
