#!/usr/bin/env python3
"""The reference relay (relay.py, docs/relay.md) and the device model
(model.py) against the live service: the scenarios of
test-fixtures/scenarios.json, and seeded random sequences of events with the
invariant of docs/spec/screen.md section 4 checked after every settled step.

usage: check.py (--binary PATH | --url URL) [--scenarios] [--random N] [--seed S] [--self-test]

  --scenarios   every case of test-fixtures/scenarios.json: after each step,
                what each device shows must be the case's, and I1 to I5 hold
  --random N    N random sequences of events; every settled step is checked
  --self-test   the same checker against deliberately broken relays and apps
                (each must be caught), before anything else

Standard library only. Exit status 0 when everything holds, 1 otherwise.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import pathlib
import random
import re
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from model import ENDPOINTS, Backend, Clock, Device, Scheduler, check_screen  # noqa: E402
from relay import ComposeClient, Relay, Store, rfc3339  # noqa: E402

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
            self.fetched_ok.update(n_key(n) for n in request["notifications"])
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


def n_key(n):
    return f"{n['source']}:{n['id']}" if n.get("source") else n["id"]


def run_scenarios(compose, path):
    cases = json.loads(path.read_text(encoding="utf-8"))["cases"]
    failed = 0
    for case in cases:
        world = World(case, compose, seed=case.get("seed", 1))
        problems = []
        for index, step in enumerate(case["steps"], 1):
            world.apply(step["event"])
            if step.get("settle", True):
                world.settle()
                world.check()
            for device_id, device in world.devices.items():
                want = step.get("screens", {}).get(device_id, step.get("screen"))
                if want is not None and device.screen() != want:
                    problems.append(f"step {index}: {device_id} shows {json.dumps(device.screen(), ensure_ascii=False)}"
                                    f", expected {json.dumps(want, ensure_ascii=False)}")
                badge = step.get("badges", {}).get(device_id, step.get("badge"))
                if badge is not None and device.badge != badge:
                    problems.append(f"step {index}: {device_id} badge {device.badge}, expected {badge}")
            problems += [f"step {index}: {rule} {text}" for rule, text in world.violations]
            world.violations.clear()
        if problems:
            failed += 1
            print(f"FAIL {case['id']}")
            for problem in problems[:6]:
                print(f"     {problem}")
        else:
            print(f"ok   {case['id']}")
    print(f"{len(cases) - failed} passed, {failed} failed")
    return failed == 0


# Random sequences ---------------------------------------------------------

THREADS = ["t1", "t1", "t2", "t3", None, "caf\u00e9 chat"]
SENDERS = [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}, {"id": "cy", "name": "\u0645\u062d\u0645\u062f"},
           {"id": "dee"}, {"id": RECIPIENT, "name": "Me"}]
LOCALES = ["en", "de", "ar", "ja", "ru", "pt-PT", "he", "zh-Hant"]
TRANSPORTS = ["apns", "fcm", "webpush"]


def random_case(rng):
    devices = [{"id": f"d{i}", "transport": rng.choice(TRANSPORTS),
                "token": "tok" + "x" * rng.choice([8, 64, 163]) + str(i), "topic": "chat.example.app"}
               for i in range(rng.choice([1, 2, 2, 3]))]
    long_texts = rng.random() < 0.1
    return {"devices": devices, "fetchRead": rng.random() < 0.9, "maxAgeSeconds": rng.choice([600, 600, 600, 60, 5]),
            "maxUnits": 4096 if long_texts else 256, "longTexts": long_texts,
            "settings": {"locale": rng.choice(LOCALES), "preview": rng.choice(["full", "full", "sender", "none"])}}


# Each event's weight, and how often a step is left unsettled (the next event
# comes while retries and late deliveries are pending).
PROFILE = {"weights": {"create": 40, "read": 15, "read-here": 5, "time": 13, "fetch-fails": 5, "device-fails": 7,
                       "delay-withdrawals": 5, "restart": 3, "compose-unavailable": 2, "locale": 2.5,
                       "preview": 2, "device-gone": 0.5},
           "unsettled": 0.15}


def random_event(rng, world, case, profile=PROFILE):
    unread = [k for k, n in world.backend.notifications.items() if not n.get("read")]
    kinds, weights = zip(*profile["weights"].items())
    kind = rng.choices(kinds, weights)[0]
    device_id = rng.choice(sorted(world.devices))
    if kind == "create" or not unread and kind in ("read", "read-here"):
        thread = rng.choice(THREADS)
        n = {"sender": rng.choice(SENDERS)}
        if thread is not None:
            n.update(thread=thread, threadTitle=f"Title {thread}")
        if rng.random() < 0.15:
            n.update(type="edit", source="wiki", defaultText="Cleo edited Main Page")
        else:
            n["type"] = rng.choice(["message", "message", "mention", "reply"])
            if case["longTexts"]:
                n["text"] = "\u4e2d\u6587" * rng.randint(500, 2100) + " *end*"
            else:
                n["text"] = rng.choice(["Hello **world**", "see `code` 42", "ok", "3 of 4 done", ""])
        return {"do": "create", "notification": n, "ago": rng.choice([0, 0, 0, 1, 30])}
    if kind == "read":
        return {"do": "read", "keys": rng.sample(unread, rng.randint(1, len(unread)))}
    if kind == "read-here":
        notes = list(world.devices[device_id].shown.values())
        covered = [k for n in notes for k in n["covers"]]
        keys = sorted(set(covered) & set(unread)) or [rng.choice(unread)]
        return {"do": "read", "keys": keys, "on": device_id}
    if kind == "time":
        return {"do": "time", "seconds": rng.choice([1, 5, 30, 120, 400, 700])}
    if kind == "fetch-fails":
        return {"do": "fetch-fails", "count": rng.randint(1, 2), "as": rng.choice(["failed", "timeout"])}
    if kind == "device-fails":
        return {"do": "device-fails", "device": device_id, "count": rng.randint(1, 4)}
    if kind == "delay-withdrawals":
        return {"do": "delay-withdrawals", "device": device_id, "seconds": rng.choice([0.5, 3, 20])}
    if kind == "restart":
        return {"do": "restart"}
    if kind == "compose-unavailable":
        return {"do": "compose-unavailable", "count": rng.randint(1, 2)}
    if kind == "locale":
        return {"do": "settings", "locale": rng.choice(LOCALES)}
    if kind == "preview":
        return {"do": "settings", "preview": rng.choice(["full", "sender", "none"])}
    return {"do": "device-gone", "device": device_id}


def profile(unsettled=PROFILE["unsettled"], **weights):
    return {"weights": dict(PROFILE["weights"], **weights), "unsettled": unsettled}


RESTARTS = profile(0.6, restart=15, **{"device-fails": 20})  # restarts while retries are pending
LATE_WITHDRAWALS = profile(0.6, **{"delay-withdrawals": 25})  # withdrawals delivered after later alerts


def profile_for(index):
    """One sequence in ten of each stress profile, the rest of the default."""
    return {8: RESTARTS, 9: LATE_WITHDRAWALS}.get(index % 10, PROFILE)


def run_sequence(compose, seed, index, relay_class=Relay, app_checks_sent_at=True, profile=PROFILE):
    """One random sequence; every settled step is checked, and the end.
    Returns (steps, checked steps, violations, the events)."""
    rng = random.Random(f"{seed}:{index}")
    case = random_case(rng)
    world = World(case, compose, seed=rng.randrange(1 << 30), relay_class=relay_class,
                  app_checks_sent_at=app_checks_sent_at)
    history, checked, length = [], 0, rng.randint(4, 14)
    for step in range(1, length + 1):
        event = random_event(rng, world, case, profile)
        history.append(event)
        world.apply(event)
        if step < length and rng.random() < profile["unsettled"] and event["do"] in ("create", "read", "device-fails"):
            continue  # not settled: the next event comes while retries are pending
        world.settle()
        world.check()
        checked += 1
        if world.violations:
            break
    return len(history), checked, world.violations, history


_worker = {}


def _run_chunk(job):
    host, port, seed, indices = job
    if "compose" not in _worker:
        _worker["compose"] = ComposeClient(host, port, None, None)
    return [(index, run_sequence(_worker["compose"], seed, index, profile=profile_for(index))) for index in indices]


def run_random(host, port, count, seed, jobs=1, compose=None, relay_class=Relay, app_checks_sent_at=True,
               until_caught=False, profile=None):
    totals = {"sequences": 0, "steps": 0, "checked": 0, "violations": 0, "rules": {}, "first": []}

    def add(index, result):
        steps, checked, violations, history = result
        totals["sequences"] += 1
        totals["steps"] += steps
        totals["checked"] += checked
        totals["violations"] += len(violations)
        for rule, _ in violations:
            totals["rules"][rule] = totals["rules"].get(rule, 0) + 1
        if violations and len(totals["first"]) < 3:
            totals["first"].append((index, history, violations))

    if jobs > 1:
        chunks = [(host, port, seed, list(range(i, count, jobs * 8))) for i in range(jobs * 8)]
        with multiprocessing.Pool(jobs) as pool:
            for results in pool.imap_unordered(_run_chunk, chunks):
                for index, result in results:
                    add(index, result)
        return totals
    for index in range(count):
        add(index, run_sequence(compose, seed, index, relay_class, app_checks_sent_at, profile or profile_for(index)))
        if until_caught and totals["violations"]:
            break
    return totals


def print_first(totals):
    for index, history, violations in totals["first"]:
        print(f"sequence {index}: {violations[:3]}")
        for event in history:
            print(f"    {json.dumps(event, ensure_ascii=False)[:200]}")


# The self-test: broken relays and apps the checker must catch -------------

class NoWithdrawCompose(ComposeClient):
    """A relay that ignores `withdraw` (it never takes anything back)."""

    def post(self, request):
        answer = super().post(request)
        if answer is not None:
            answer["push"]["withdraw"] = []
        return answer


class DropDisplayedCompose(ComposeClient):
    """The old rules simulated: a key already displayed is left out of the
    answer (sent as read), so a replacement covers only the new messages."""

    def post(self, request):
        shown = {e["key"] for e in request["displayed"]}
        for n in request.get("notifications", []):
            if n_key(n) in shown:
                n["read"] = True
        return super().post(request)


class MemoryOutboxRelay(Relay):
    """Keeps its retries in memory only: a restart loses them."""

    def start(self):
        for recipient in self.store.records:
            version, record = self.store.read(recipient)
            record["due"] = None
            for device in record["devices"].values():
                device["outbox"], device["attempt"], device["next"] = [], 0, None
            self.store.write(recipient, version, record)


class StoreWhenDeliveredRelay(Relay):
    """Stores an answer's `displayed` only once every device accepted it (its
    retries stored meanwhile): the next answer starts from a state that one
    device no longer shows."""

    def _store_displayed(self, record, displayed):
        if any(d["outbox"] for d in record["devices"].values()):
            record["pending"] = displayed
        else:
            record["displayed"] = displayed
            record.pop("pending", None)

    def _retried(self, record):
        if "pending" in record and not any(d["outbox"] for d in record["devices"].values()):
            record["displayed"] = record.pop("pending")


class SameTtlRelay(Relay):
    """Retries with the lifetime the answer gave, not what is left of it."""

    def _left(self, transport, entry):
        payload = entry["payload"]
        if transport == "fcm":
            return int(payload["message"]["android"]["ttl"].rstrip("s"))
        if transport == "webpush":
            return int(payload["headers"]["TTL"])
        return 0


class NoTokenReserveRelay(Relay):
    """Leaves no room in `reserveBytes` for the FCM token it adds."""

    def _reserve(self, record):
        return 0


class DefaultSeparatorsRelay(Relay):
    """Writes payloads with Python's default separators (", ", ": ")."""
    write = staticmethod(lambda value: json.dumps(value, ensure_ascii=False).encode("utf-8"))


BROKEN = [  # (name, compose class, relay class, app checks sentAt, at most this many sequences, the events)
    ("ignores withdraw", NoWithdrawCompose, Relay, True, 200, PROFILE),
    ("drops displayed keys (the old C2)", DropDisplayedCompose, Relay, True, 200, PROFILE),
    ("keeps its retries in memory", ComposeClient, MemoryOutboxRelay, True, 400, RESTARTS),
    ("stores displayed only once every device accepted", ComposeClient, StoreWhenDeliveredRelay, True, 400,
     RESTARTS),
    ("retries with the whole TTL", ComposeClient, SameTtlRelay, True, 200, PROFILE),
    ("writes Python's default separators", ComposeClient, DefaultSeparatorsRelay, True, 400, PROFILE),
    ("reserves no bytes for the FCM token", ComposeClient, NoTokenReserveRelay, True, 400, PROFILE),
    ("an app that ignores sentAt", ComposeClient, Relay, False, 400, LATE_WITHDRAWALS),
]


def relay_follows_the_doc():
    """The relay's comments cite every step of docs/relay.md's loop, and no
    step the page does not have, nor a section it does not have."""
    page = (ROOT / "docs" / "relay.md").read_text(encoding="utf-8")
    code = (ROOT / "checks" / "relay" / "relay.py").read_text(encoding="utf-8")
    steps = set(re.findall(r"^(\d+)\. \*\*", page, re.M))
    cited = set(re.findall(r"\bstep (\d+)", code))
    sections = set(re.findall(r"^## (.+)$", page, re.M))
    named = set(re.findall(r'relay\.md "([^"]+)"', code))
    ok = steps == cited and named <= sections and steps == {str(n) for n in range(1, len(steps) + 1)}
    print(f"self-test: relay.py cites steps {sorted(cited, key=int)} and sections {sorted(named)} of docs/relay.md"
          f" (its steps {sorted(steps, key=int)}): {'ok' if ok else 'MISMATCH'}")
    return ok


def self_test(host, port, seed):
    ok = relay_follows_the_doc()
    for name, compose_class, relay_class, checks_sent_at, count, events in BROKEN:
        compose = compose_class(host, port, None, None)
        totals = run_random(host, port, count, seed, 1, compose, relay_class, checks_sent_at, True, events)
        compose.close()
        caught = totals["violations"] > 0
        ok &= caught
        rules = ", ".join(f"{rule} {n}" for rule, n in sorted(totals["rules"].items()))
        print(f"self-test: {name}: {'caught' if caught else 'NOT CAUGHT'} in {totals['sequences']} sequences"
              f" ({rules or 'no violation'})")
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary")
    parser.add_argument("--url", help="a running service, http://127.0.0.1:PORT")
    parser.add_argument("--scenarios", action="store_true")
    parser.add_argument("--random", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("--jobs", type=int, default=2, help="processes for --random (the service is shared)")
    args = parser.parse_args()
    server = None
    if args.binary:
        server = subprocess.Popen([args.binary, "serve", "--host", "127.0.0.1", "--port", "0", "--access-log", "off"],
                                  stdout=subprocess.PIPE, text=True)
        host, port = "127.0.0.1", json.loads(server.stdout.readline())["port"]
    else:
        host, port = args.url.removeprefix("http://").rstrip("/").split(":")
        port = int(port)
    ok = True
    compose = ComposeClient(host, port, None, None)
    try:
        if args.self_test:
            ok &= self_test(host, port, args.seed)
        if args.scenarios:
            ok &= run_scenarios(compose, ROOT / "test-fixtures" / "scenarios.json")
        if args.random:
            began = time.monotonic()
            totals = run_random(host, port, args.random, args.seed, args.jobs, compose)
            print_first(totals)
            print(f"random: {totals['sequences']} sequences (seed {args.seed}), {totals['steps']} steps,"
                  f" {totals['checked']} settled steps checked, {totals['violations']} violations,"
                  f" {time.monotonic() - began:.1f} s")
            ok &= totals["violations"] == 0
    finally:
        compose.close()
        if server is not None:
            server.terminate()
            server.wait(timeout=15)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
