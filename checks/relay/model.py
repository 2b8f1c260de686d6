"""The world the relay runs in: a clock the test controls, a scheduler
(the relay's timers, deliveries in flight, the devices' own timers), and
the app's backend with its fetch. The rest of the model is in devices.py
(the devices of each platform applying docs/spec/screen.md section 2's
stamp rule), services.py (fake APNs / FCM / Web Push endpoints and the
network between them and the devices: latency, offline periods with each
push service's store-and-forward) and invariants.py (the checks of
section 4).
"""
from __future__ import annotations

import heapq

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

    def remove(self, key):
        """The message was deleted: the fetch no longer has it."""
        self.notifications.pop(key, None)
        self.ms.pop(key, None)

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
