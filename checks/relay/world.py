"""One recipient's world for the relay check: its devices, the backend, the push services and the
network, the clock and a relay (relay.py) against the live service, driven by the events of
docs/spec/screen.md section 3 and test-fixtures/README.md, and checked by the device model
(model.py) once settled."""
from __future__ import annotations

import pathlib
import random

from model import (DEFAULT_PLATFORM, ENDPOINTS, MEASURED, PLATFORMS, Backend, Clock, Crash, Network, Scheduler,
                   check_screen, check_settled, key_of)
from relay import Relay, Store, rfc3339

ROOT = pathlib.Path(__file__).resolve().parents[2]
RECIPIENT = "me"


class World:
    """One recipient, its devices, the backend, the push services and a relay.

    The case may ask for the realistic network: `latency` [lo, hi] seconds
    per payload, `duplicates` (the probability that a push request times out
    after the service accepted it), `crashes` (the probability that the
    relay dies at each crash point it reaches), `throttle` [drop, delay] (iOS's
    background pushes). `platforms` maps a transport to the device class the
    self-test puts there."""

    def __init__(self, case, compose, seed=0, relay_class=Relay, platforms=None):
        self.clock = Clock()
        self.scheduler = Scheduler(self.clock)
        self.scheduler.on_crash = self.crashed
        self.rng = random.Random(seed)  # the relay's
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
        self.store = Store()
        settings = {"locale": "en", "preview": "full", "androidChannel": "messages"}
        settings.update(case.get("settings", {}))
        self.store.create(RECIPIENT, settings, case["devices"])
        self.log, self.violations = [], []
        self.limits, self.limited = {}, set()  # measured limits: label → devices it left wrong
        self.limit_rules = {}  # label → rule → settled checks it broke
        self.crash_next, self.crashes = {}, 0
        self.compose = compose
        compose.clock, compose.log, compose.unavailable = self.clock, self.log, 0
        self.relay_class = relay_class
        self.fetched_ok, self.last_fetch_ok, self.badge = set(), True, None
        self.relay = self.new_relay()
        self.sequence = 0

    def add_device(self, d):
        platform = self.platforms.get(d["transport"]) or d.get("platform") or DEFAULT_PLATFORM[d["transport"]]
        cls = PLATFORMS[platform]
        kwargs = {"throttle": self.throttle} if platform.startswith("ios") else {}
        device = cls(d["id"], d["transport"], self, **kwargs)
        self.devices[d["id"]], self.tokens[d["id"]] = device, d["token"]
        self.endpoints[d["transport"]].devices[d["token"]] = device
        return device

    def new_relay(self):
        relay = self.relay_class(self.store, self.backend, self.compose, self.endpoints, self.clock,
                                 self.scheduler, self.rng, self.config, self.log)
        relay.on_answer = self.on_answer
        relay.not_sent = self.not_sent
        relay.crash = self.crash_point
        return relay

    def crash_point(self, point):
        if self.crash_next.get(point, 0) > 0:
            self.crash_next[point] -= 1
        elif not (self.crash_rate and self.fault_rng.random() < self.crash_rate):
            return
        self.crashes += 1
        raise Crash(point)

    def crashed(self):
        """The relay died: its memory and timers are lost, its store is kept; it
        starts again at once (relay.md "Starting")."""
        self.scheduler.drop("relay")
        self.relay = self.new_relay()
        self.run(self.relay.start)

    def run(self, action):
        try:
            action()
        except Crash:
            self.crashed()

    def on_answer(self, recipient, request, answer):
        if "notifications" in request:
            self.fetched_ok.update(key_of(n) for n in request["notifications"])
            self.badge = request["push"]["badge"]
        self.last_fetch_ok = "notifications" in request

    def not_sent(self, device_id, entry):
        """The relay sends a Web Push device no withdrawal: its shadow gets it."""
        device = self.devices.get(device_id)
        if device is None:
            return
        payload = entry["payload"]["payload"]
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
                self.run(lambda: self.relay.event(RECIPIENT))
        elif kind == "read":
            for key in event["keys"]:
                self.backend.notifications[key]["read"] = True
            if event.get("on"):  # opened on that device: the notification it opened leaves it
                device = self.devices[event["on"]]
                for group, note in list(device.shown.items()):
                    if set(note["covers"]) & set(event["keys"]):
                        device.open(group)
            if event.get("run", True):
                self.run(lambda: self.relay.event(RECIPIENT))
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
            self.compose.unavailable += event.get("count", 1)
        elif kind == "crash":  # the relay dies the next time it reaches that point
            self.crash_next[event["at"]] = self.crash_next.get(event["at"], 0) + event.get("count", 1)
        elif kind == "restart":  # the relay's timers and memory are lost; its store is kept
            self.crashed()
        elif kind == "settings":
            settings = {k: v for k, v in event.items() if k != "do"}
            self.run(lambda: self.relay.event(RECIPIENT, refresh=True, settings=settings))
        elif kind == "register":
            self.add_device(event["device"])
            self.run(lambda: self.relay.event(RECIPIENT, refresh=True, device=event["device"]))
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
                + check_settled(device, self.backend, self.settings(), self.badge))

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
