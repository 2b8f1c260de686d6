"""The world the reference relay runs in: a clock the test controls, a
scheduler, the app's backend, fake APNs / FCM / Web Push endpoints, the
network between them and the devices (latency, offline periods with each
push service's store-and-forward), the devices of each platform applying
docs/spec/screen.md section 2's stamp rule, and the checks of section 4.

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
violation.

The fakes check each transport's size limit on the bytes the relay wrote
(APNs 4,096; FCM 4,096 for the message with its token; Web Push 3,993 of
plaintext: the model does not encrypt) and the lifetime the relay sends
against the answer's (a retry must send what is left of it).
"""
from __future__ import annotations

import functools
import heapq
import json
import pathlib
import re

START_MS = 1_795_953_600_000  # 2026-11-29T12:00:00Z

# The platform limits counted as measured limits (screen.md section 2), not violations.
MEASURED = ("ios-plain", "force-quit", "ios-throttled", "apns-keep-last", "web-no-withdrawal", "expired")


class Crash(BaseException):
    """The relay process dies here (world.py restarts it): a BaseException,
    so that nothing the relay catches (a push client's error, a fetch's)
    takes it for an answer."""


class Clock:
    def __init__(self, ms=START_MS):
        self.ms = ms

    def now(self):
        return self.ms

    def advance(self, ms):
        self.ms += int(ms)

    sleep = advance

    def set(self, ms):
        self.ms = max(self.ms, ms)


class Scheduler:
    """Timers of the relay (owner "relay": lost when it restarts), deliveries
    in flight in the push services (owner "network") and the devices' own
    timers (owner "device"). A relay timer that crashes the relay calls
    `on_crash`."""

    def __init__(self, clock):
        self.clock, self.heap, self.seq = clock, [], 0
        self.on_crash = None

    def call_at(self, at, owner, action):
        self.seq += 1
        heapq.heappush(self.heap, (max(at, 0), self.seq, owner, action))

    def drop(self, owner):
        self.heap = [entry for entry in self.heap if entry[2] != owner]
        heapq.heapify(self.heap)

    def pending(self, owner):
        return sum(1 for entry in self.heap if entry[2] == owner)

    def run_until(self, until=None, limit=50_000):
        """Runs the timers due up to `until` (all of them when None); the clock
        moves to each timer's time. Returns False when `limit` timers ran."""
        for _ in range(limit):
            if not self.heap or (until is not None and self.heap[0][0] > until):
                if until is not None:
                    self.clock.set(until)
                return True
            at, _, _, action = heapq.heappop(self.heap)
            self.clock.set(at)
            try:
                action()
            except Crash:
                self.on_crash()
        return False


class Backend:
    """The app's notifications of one recipient, and its fetch (relay.md
    step 3): the window of `maxAgeSeconds`, read ones included, newest first,
    and the unread count the relay sends as the badge."""

    def __init__(self, recipient, clock, include_read=True):
        self.recipient, self.clock, self.include_read = recipient, clock, include_read
        self.notifications, self.ms, self.failures = {}, {}, []

    def add(self, notification, ms):
        key = key_of(notification)
        self.notifications[key], self.ms[key] = notification, ms
        return key

    def fetch(self, recipient, now_ms, max_age_seconds):
        if self.failures:
            outcome = self.failures.pop(0)
            if outcome == "timeout":
                self.clock.advance(2000)  # relay.md: the fetch's 2 s timeout
            return outcome, None, None
        window = [k for k in self.notifications if self.ms[k] >= now_ms - max_age_seconds * 1000
                  and (self.include_read or not self.notifications[k].get("read"))]
        window.sort(key=lambda k: (-self.ms[k], k))
        return "ok", [dict(self.notifications[k]) for k in window[:1000]], self.unread()

    def unread(self):
        return sum(1 for n in self.notifications.values() if not n.get("read") and not self.own(n))

    def own(self, n):
        return (n.get("sender") or {}).get("id") == self.recipient


def key_of(n):
    return f"{n['source']}:{n['id']}" if n.get("source") else n["id"]


# --- Devices -----------------------------------------------------------------

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
            elif rule in ("TIER", "LANG", "I3"):
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


# --- Push services -----------------------------------------------------------

class Endpoint:
    """A push service: faults the test asks for, limits, then the network
    (latency, offline store-and-forward, expiry)."""
    limit = 4096

    def __init__(self, world):
        self.world = world
        self.devices = {}  # token → Device
        self.failing = {}  # token → transient failures still to answer
        self.timeouts = {}  # token → requests still to time out after they were accepted
        self.gone = set()
        self.failures = {}  # token → transient failures answered so far (they take transient_answers in turn)
        self.accepted_count = 0

    def post(self, token, headers, body: bytes, note):
        world = self.world
        if token in self.gone or token not in self.devices:
            return self.gone_answer()
        if self.failing.get(token, 0) > 0:
            self.failing[token] -= 1
            turn = self.failures.get(token, 0)
            self.failures[token] = turn + 1
            return self.transient_answers[turn % len(self.transient_answers)]
        if len(self.measured(body)) > self.limit:
            return self.too_large()
        message = json.loads(body)
        device, now = self.devices[token], world.clock.now()
        push = self.withdrawal_of(headers, message)
        if push is None:
            lifetime = self.lifetime(headers, message)
            if lifetime > note["expires"] - now // 1000:
                world.violation("L", f"{device.id}: a lifetime of {lifetime} s sent where "
                                     f"{note['expires'] - now // 1000} s were left")
            push = self.alert_of(headers, message)
            push["fields"].update(kind=note["kind"], covers=list(note["shown"]), locale=note["locale"],
                                  preview=note["preview"], requested=note["requested"])
            push["kind"] = note["kind"]
        push["expires"] = self.expires(headers, message)
        push["stamp"] = int(push["stamp"])
        push["badge"] = None if push["badge"] is None else int(push["badge"])
        self.accepted_count += 1
        world.network.accept(self, device, push)
        if self.timeouts.get(token, 0) > 0 or world.net_rng.random() < world.duplicate_rate:
            if self.timeouts.get(token, 0) > 0:
                self.timeouts[token] -= 1
            return None, {}, {}  # accepted, but the relay's request timed out
        return self.accepted()

    def measured(self, body):
        return body

    def offline_keep(self, pending, push):
        """Store-and-forward while the device is offline (the default: keep all, at most 100)."""
        pending.append(push)
        del pending[:-100]


class Apns(Endpoint):
    def gone_answer(self):
        return 410, {}, {"reason": "Unregistered"}

    transient_answers = [(503, {}, {"reason": "ServiceUnavailable"}), (500, {}, {"reason": "InternalServerError"}),
                         (429, {}, {"reason": "TooManyRequests"})]

    def too_large(self):
        return 413, {}, {"reason": "PayloadTooLarge"}

    def accepted(self):
        return 200, {}, {}

    def withdrawal_of(self, headers, message):
        if "withdraw" not in message:
            return None
        return {"message": "withdrawal", "groups": message["withdraw"], "stamp": message["stamp"],
                "badge": message.get("badge")}

    def expires(self, headers, message):
        return int(headers["apns-expiration"]) * 1000

    def lifetime(self, headers, message):
        return int(headers["apns-expiration"]) - self.world.clock.now() // 1000

    def alert_of(self, headers, message):
        aps = message["aps"]
        if headers["apns-collapse-id"] != aps["thread-id"]:
            self.world.violation("T", "apns-collapse-id differs from thread-id")
        alert = aps["alert"]
        return {"message": "alert", "group": headers["apns-collapse-id"], "stamp": message["stamp"],
                "badge": aps.get("badge"), "mutable": aps.get("mutable-content") == 1,
                "fields": {"title": alert["title"], "subtitle": alert.get("subtitle"), "body": alert["body"],
                           "alert": aps["interruption-level"] != "passive"}}

    def offline_keep(self, pending, push):
        """APNs keeps only the last notification for an offline device."""
        pending[:] = [push]


class Fcm(Endpoint):
    def gone_answer(self):
        return 404, {}, {"error": {"status": "UNREGISTERED"}}

    transient_answers = [(503, {}, {"error": {"status": "UNAVAILABLE"}}), (500, {}, {"error": {"status": "INTERNAL"}}),
                         (429, {"Retry-After": "5"}, {"error": {"status": "QUOTA_EXCEEDED"}}),
                         (503, {"Retry-After": "2"}, {"error": {"status": "UNAVAILABLE"}})]

    def too_large(self):
        return 400, {}, {"error": {"status": "INVALID_ARGUMENT"}}

    def accepted(self):
        return 200, {}, {"name": "projects/p/messages/1"}

    def measured(self, body):
        message = json.loads(body)["message"]  # push.md P13: the whole message object, the token included
        return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()

    def withdrawal_of(self, headers, message):
        data = message["message"]["data"]
        if "withdraw" not in data:
            return None
        return {"message": "withdrawal", "groups": data["withdraw"].split(" ") if data["withdraw"] else [],
                "stamp": data["stamp"], "badge": data.get("badge")}

    def expires(self, headers, message):
        return self.world.clock.now() + int(message["message"]["android"]["ttl"].rstrip("s")) * 1000

    def lifetime(self, headers, message):
        return int(message["message"]["android"]["ttl"].rstrip("s"))

    def alert_of(self, headers, message):
        data = message["message"]["data"]
        if data["tag"] != message["message"]["android"]["collapse_key"]:
            self.world.violation("T", "FCM tag differs from collapse_key")
        return {"message": "alert", "group": data["tag"], "stamp": data["stamp"], "badge": data.get("badge"),
                "collapse": message["message"]["android"]["collapse_key"],
                "fields": {"title": data["title"], "subtitle": data.get("subtitle"), "body": data["body"],
                           "alert": data["alert"] == "true"}}

    def offline_keep(self, pending, push):
        """Up to 100 messages; a collapsible one replaces a pending one of its
        collapse_key; at most 4 collapse keys (the oldest goes)."""
        key = push.get("collapse")
        if key is not None:
            pending[:] = [p for p in pending if p.get("collapse") != key]
            keys = [p["collapse"] for p in pending if p.get("collapse") is not None]
            if len(keys) >= 4:
                pending[:] = [p for p in pending if p.get("collapse") != keys[0]]
        pending.append(push)
        del pending[:-100]


class WebPush(Endpoint):
    limit = 3993

    def gone_answer(self):
        return 410, {}, {}

    transient_answers = [(503, {}, {}), (500, {}, {}), (429, {"Retry-After": "3"}, {})]

    def too_large(self):
        return 413, {}, {}

    def accepted(self):
        return 201, {}, {}

    def withdrawal_of(self, headers, message):
        if "withdraw" not in message:
            return None
        return {"message": "withdrawal", "groups": message["withdraw"], "stamp": message["stamp"],
                "badge": message.get("appBadge"), "topic": headers.get("Topic")}

    def expires(self, headers, message):
        return self.world.clock.now() + int(headers["TTL"]) * 1000

    def lifetime(self, headers, message):
        return int(headers["TTL"])

    def alert_of(self, headers, message):
        return {"message": "alert", "group": message["tag"], "stamp": message["stamp"],
                "badge": message.get("appBadge"), "topic": headers.get("Topic"),
                "fields": {"title": message["title"], "subtitle": message.get("subtitle"), "body": message["body"],
                           "alert": message["alert"]}}

    def offline_keep(self, pending, push):
        """A pending message with the same Topic is replaced."""
        if push.get("topic") is not None:
            pending[:] = [p for p in pending if p.get("topic") != push["topic"]]
        pending.append(push)
        del pending[:-100]


ENDPOINTS = {"apns": Apns, "fcm": Fcm, "webpush": WebPush}


class Network:
    """Between a push service that accepted a payload and the device: a
    latency per payload (so payloads reorder), offline periods with the
    service's store-and-forward, payloads past their lifetime dropped. The
    device's shadow gets the same payloads at the same times, except that
    none is lost to APNs' keep-last."""

    def __init__(self, world, latency_ms=(0, 0)):
        self.world, self.latency_ms = world, latency_ms
        self.scripted = {}  # device id → [(which payloads: any, alert or withdrawal, ms)] for its next payloads

    def latency(self, device, push):
        scripted = self.scripted.get(device.id, [])
        for index, (which, ms) in enumerate(scripted):
            if which in ("any", push["message"]):
                del scripted[index]
                return ms
        lo, hi = self.latency_ms
        return self.world.net_rng.randint(lo, hi) if hi > lo else lo

    def accept(self, endpoint, device, push):
        now = self.world.clock.now()
        if device.offline_until is not None and device.offline_until > now:
            before = [id(p) for p in device.pending]
            endpoint.offline_keep(device.pending, push)
            if endpoint is self.world.endpoints["apns"]:
                if any(b not in {id(p) for p in device.pending} for b in before):
                    device.event("apns-keep-last")
                device.shadow_pending.append(push)
            else:
                endpoint.offline_keep(device.shadow_pending, push)
            return
        self.send(device, push, self.latency(device, push), ("real", "shadow"))

    def send(self, device, push, latency, targets):
        if latency <= 0:
            self.deliver(device, push, targets)
            return
        at = self.world.clock.now() + latency
        self.world.scheduler.call_at(at, "network", lambda: self.deliver(device, push, targets))

    def deliver(self, device, push, targets):
        if self.world.clock.now() > push["expires"]:
            if push["message"] == "alert":
                if "real" in targets:
                    device.expired.append(push)
                if "shadow" in targets and device.shadow is not None:
                    device.shadow.expired.append(push)
            return
        if "real" in targets:
            device.receive(push)
        if "shadow" in targets and device.shadow is not None:
            device.shadow.receive(push)

    def shadow_only(self, device, push):
        """A payload only the shadow gets (a withdrawal the relay does not send to a Web Push device)."""
        now = self.world.clock.now()
        if device.offline_until is not None and device.offline_until > now:
            device.shadow_pending.append(push)
            return
        lo, hi = self.latency_ms
        self.send(device, push, self.world.net_rng.randint(lo, hi) if hi > lo else lo, ("shadow",))

    def offline(self, device, seconds):
        now = self.world.clock.now()
        until = now + int(seconds * 1000)
        if device.offline_until is not None and device.offline_until > now:
            until = max(until, device.offline_until)
        device.offline_until = until
        self.world.scheduler.call_at(until, "network", lambda: self.online(device))

    def online(self, device):
        now = self.world.clock.now()
        if device.offline_until is None or device.offline_until > now:
            return  # a longer offline period was asked since
        device.offline_until = None
        real, shadow = device.pending, device.shadow_pending
        device.pending, device.shadow_pending = [], []
        for push in shadow:  # each delivered after its own latency: reordering
            targets = ("real", "shadow") if any(p is push for p in real) else ("shadow",)
            self.send(device, push, self.latency(device, push), targets)


# --- Checks ------------------------------------------------------------------

DIGITS = re.compile(r"[0-9]+")
CATALOGS = pathlib.Path(__file__).resolve().parents[2] / "l10n"


@functools.lru_cache(maxsize=None)
def count_words(locale, kind):
    """The branches of a catalog's count message that write no digits, by
    their selector (`two`: "שתי הודעות חדשות"): a count of 2 may be a word."""
    message = json.loads((CATALOGS / f"{locale}.json").read_text(encoding="utf-8"))["messages"][f"{kind}.count"]
    return {selector: text for selector, text in re.findall(r"(\w+|=\d+) \{([^{}#]*)\}", message)}


def count_of(note):
    """The count a bundle's or summary's header says (compose.md L11: ASCII
    digits), or 2 when it is the catalog's word for two."""
    header = note["body"].split("\n")[0]
    digits = DIGITS.findall(header)
    if len(digits) == 1:
        return int(digits[0])
    if not digits and count_words(note["locale"], note["kind"]).get("two") == header:
        return 2
    return None


def check_screen(device, backend, now_ms, max_age_seconds, fetched_ok, last_fetch_ok):
    """docs/spec/screen.md section 4, I1 to I5, on one device. Returns the
    violations as (rule, text, the key I1 finds uncovered)."""
    problems = []
    notes = list(device.shown.values())
    covered = {}
    for note in notes:
        for key in note["covers"]:
            covered[key] = covered.get(key, 0) + 1
    for key, n in backend.notifications.items():  # I1
        fresh = now_ms - backend.ms[key] <= max_age_seconds * 1000
        if not n.get("read") and fresh and not backend.own(n) and key in fetched_ok and covered.get(key, 0) != 1:
            problems.append(("I1", f"{device.id}: {key} is covered {covered.get(key, 0)} times", key))
    for note in notes:
        keys, kind = note["covers"], note["kind"]
        if kind == "single" and len(keys) != 1 or kind == "fallback" and keys:  # I2
            problems.append(("I2", f"{device.id}: a {kind} covers {len(keys)} keys", None))
        if kind in ("bundle", "summary") and count_of(note) != len(keys) or kind in ("bundle", "summary") and len(keys) < 2:
            problems.append(("I2", f"{device.id}: a {kind} says {note['body']!r} and covers {len(keys)} keys", None))
        if keys and all(backend.notifications[k].get("read") for k in keys):  # I3
            problems.append(("I3", f"{device.id}: {note['group']} covers only read messages {keys}", note["group"]))
        if kind == "fallback" and last_fetch_ok:  # I5
            problems.append(("I5", f"{device.id}: a fallback while the last fetch succeeded", None))
    for key, count in covered.items():  # I4
        if count > 1:
            problems.append(("I4", f"{device.id}: {key} is covered {count} times", None))
    return problems


def rendered(text):
    """What the sender wrote, as a body shows it (near enough for a search)."""
    return re.sub(r"[*`_]", "", text).strip()


def check_settled(device, backend, settings, badge):
    """Beyond I1 to I5: the badge equals the unread count of the last
    successful fetch (`badge`, None when none has succeeded), and every
    notification is in the current tier and language (compose.md C11: with
    `sender` no text a sender wrote, with `none` no name or thread title
    either). Returns (rule, text, group)."""
    problems = []
    if badge is not None and device.badge != badge:
        problems.append(("BADGE", f"{device.id}: badge {device.badge}, the unread count is {badge}", None))
    texts = set()
    names = set()
    for n in backend.notifications.values():
        for text in (n.get("text"), n.get("defaultText")):
            if text and len(rendered(text)) >= 4:
                texts.add(rendered(text)[:40])
        name = (n.get("sender") or {}).get("name")
        if name and len(name) >= 3:
            names.add(name)
        if n.get("threadTitle"):
            names.add(n["threadTitle"])
    for note in device.shown.values():
        if note["requested"] != settings["locale"]:
            problems.append(("LANG", f"{device.id}: {note['group']} is in {note['requested']!r},"
                                     f" the recipient reads {settings['locale']!r}", note["group"]))
        if note["kind"] == "fallback":
            continue
        if note["preview"] != settings["preview"]:
            problems.append(("TIER", f"{device.id}: {note['group']} shows the tier {note['preview']!r},"
                                     f" the recipient chose {settings['preview']!r}", note["group"]))
        if settings["preview"] in ("sender", "none") and any(t in note["body"] for t in texts):
            problems.append(("TIER", f"{device.id}: {note['group']} shows a sender's text: {note['body'][:60]!r}",
                             note["group"]))
        if settings["preview"] == "none" and (note["subtitle"] is not None
                                             or any(name in note["title"] for name in names)):
            problems.append(("TIER", f"{device.id}: {note['group']} shows a name: {note['title']!r}", note["group"]))
    return problems
