"""The relay check's self-test: deliberately broken relays and apps (each must be caught by the
random sequences of the realistic model), among them one for each of issue 41's "What goes wrong"
1 to 5 and an Android app that does not coalesce; and relay.py's comments against docs/relay.md's
steps and sections."""
from __future__ import annotations

import json
import re

from model import key_of
from random_runs import LATE, PROFILE, REALISTIC, RESTARTS, STALE_BADGE, profile, run_random
from relay import ComposeClient, Relay, classify, new_device
from world import ROOT


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
            if key_of(n) in shown:
                n["read"] = True
        return super().post(request)


class MemoryOutboxRelay(Relay):
    """Keeps its outboxes in memory only: a restart loses them."""

    def start(self):
        for recipient in self.store.records:
            version, record = self.store.read(recipient)
            for device in record["devices"].values():
                device["outbox"], device["attempt"], device["next"] = [], 0, None
            self.store.write(recipient, version, record)
        super().start()


class StoreWhenDeliveredRelay(Relay):
    """Keeps the old `displayed` until every device accepted the answer's
    payloads (ADR 0035): the next answer starts from a state that one device
    no longer shows."""

    def _store_displayed(self, record, displayed):
        if any(d["outbox"] for d in record["devices"].values()):
            record["pending"] = displayed
        else:
            record["displayed"] = displayed
            record.pop("pending", None)

    def _answered(self, record, device_id, entry, outcome, wait):
        super()._answered(record, device_id, entry, outcome, wait)
        if "pending" in record and not any(d["outbox"] for d in record["devices"].values()):
            record["displayed"] = record.pop("pending")


class SendBeforeStoreRelay(Relay):
    """Issue 41, 3: sends what it planned from memory, then stores (the old
    steps 6 to 8): a crash between the send and the store leaves the devices
    showing what `displayed` never records."""

    def _commit(self, recipient, version, record):
        for device in record["devices"].values():
            for entry in list(device["outbox"]):
                status, headers, body = self._send(device, entry)
                self.crash("after-send")
                if classify(device["transport"], status, headers, body)[0] != "accepted":
                    break
                device["outbox"].remove(entry)
        return self.store.write(recipient, version, record)


class MemoryRefreshRelay(Relay):
    """Issue 41, 4: keeps a setting change's refresh in memory only: the loop
    it was for loses it when its fetch fails, its compose is given up or the
    relay restarts."""

    def event(self, recipient, refresh=False, settings=None, device=None):
        while True:
            version, record = self.store.read(recipient)
            due = record["due"]
            record["due"] = {"at": self.clock.now(), "attempt": due["attempt"] if due else 0}
            if settings:
                record["settings"].update(settings)
            if device is not None:
                record["devices"][device["id"]] = new_device(device)
            if self.store.write(recipient, version, record):
                break
        self.loop(recipient, refresh=refresh)


class OldOutboxRelay(Relay):
    """Issue 41, 5: the device's badge is the one a push service last
    accepted (not the newest queued), and a new payload supersedes only the
    queued alerts of its groups, whatever their stamps."""

    def _enqueue(self, device, entry):
        groups = {entry["group"]} if entry["message"] == "alert" else set(entry["groups"])
        device["outbox"][:] = [e for e in device["outbox"] if e["message"] != "alert" or e["group"] not in groups]
        device["outbox"].append(entry)

    def _accepted(self, device, entry):
        if entry["badge"] is not None:
            device["badge"] = entry["badge"]


class DropOlderRelay(Relay):
    """An outbox where every payload of a successful fetch (a withdrawal, or
    an alert that is not a fallback) drops every older queued payload: a
    badge-only withdrawal drops the alert of the group its answer keeps, and
    an alert drops a withdrawal that a later withdrawal of its own group
    would then not replace."""

    def _enqueue(self, device, entry):
        outbox = device["outbox"]
        if entry["message"] == "alert":
            outbox[:] = [e for e in outbox if e["message"] != "alert" or e["group"] != entry["group"]]
        if entry["fetchOk"] and (entry["message"] == "withdrawal" or entry["kind"] != "fallback"):
            outbox[:] = [e for e in outbox if e["stamp"] >= entry["stamp"]]
        outbox.append(entry)
        if entry["badge"] is not None:
            device["badge"] = entry["badge"]


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


ALL = {"apns": None, "fcm": None, "webpush": None}
BURST = profile(0.95, create=80, read=15, time=1)  # messages faster than Android's 5 updates a second
FAST = dict(REALISTIC, latency=[0, 0.3])
CRASHES = profile(0.5, crash=20, **{"device-fails": 10})
SETTINGS = profile(0.3, preview=15, locale=15, **{"fetch-fails": 15, "compose-unavailable": 8})

BROKEN = [  # (name, compose class, relay class, the device platform per transport, at most this many sequences,
    # events[, the network])
    ("1: a device comparing its posting time with the withdrawal's instant (sentAt)", ComposeClient, Relay,
     {"apns": "old-sentAt", "fcm": "old-sentAt", "webpush": "old-sentAt"}, 300, LATE),
    ("2: a device without the stamp check of a group's alerts", ComposeClient, Relay,
     {"apns": "old-no-group-stamp", "fcm": "old-no-group-stamp", "webpush": "old-no-group-stamp"}, 400, LATE),
    ("3: a relay that sends before it stores", ComposeClient, SendBeforeStoreRelay, None, 400, CRASHES),
    ("4: a relay that keeps a refresh in memory only", ComposeClient, MemoryRefreshRelay, None, 400, SETTINGS),
    ("5: a relay whose outbox ignores stamps and takes the accepted badge", ComposeClient, OldOutboxRelay, None, 600,
     STALE_BADGE),
    ("an Android app that does not coalesce its posts", ComposeClient, Relay,
     {"fcm": "android-uncoalesced", "apns": "android-uncoalesced", "webpush": "android-uncoalesced"}, 300, BURST,
     FAST),
    ("a withdrawal that removes every older notification, whatever its group", ComposeClient, Relay,
     {"apns": "withdraw-all", "fcm": "withdraw-all", "webpush": "withdraw-all"}, 300, PROFILE),
    ("an outbox where a successful fetch's payload drops every older one", ComposeClient, DropOlderRelay, None, 600,
     STALE_BADGE),
    ("ignores withdraw", NoWithdrawCompose, Relay, None, 200, PROFILE),
    ("drops displayed keys (the old C2)", DropDisplayedCompose, Relay, None, 200, PROFILE),
    ("keeps its outboxes in memory", ComposeClient, MemoryOutboxRelay, None, 400, RESTARTS),
    ("stores displayed only once every device accepted", ComposeClient, StoreWhenDeliveredRelay, None, 400, RESTARTS),
    ("retries with the whole TTL", ComposeClient, SameTtlRelay, None, 200, PROFILE),
    ("writes Python's default separators", ComposeClient, DefaultSeparatorsRelay, None, 400, PROFILE),
    ("reserves no bytes for the FCM token", ComposeClient, NoTokenReserveRelay, None, 400, PROFILE),
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
    for name, compose_class, relay_class, platforms, count, events, *realistic in BROKEN:
        compose = compose_class(host, port, None, None)
        totals = run_random(host, port, count, seed, 1, compose, relay_class, platforms, True, events,
                            *(realistic or [REALISTIC]))
        compose.close()
        caught = totals["violations"] > 0
        ok &= caught
        rules = ", ".join(f"{rule} {n}" for rule, n in sorted(totals["rules"].items()))
        print(f"self-test: {name}: {'caught' if caught else 'NOT CAUGHT'} in {totals['sequences']} sequences"
              f" ({rules or 'no violation'})")
    return ok
