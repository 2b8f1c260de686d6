"""The world the reference relay runs in: a clock the test controls, a
scheduler, the app's backend, fake APNs / FCM / Web Push endpoints with
their replacement semantics, one device per token, and the invariant of
docs/spec/screen.md section 4 checked on every device.

The devices apply what each transport documents (screen.md section 2):
- APNs: an alert with an `apns-collapse-id` replaces the delivered
  notification with that id, or is added; `thread-id` groups. A background
  push's `withdraw` is handled by the app: it removes the delivered
  notifications whose thread id is listed and whose date is at or before
  `sentAt`.
- FCM: a data message is posted by the app with its `tag`, which replaces
  a notification of that tag (`NotificationManager.notify(tag, 0, …)`); a
  data message with `withdraw` cancels the listed tags posted at or before
  `sentAt`.
- Web Push: the service worker shows the payload with its `tag`, replacing
  a notification of that tag; a payload with `withdraw` closes the listed
  tags shown at or before `sentAt`.
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
    """Timers of the relay (owner "relay": lost when it restarts) and
    deliveries in flight in the push services (owner "network")."""

    def __init__(self, clock):
        self.clock, self.heap, self.seq = clock, [], 0

    def call_at(self, at, owner, action):
        self.seq += 1
        heapq.heappush(self.heap, (max(at, 0), self.seq, owner, action))

    def drop(self, owner):
        self.heap = [entry for entry in self.heap if entry[2] != owner]
        heapq.heapify(self.heap)

    def run_until(self, until=None, limit=20_000):
        """Runs the timers due up to `until` (all of them when None); the clock
        moves to each timer's time. Returns False when `limit` timers ran."""
        for _ in range(limit):
            if not self.heap or (until is not None and self.heap[0][0] > until):
                if until is not None:
                    self.clock.set(until)
                return True
            at, _, _, action = heapq.heappop(self.heap)
            self.clock.set(at)
            action()
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
                self.clock.advance(2000)  # relay.md step 3: the fetch's 2 s timeout
            return outcome, None, None
        window = [k for k in self.notifications if self.ms[k] >= now_ms - max_age_seconds * 1000
                  and (self.include_read or not self.notifications[k].get("read"))]
        window.sort(key=lambda k: (-self.ms[k], k))
        unread = sum(1 for k, n in self.notifications.items() if not n.get("read") and not self.own(n))
        return "ok", [dict(self.notifications[k]) for k in window[:1000]], unread

    def own(self, n):
        return (n.get("sender") or {}).get("id") == self.recipient


def key_of(n):
    return f"{n['source']}:{n['id']}" if n.get("source") else n["id"]


class Device:
    """One device: its notifications (group → notification) and its badge."""

    def __init__(self, device_id, transport, check_sent_at=True):
        self.id, self.transport, self.shown, self.badge = device_id, transport, {}, None
        self.check_sent_at = check_sent_at  # False: the broken app of the self-test

    def post(self, group, fields, now):
        self.shown[group] = dict(fields, group=group, posted=now)

    def withdraw(self, groups, sent_at):
        for group in groups:
            note = self.shown.get(group)
            if note is not None and (note["posted"] <= sent_at or not self.check_sent_at):
                del self.shown[group]

    def set_badge(self, badge):
        if badge is not None:
            self.badge = int(badge)

    def screen(self):
        return [{k: n[k] for k in ("group", "kind", "title", "subtitle", "body", "covers", "alert")}
                for _, n in sorted(self.shown.items())]


class Endpoint:
    """A push service: faults the test asks for, limits, then delivery."""
    limit = 4096

    def __init__(self, world):
        self.world = world
        self.devices = {}  # token → Device
        self.failing = {}  # token → transient failures still to answer
        self.gone = set()
        self.delays = {}  # token → [ms] delays of the next withdrawals
        self.failures = {}  # token → transient failures answered so far (they take transient_answers in turn)

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
        withdrawal = self.withdrawal_of(message)
        if withdrawal is not None:
            delays = self.delays.get(token)
            delay = delays.pop(0) if delays else 0
            groups, sent_at, badge = withdrawal
            if delay:
                world.scheduler.call_at(now + delay, "network",
                                        lambda: (device.withdraw(groups, sent_at), device.set_badge(badge)))
            else:
                device.withdraw(groups, sent_at)
                device.set_badge(badge)
        else:
            lifetime = self.lifetime(headers, message)
            if lifetime > note["expires"] - now // 1000:
                world.violation("L", f"{device.id}: a lifetime of {lifetime} s sent where "
                                     f"{note['expires'] - now // 1000} s were left")
            fields, badge = self.alert_of(headers, message)
            fields.update(kind=note["kind"], covers=list(note["shown"]), locale=note["locale"])
            device.post(fields.pop("group"), fields, now)
            device.set_badge(badge)
        return self.accepted()

    def measured(self, body):
        return body


class Apns(Endpoint):
    def gone_answer(self):
        return 410, {}, {"reason": "Unregistered"}

    transient_answers = [(503, {}, {"reason": "ServiceUnavailable"}), (500, {}, {"reason": "InternalServerError"}),
                         (429, {}, {"reason": "TooManyRequests"})]

    def too_large(self):
        return 413, {}, {"reason": "PayloadTooLarge"}

    def accepted(self):
        return 200, {}, {}

    def withdrawal_of(self, message):
        if "withdraw" not in message:
            return None
        return message["withdraw"], message["sentAt"], message.get("badge")

    def lifetime(self, headers, message):
        return int(headers["apns-expiration"]) - self.world.clock.now() // 1000

    def alert_of(self, headers, message):
        aps = message["aps"]
        if headers["apns-collapse-id"] != aps["thread-id"]:
            self.world.violation("T", "apns-collapse-id differs from thread-id")
        alert = aps["alert"]
        return ({"group": headers["apns-collapse-id"], "title": alert["title"], "subtitle": alert.get("subtitle"),
                 "body": alert["body"], "alert": aps["interruption-level"] != "passive"}, aps.get("badge"))


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

    def withdrawal_of(self, message):
        data = message["message"]["data"]
        if "withdraw" not in data:
            return None
        return data["withdraw"].split(" "), int(data["sentAt"]), data.get("badge")

    def lifetime(self, headers, message):
        return int(message["message"]["android"]["ttl"].rstrip("s"))

    def alert_of(self, headers, message):
        data = message["message"]["data"]
        if data["tag"] != message["message"]["android"]["collapse_key"]:
            self.world.violation("T", "FCM tag differs from collapse_key")
        return ({"group": data["tag"], "title": data["title"], "subtitle": data.get("subtitle"),
                 "body": data["body"], "alert": data["alert"] == "true"}, data.get("badge"))


class WebPush(Endpoint):
    limit = 3993

    def gone_answer(self):
        return 410, {}, {}

    transient_answers = [(503, {}, {}), (500, {}, {}), (429, {"Retry-After": "3"}, {})]

    def too_large(self):
        return 413, {}, {}

    def accepted(self):
        return 201, {}, {}

    def withdrawal_of(self, message):
        if "withdraw" not in message:
            return None
        return message["withdraw"], message["sentAt"], message.get("appBadge")

    def lifetime(self, headers, message):
        return int(headers["TTL"])

    def alert_of(self, headers, message):
        return ({"group": message["tag"], "title": message["title"], "subtitle": message.get("subtitle"),
                 "body": message["body"], "alert": message["alert"]}, message.get("appBadge"))


ENDPOINTS = {"apns": Apns, "fcm": Fcm, "webpush": WebPush}
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
    violations as (rule, text)."""
    problems = []
    notes = list(device.shown.values())
    covered = {}
    for note in notes:
        for key in note["covers"]:
            covered[key] = covered.get(key, 0) + 1
    for key, n in backend.notifications.items():  # I1
        fresh = now_ms - backend.ms[key] <= max_age_seconds * 1000
        if not n.get("read") and fresh and not backend.own(n) and key in fetched_ok and covered.get(key, 0) != 1:
            problems.append(("I1", f"{device.id}: {key} is covered {covered.get(key, 0)} times"))
    for note in notes:
        keys, kind = note["covers"], note["kind"]
        if kind == "single" and len(keys) != 1 or kind == "fallback" and keys:  # I2
            problems.append(("I2", f"{device.id}: a {kind} covers {len(keys)} keys"))
        if kind in ("bundle", "summary") and count_of(note) != len(keys) or kind in ("bundle", "summary") and len(keys) < 2:
            problems.append(("I2", f"{device.id}: a {kind} says {note['body']!r} and covers {len(keys)} keys"))
        if keys and all(backend.notifications[k].get("read") for k in keys):  # I3
            problems.append(("I3", f"{device.id}: {note['group']} covers only read messages {keys}"))
        if kind == "fallback" and last_fetch_ok:  # I5
            problems.append(("I5", f"{device.id}: a fallback while the last fetch succeeded"))
    for key, count in covered.items():  # I4
        if count > 1:
            problems.append(("I4", f"{device.id}: {key} is covered {count} times"))
    return problems
