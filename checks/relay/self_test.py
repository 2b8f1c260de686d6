"""The relay check's self-test: deliberately broken relays and apps (each must be caught by the
random sequences) and relay.py's comments against docs/relay.md's steps and sections."""
from __future__ import annotations

import json
import re

from model import key_of
from random_runs import LATE_WITHDRAWALS, PROFILE, RESTARTS, run_random
from relay import ComposeClient, Relay
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
