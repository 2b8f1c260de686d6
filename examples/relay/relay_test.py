"""examples/relay/relay.py against the service's POST /relay (or with `--core
host` the relay's WebAssembly module through the Python host), fake push
services and a model of each device that applies payloads by the rule of
docs/spec/screen.md section 2 (stamps, not arrival). For each sequence the
devices must end showing exactly the groups of the stored `displayed`, with
the badge the unread count.

    python3 examples/relay/relay_test.py --binary .build/debug/notification-text
    python3 examples/relay/relay_test.py --core host   # wasm/python installed, or beside it after `make wasm`
"""
import argparse
import json
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from relay import Relay, Store, host_core, http_core  # noqa: E402

NOON = datetime(2026, 11, 29, 12, tzinfo=timezone.utc).timestamp()
DEVICES = [
    {"id": "phone", "transport": "apns", "token": "a1b2" * 16, "topic": "chat.example.app"},
    {"id": "pixel", "transport": "fcm", "token": "f" * 163},
    {"id": "laptop", "transport": "webpush", "token": "https://push.example/sub/1"},
]


class Crash(BaseException):
    """The relay process dies here."""


class Screen:
    """screen.md section 2: a map of group -> stamp, seen[G], the floor (set by an alert of a
    successful fetch), the badge's stamp."""
    def __init__(self):
        self.shown, self.seen, self.floor, self.badge, self.badge_stamp = {}, {}, -1, None, -1

    def take_badge(self, badge, stamp):
        if badge is not None and stamp > self.badge_stamp:
            self.badge, self.badge_stamp = int(badge), stamp

    def alert(self, group, stamp, fallback, badge):
        if stamp <= self.seen.get(group, -1) or stamp < self.floor:
            return
        self.seen[group] = stamp
        if not fallback:
            self.shown = {g: s for g, s in self.shown.items() if s >= stamp}
            self.floor = max(self.floor, stamp)
        self.shown[group] = stamp
        self.take_badge(badge, stamp)

    def withdrawal(self, groups, stamp, badge):
        """Removes the older notifications of its groups; leaves the others and the floor."""
        self.shown = {g: s for g, s in self.shown.items() if g not in groups or s >= stamp}
        for group in groups:
            self.seen[group] = max(self.seen.get(group, -1), stamp)
        self.take_badge(badge, stamp)

    def apply(self, send):
        body, headers = json.loads(send["body"]), send["headers"]
        if send["transport"] == "apns":
            if "withdraw" in body:
                return self.withdrawal(body["withdraw"], body["stamp"], body.get("badge"))
            group = headers["apns-collapse-id"]
            return self.alert(group, body["stamp"], group == "fallback", body["aps"].get("badge"))
        if send["transport"] == "fcm":
            data = body["message"]["data"]
            if "withdraw" in data:
                return self.withdrawal(data["withdraw"].split(), int(data["stamp"]), data.get("badge"))
            return self.alert(data["tag"], int(data["stamp"]), data["kind"] == "fallback", data.get("badge"))
        assert "withdraw" not in body, "a Web Push withdrawal was sent"
        self.alert(body["tag"], body["stamp"], body["kind"] == "fallback", body.get("appBadge", body.get("badge")))


class World:
    """The backend, a clock, the push services (what they accepted waits in `network`) and the devices."""
    def __init__(self, core):
        self.now, self.messages, self.network = NOON, [], []
        self.screens = {device["id"]: Screen() for device in DEVICES}
        self.answers = []  # scripted (status, reason, retry_after, token_invalid) for the next sends
        self.crash_next_send = False
        self.core = core
        self.relay = self.new_relay(Store())

    def new_relay(self, store):
        return Relay(core=self.core, fetch=self.fetch, store=store, clock=lambda: self.now, jitter=lambda: 0.5,
                     push={transport: self.push for transport in ("apns", "fcm", "webpush")})

    def stamp(self, seconds_ago=0):
        return datetime.fromtimestamp(self.now - seconds_ago, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

    def fetch(self, recipient, now_ms):
        newest = sorted(self.messages, key=lambda m: m["timestamp"], reverse=True)
        return newest, sum(1 for m in self.messages if not m["read"])

    def push(self, send):
        if self.crash_next_send:
            self.crash_next_send = False
            raise Crash()
        answer = self.answers.pop(0) if self.answers else (201 if send["transport"] == "webpush" else 200,)
        if answer[0] in (200, 201):
            self.network.append(send)
        return (answer + (None, None, False))[:4]

    def create(self, id, thread):
        self.messages.append({"id": id, "source": "chat", "type": "message", "timestamp": self.stamp(),
                              "thread": thread, "threadTitle": thread.upper(), "read": False,
                              "sender": {"id": "ana", "name": "Ana"}, "text": f"message {id}"})
        self.relay.event("u1", {"type": "created"}, settings={"locale": "en", "preview": "full"})

    def read(self, id):
        next(m for m in self.messages if m["id"] == id)["read"] = True
        self.relay.event("u1", {"type": "read"})

    def deliver(self, order=None):
        """Delivers what the push services hold, oldest first or in `order` (indices)."""
        held, self.network = self.network, []
        for index in (order if order is not None else range(len(held))):
            self.screens[held[index]["device"]].apply(held[index])

    def check(self, name):
        record = self.relay.store.read("u1")[1]
        groups = {entry["group"] for entry in record["displayed"] if entry["group"] is not None}
        unread = sum(1 for m in self.messages if not m["read"])
        failures = []
        for device in record["devices"]:
            screen = self.screens[device["id"]]
            if device["outbox"]:
                failures.append(f"{device['id']}: outbox not empty")
            if set(screen.shown) != groups:
                failures.append(f"{device['id']}: shows {sorted(screen.shown)}, displayed {sorted(groups)}")
            if device["transport"] != "webpush" and screen.badge != unread:
                failures.append(f"{device['id']}: badge {screen.badge}, unread {unread}")
        print(("ok   " if not failures else "FAIL ") + name + "".join("\n  " + f for f in failures))
        return not failures


def late_alert(world):
    """Message 1's single arrives after message 2's summary withdrew it."""
    world.create("1", "t1")
    first = world.network
    world.network = []
    world.now += 0.4
    world.create("2", "t2")
    world.deliver()
    world.network = first
    world.deliver()
    return world.check("late alert: the single that arrives after the summary is ignored")


def crash_between_store_and_send(world):
    """The loop stored its plan, the process died before the first send, a new one starts."""
    world.crash_next_send = True
    try:
        world.create("1", "t1")
    except Crash:
        pass
    world.relay = world.new_relay(world.relay.store)
    world.now += 1
    world.relay.start()
    world.deliver()
    return world.check("crash between store and send: the outboxes resume from the store")


def badge(world):
    """A badge-0 withdrawal refused (429) waits in the outbox; a newer alert (badge 1) queues behind
    it, so the device applies both in stamp order and ends with 1."""
    world.create("1", "t1")
    world.deliver()
    world.answers = [(429, "TooManyRequests", None, False), (429, None, None, False)]
    world.now += 1
    world.read("1")
    world.now += 1
    world.create("2", "t2")
    world.now += 61
    world.relay.tick()
    world.deliver()
    return world.check("badge: a retried withdrawal never overwrites a newer alert's badge")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", help="notification-text, started with serve on a free port")
    parser.add_argument("--url", help="a running service, http://127.0.0.1:PORT")
    parser.add_argument("--core", choices=("http", "host"), default="http", help="the door to the core")
    args = parser.parse_args()
    server = None
    if args.core == "host":
        try:
            import notification_text  # noqa: F401  (installed: that one)
        except ImportError:
            sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "wasm" / "python"))
    elif args.binary:
        server = subprocess.Popen([args.binary, "serve", "--host", "127.0.0.1", "--port", "0", "--access-log", "off"],
                                  stdout=subprocess.PIPE, text=True)
        args.url = "http://127.0.0.1:%d" % json.loads(server.stdout.readline())["port"]
    ok = True
    try:
        for sequence in (late_alert, crash_between_store_and_send, badge):
            world = World(host_core() if args.core == "host" else http_core(args.url))
            for device in DEVICES:
                world.relay.event("u1", {"type": "register", "device": device},
                                  settings={"locale": "en", "preview": "full"})
            ok &= sequence(world)
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=15)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
