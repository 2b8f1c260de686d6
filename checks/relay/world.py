"""One recipient's world for the relay check: its devices, the backend, the push services and the
network, the clock, and the relay (examples/relay/relay.py on the core, through relay.py's fakes)
against the live service, driven by the events of docs/spec/screen.md section 3 and
test-fixtures/README.md, and checked by the device model (devices.py, invariants.py) once settled."""
from __future__ import annotations

import pathlib
import random

from devices import DEFAULT_PLATFORM, PLATFORMS
from invariants import check_screen, check_settled, check_text
from model import MEASURED, Backend, Clock, Crash, Scheduler
from services import ENDPOINTS, Network
from relay import CoreTap, FetchFake, PushFake, Relay, Store, key_of, loop_fetch_keys, ms_of, rfc3339

ROOT = pathlib.Path(__file__).resolve().parents[2]
RECIPIENT = "me"
REGISTERED = ("id", "transport", "token", "topic")  # what a registration tells the relay of a device


def note_of(request, answer):
    """What a loop's answer composed, for the devices: its `kind`, the keys it `shown`, its `locale`, the
    record's `locale` and `preview` it was composed for, and the end of its lifetime (Unix seconds)."""
    composed, settings = answer["answer"], request["record"]["settings"]
    return {"kind": composed["kind"], "shown": composed["shown"], "locale": composed["locale"],
            "preview": settings["preview"], "requested": settings["locale"],
            "expires": int(composed["push"]["apns"]["headers"]["apns-expiration"])}


class World:
    """One recipient, its devices, the backend, the push services and a relay.

    The case may ask for the realistic network: `latency` [lo, hi] seconds
    per payload, `duplicates` (the probability that a push request times out
    after the service accepted it), `crashes` (the probability that the
    relay dies at each crash point it reaches), `throttle` [drop, delay] (iOS's
    background pushes). `platforms` maps a transport to the device class the
    self-test puts there; `tap` is the core's wrapper (relay.CoreTap, or a
    self-test's broken one)."""

    def __init__(self, case, core, seed=0, tap=CoreTap, platforms=None):
        self.clock = Clock()
        self.scheduler = Scheduler(self.clock)
        self.scheduler.on_crash = self.crashed
        self.rng = random.Random(seed)  # the relay's jitter
        self.net_rng = random.Random(seed * 7 + 1)  # the network's and the devices'
        self.fault_rng = random.Random(seed * 13 + 5)  # the relay's crashes
        self.config = {"maxAgeSeconds": case.get("maxAgeSeconds", 600), "maxUnits": case.get("maxUnits", 256)}
        self.backend = Backend(RECIPIENT, self.clock, case.get("fetchRead", True))
        self.endpoints = {name: cls(self) for name, cls in ENDPOINTS.items()}
        lo, hi = case.get("latency", [0, 0])
        self.network = Network(self, (int(lo * 1000), int(hi * 1000)))
        self.duplicate_rate = case.get("duplicates", 0)
        self.crash_rate = case.get("crashes", 0)
        self.throttle = tuple(case.get("throttle", [0, 0]))
        self.platforms = platforms or {}
        self.devices, self.tokens = {}, {}
        for d in case["devices"]:
            self.add_device(d)
        self.log, self.violations = [], []
        self.limits, self.limited = {}, set()  # measured limits: label → devices it left wrong
        self.limit_rules = {}  # label → rule → settled checks it broke
        self.crash_next, self.crashes = {}, 0
        self.compose_unavailable = 0
        self.notes = {}  # stamp → what the loop's stored answer composed (relay.CoreTap.stored)
        self.last_device = None  # the device of the relay's last send (its crash between devices)
        self.armed = set()  # the times of the relay's timers in the scheduler
        self.fetched_ok, self.last_fetch_ok, self.badge = set(), True, None
        # screen.md I8 to I10: the recipient's activity elsewhere (ms), each group's last alert (ms), and the
        # last answer of a successful fetch that was not held (its group and notification: what devices show).
        self.active_until, self.alerted, self.latest = None, {}, None
        self.sequence = 0
        self.store = Store()
        self.tap = tap(core, self)
        self.store.on_write = self.tap.stored
        self.store.before_write = self.tap.before_write
        settings = {"locale": "en", "preview": "full", "androidChannel": "messages"}
        settings.update(case.get("settings", {}))
        settings.update(self.config)
        self.create_record(core, settings, case["devices"])
        self.relay = self.new_relay()

    def create_record(self, core, settings, devices):
        """The recipient's record with its devices, before the first event: made by the core (its
        registrations), stored without a loop run: the first event's loop composes."""
        now = rfc3339(self.clock.now())
        record = core({"do": "event", "record": None, "recipient": RECIPIENT, "settings": settings, "now": now,
                       "event": {"type": "created"}})["record"]
        for d in devices:
            record = core({"do": "event", "record": record, "now": now,
                           "event": {"type": "register", "device": {k: d[k] for k in REGISTERED if k in d}}})["record"]
        self.store.write(RECIPIENT, 0, record)

    def add_device(self, d):
        platform = self.platforms.get(d["transport"]) or d.get("platform") or DEFAULT_PLATFORM[d["transport"]]
        cls = PLATFORMS[platform]
        kwargs = {"throttle": self.throttle} if platform.startswith("ios") else {}
        device = cls(d["id"], d["transport"], self, **kwargs)
        self.devices[d["id"]], self.tokens[d["id"]] = device, d["token"]
        self.endpoints[d["transport"]].devices[d["token"]] = device
        return device

    def new_relay(self):
        """examples/relay/relay.py's Relay, given the model's fakes and the clock the test controls."""
        return Relay(core=self.tap, fetch=FetchFake(self), store=self.store,
                     push={transport: PushFake(self, transport) for transport in ENDPOINTS},
                     clock=lambda: self.clock.now() / 1000, jitter=self.rng.random,
                     sleep=lambda seconds: self.clock.advance(seconds * 1000))

    def crash_point(self, point):
        if self.crash_next.get(point, 0) > 0:
            self.crash_next[point] -= 1
        elif not (self.crash_rate and self.fault_rng.random() < self.crash_rate):
            return
        self.crashes += 1
        raise Crash(point)

    def crashed(self):
        """The relay died: its memory and timers are lost, its store is kept; a
        new one starts at once (relay.md "Starting")."""
        self.scheduler.drop("relay")
        self.armed.clear()
        self.tap.restarted()
        self.relay = self.new_relay()
        self.run(self.relay.start)

    def run(self, action):
        """One call into the relay; a crash restarts it. Then the relay's timers (its `wake_at`)
        become the scheduler's."""
        self.last_device = None
        try:
            action()
        except Crash:
            self.crashed()
        self.arm()

    def arm(self):
        for at in set(self.relay.wake_at.values()) - self.armed - {None}:
            self.armed.add(at)
            self.scheduler.call_at(at, "relay", lambda at=at: self.fire(at))

    def fire(self, at):
        self.armed.discard(at)
        self.run(self.relay.tick)

    def event(self, event):
        self.run(lambda: self.relay.event(RECIPIENT, event))

    def observe(self, request, answer):
        """A loop's answer, as the store wrote it: what each stamp's alert composed (the devices
        look it up by the payload's stamp), the fetch for the checks, and the withdrawal a Web Push
        device is not sent (its shadow gets it, and every badge-only one)."""
        composed, before = answer["answer"], request["record"]
        fetched = request["fetch"] == "ok"
        if fetched:
            self.fetched_ok.update(loop_fetch_keys(request))
            self.badge = request["unread"]
        self.last_fetch_ok = fetched
        push = composed.get("push")
        if push is None:
            return
        self.check_alert(request, composed)
        # A group that left the device starts anew (screen.md I9): its window was recorded with its entries.
        groups = {e.get("group") for e in composed["displayed"]}
        self.alerted = {g: t for g, t in self.alerted.items() if g in groups}
        if fetched and push["heldUntil"] is None:
            self.latest = (push["group"], composed["kind"], composed["notification"])
        self.notes[push["stamp"]] = note_of(request, answer)
        alert_goes = push["send"] or (before["refresh"] and composed["shown"] != [])
        if push["withdraw"] or (fetched and not alert_goes):
            for d in answer["record"]["devices"]:
                if d["transport"] == "webpush":
                    self.not_sent(d["id"], push["withdrawal"]["webpush"]["payload"])

    def check_alert(self, request, composed):
        """screen.md I9 and I10 on a stored answer: a group alerts at most once per alert window (60 s)
        unless a message is newly direct, or the answer is a fallback; nothing alerts while the
        recipient is active elsewhere."""
        push = composed["push"]
        if not push["alert"]:
            return
        now = ms_of(request["now"])
        if self.active_until is not None and now < self.active_until:
            self.violation("I10", f"an alert at {request['now']} while active elsewhere until "
                                  f"{rfc3339(self.active_until)}")
        group = push["group"]
        if composed["kind"] != "fallback":
            before = {e["key"]: e for e in request["record"]["displayed"] if e.get("key") is not None}
            types = {key_of(n): n["type"] for n in request.get("notifications", [])}
            newly_direct = any(types.get(k) in ("mention", "reply") and before.get(k, {}).get("direct") is not True
                               for k in composed["shown"])
            # The window is the group's while it is on the device: one the answer's state no longer had
            # (withdrawn, everything read) alerts anew.
            on_device = any(e.get("group") == group for e in request["record"]["displayed"])
            window = request["record"]["settings"].get("alertWindowSeconds", 60) * 1000
            last = self.alerted.get(group)
            if on_device and last is not None and now - last < window and not newly_direct:
                self.violation("I9", f"{group} alerted at {request['now']}, {now - last} ms after its last alert")
        self.alerted[group] = now

    def not_sent(self, device_id, payload):
        """The relay sends a Web Push device no withdrawal: its shadow gets it."""
        device = self.devices.get(device_id)
        if device is None:
            return
        device.event("web-no-withdrawal")
        self.network.shadow_only(device, {"message": "withdrawal", "groups": list(payload["withdraw"]),
                                          "stamp": int(payload["stamp"]), "badge": payload.get("appBadge"),
                                          "expires": self.clock.now() + 86_400_000})

    def violation(self, rule, text):
        self.violations.append((rule, text))

    def endpoint_of(self, device_id):
        return self.endpoints[self.devices[device_id].transport], self.tokens[device_id]

    # The events of screen.md section 3 (test-fixtures/README.md, scenarios.json).
    def apply(self, event):
        kind = event["do"]
        if kind == "create":
            self.sequence += 1
            n = dict(event["notification"])
            n.setdefault("id", str(self.sequence))
            n.setdefault("source", "chat")
            n.setdefault("type", "message")
            ms = self.clock.now() - int(event.get("ago", 0) * 1000)
            n["timestamp"] = rfc3339(ms)
            self.backend.add(n, ms)
            if event.get("run", True):  # "run": false: the relay is not told (the next event's loop sees it)
                self.event({"type": "created"})
        elif kind == "read":
            for key in event["keys"]:
                self.backend.notifications[key]["read"] = True
            if event.get("on"):  # opened on that device: the notification it opened leaves it
                device = self.devices[event["on"]]
                for group, note in list(device.shown.items()):
                    if set(note["covers"]) & set(event["keys"]):
                        device.open(group)
            if event.get("run", True):
                self.event({"type": "read"})
        elif kind == "edit":  # the sender edited it: its text, type, sender's name or thread's title
            n = self.backend.notifications[event["key"]]
            n.update({k: event[k] for k in ("text", "type", "threadTitle") if k in event})
            if "senderName" in event:
                n["sender"] = dict(n.get("sender") or {}, name=event["senderName"])
            if event.get("run", True):
                self.event({"type": "edited"})
        elif kind == "delete":
            self.backend.remove(event["key"])
            if event.get("run", True):
                self.event({"type": "deleted"})
        elif kind == "active":  # the recipient is active on another client for that long
            self.active_until = self.clock.now() + int(event["seconds"] * 1000)
            self.event({"type": "active", "until": rfc3339(self.active_until)})
        elif kind == "time":
            self.scheduler.run_until(self.clock.now() + int(event["seconds"] * 1000))
        elif kind == "fetch-fails":
            self.backend.failures += [event.get("as", "failed")] * event.get("count", 1)
        elif kind == "device-fails":
            endpoint, token = self.endpoint_of(event["device"])
            endpoint.failing[token] = endpoint.failing.get(token, 0) + event.get("count", 1)
        elif kind == "device-timeouts":
            endpoint, token = self.endpoint_of(event["device"])
            endpoint.timeouts[token] = endpoint.timeouts.get(token, 0) + event.get("count", 1)
        elif kind == "device-gone":
            endpoint, token = self.endpoint_of(event["device"])
            endpoint.gone.add(token)
        elif kind in ("delay", "delay-withdrawals"):
            which = "withdrawal" if kind == "delay-withdrawals" else event.get("payload", "any")
            self.network.scripted.setdefault(event["device"], []).extend(
                [(which, int(event["seconds"] * 1000))] * event.get("count", 1))
        elif kind == "offline":
            self.network.offline(self.devices[event["device"]], event["seconds"])
        elif kind == "force-quit":
            self.devices[event["device"]].force_quit = True
        elif kind == "open-app":
            self.devices[event["device"]].force_quit = False
        elif kind == "compose-unavailable":
            self.compose_unavailable += event.get("count", 1)
        elif kind == "crash":  # the relay dies the next time it reaches that point
            self.crash_next[event["at"]] = self.crash_next.get(event["at"], 0) + event.get("count", 1)
        elif kind == "restart":  # the relay's timers and memory are lost; its store is kept
            self.crashed()
        elif kind == "settings":
            self.event(dict({k: v for k, v in event.items() if k != "do"}, type="settings"))
        elif kind == "register":
            self.add_device(event["device"])
            self.event({"type": "register", "device": {k: event["device"][k] for k in REGISTERED if k in event["device"]}})
        else:
            raise ValueError(f"unknown event {kind!r}")

    def settle(self):
        if not self.scheduler.run_until(None):
            self.violation("S", "the relay did not settle")

    def settings(self):
        return self.store.read(RECIPIENT)[1]["settings"]

    def problems(self, device):
        """(rule, text, group) of every broken invariant on the device."""
        return (check_screen(device, self.backend, self.clock.now(), self.config["maxAgeSeconds"], self.fetched_ok,
                             self.last_fetch_ok)
                + check_settled(device, self.backend, self.settings(), self.badge)
                + check_text(device, self.latest))

    def check(self):
        """Every device once settled: a broken invariant is a violation, unless
        the device's shadow holds it and one of its platform's measured limits
        acted (screen.md section 2), or it is what an alert that expired at the
        push service while the device was offline left; then it is counted as
        that limit."""
        for rule, text in self.log_problems():
            self.violation(rule, text)
        for device_id, device in self.devices.items():
            endpoint, token = self.endpoint_of(device_id)
            if token in endpoint.gone:
                continue
            real = self.problems(device)
            if not real:
                continue
            acted = [label for label in MEASURED if label in device.events]
            shadow = self.problems(device.shadow) if acted else None
            if acted and (not shadow or device.shadow.explained_by_expiry(shadow)):
                self.limit(device_id, acted + (["expired"] if shadow else []), real)
            elif device.explained_by_expiry(real):
                self.limit(device_id, ["expired"], real)
            else:
                for rule, text, _ in real:
                    self.violation(rule, f"{text} [{device.platform}]")

    def limit(self, device_id, labels, problems):
        for label in labels:
            rules = self.limit_rules.setdefault(label, {})
            for rule in {rule for rule, _, _ in problems}:
                rules[rule] = rules.get(rule, 0) + 1
            if (device_id, label) not in self.limited:
                self.limited.add((device_id, label))
                self.limits[f"{label} ({self.devices[device_id].platform})"] = \
                    self.limits.get(f"{label} ({self.devices[device_id].platform})", 0) + 1

    def silent_pushes(self, kind=None):
        """The Web devices' pushes that left the origin showing nothing (of one kind: withdrawal or alert)."""
        return sum(n for d in self.devices.values() if hasattr(d, "silent")
                   for k, n in d.silent.items() if kind in (None, k))

    def log_problems(self):
        problems = [("R", f"relay error {entry}") for entry in self.log]
        self.log.clear()
        return problems
