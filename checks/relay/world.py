"""One recipient's world for the relay check: its devices, the backend, the push services, the
clock and a relay (relay.py) against the live service, driven by the events of
docs/spec/screen.md section 3 and checked by the device model (model.py)."""
from __future__ import annotations

import pathlib
import random

from model import ENDPOINTS, Backend, Clock, Device, Scheduler, check_screen, key_of
from relay import Relay, Store, rfc3339

ROOT = pathlib.Path(__file__).resolve().parents[2]
RECIPIENT = "me"


class World:
    """One recipient, its devices, the backend, the push services and a relay."""

    def __init__(self, case, compose, seed=0, relay_class=Relay, app_checks_sent_at=True):
        self.clock = Clock()
        self.scheduler = Scheduler(self.clock)
        self.rng = random.Random(seed)
        self.config = {"maxAgeSeconds": case.get("maxAgeSeconds", 600), "maxUnits": case.get("maxUnits", 256)}
        self.backend = Backend(RECIPIENT, self.clock, case.get("fetchRead", True))
        self.endpoints = {name: cls(self) for name, cls in ENDPOINTS.items()}
        self.devices, self.tokens = {}, {}
        for d in case["devices"]:
            device = Device(d["id"], d["transport"], app_checks_sent_at)
            self.devices[d["id"]], self.tokens[d["id"]] = device, d["token"]
            self.endpoints[d["transport"]].devices[d["token"]] = device
        self.store = Store()
        settings = {"locale": "en", "preview": "full", "androidChannel": "messages"}
        settings.update(case.get("settings", {}))
        self.store.create(RECIPIENT, settings, case["devices"])
        self.log, self.violations = [], []
        self.compose = compose
        compose.clock, compose.log, compose.unavailable = self.clock, self.log, 0
        self.relay_class = relay_class
        self.fetched_ok, self.last_fetch_ok = set(), True
        self.relay = self.new_relay()
        self.sequence = 0

    def new_relay(self):
        relay = self.relay_class(self.store, self.backend, self.compose, self.endpoints, self.clock,
                                 self.scheduler, self.rng, self.config, self.log)
        relay.on_answer = self.on_answer
        return relay

    def on_answer(self, recipient, request, answer):
        if "notifications" in request:
            self.fetched_ok.update(key_of(n) for n in request["notifications"])
        self.last_fetch_ok = "notifications" in request

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
                self.relay.loop(RECIPIENT)
        elif kind == "read":
            for key in event["keys"]:
                self.backend.notifications[key]["read"] = True
            if event.get("on"):  # opened on that device: the notification it opened leaves it
                device = self.devices[event["on"]]
                for group, note in list(device.shown.items()):
                    if set(note["covers"]) & set(event["keys"]):
                        del device.shown[group]
            if event.get("run", True):
                self.relay.loop(RECIPIENT)
        elif kind == "time":
            self.scheduler.run_until(self.clock.now() + int(event["seconds"] * 1000))
        elif kind == "fetch-fails":
            self.backend.failures += [event.get("as", "failed")] * event.get("count", 1)
        elif kind == "device-fails":
            endpoint, token = self.endpoint_of(event["device"])
            endpoint.failing[token] = endpoint.failing.get(token, 0) + event.get("count", 1)
        elif kind == "device-gone":
            endpoint, token = self.endpoint_of(event["device"])
            endpoint.gone.add(token)
        elif kind == "delay-withdrawals":
            endpoint, token = self.endpoint_of(event["device"])
            endpoint.delays.setdefault(token, []).extend([int(event["seconds"] * 1000)] * event.get("count", 1))
        elif kind == "compose-unavailable":
            self.compose.unavailable += event.get("count", 1)
        elif kind == "restart":  # the relay's timers and memory are lost; its store is kept
            self.scheduler.drop("relay")
            self.relay = self.new_relay()
            self.relay.start()
        elif kind == "settings":
            version, record = self.store.read(RECIPIENT)
            record["settings"].update({k: v for k, v in event.items() if k != "do"})
            self.store.write(RECIPIENT, version, record)
            self.relay.loop(RECIPIENT, refresh=True)
        else:
            raise ValueError(f"unknown event {kind!r}")

    def settle(self):
        if not self.scheduler.run_until(None):
            self.violation("S", "the relay did not settle")

    def check(self):
        for rule, text in self.log_problems():
            self.violation(rule, text)
        for device_id, device in self.devices.items():
            endpoint, token = self.endpoint_of(device_id)
            if token in endpoint.gone:
                continue
            for rule, text in check_screen(device, self.backend, self.clock.now(), self.config["maxAgeSeconds"],
                                           self.fetched_ok, self.last_fetch_ok):
                self.violation(rule, text)

    def log_problems(self):
        problems = [("R", f"relay error {entry}") for entry in self.log]
        self.log.clear()
        return problems
