"""The relay check's self-test: deliberately broken relays and apps (each must be caught by the
random sequences of the realistic model), among them one for each of issue 41's "What goes wrong"
1 to 5 and an Android app that does not coalesce; and examples/relay/relay.py against docs/relay.md
(its comments cite every step of the loop) and its budget of IO lines.

The relay is always examples/relay/relay.py. A broken relay is a `CoreTap` that breaks what the core
answers or what the relay stores (as a relay that made that decision itself would), or sends before
it stores; a broken app is a device class of devices.py."""
from __future__ import annotations

import ast
import io
import json
import multiprocessing
import re
import tokenize

from model import key_of
from random_runs import LATE, PROFILE, REALISTIC, RESTARTS, STALE_BADGE, profile, run_random
from relay import EXAMPLE, CoreTap, core_for
from world import ROOT, note_of

MAX_IO_LINES = 120  # issue 41: a relay in Python doing only IO around the core


def compact(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def withdrawn(transport, entry):
    """The groups a queued withdrawal names."""
    if transport == "apns":
        return set(entry["payload"]["withdraw"])
    if transport == "fcm":
        return set(entry["payload"]["data"]["withdraw"].split())
    return set()


def entry_badge(transport, entry):
    payload = entry["payload"]
    if transport == "apns":
        badge = payload.get("badge", payload.get("aps", {}).get("badge"))
    elif transport == "fcm":
        badge = payload["data"].get("badge")
    else:
        badge = payload.get("appBadge")
    return None if badge is None else int(badge)


class ResentTap(CoreTap):
    """A tap that changes a loop's outboxes: the sends are asked again of the core (`wake`)."""

    def resend(self, request, answer):
        woken = self.call({"do": "wake", "record": answer["record"], "now": request["now"]})
        return dict(answer, record=woken["record"], sends=woken["sends"], wakeAt=woken["wakeAt"])


class NoWithdrawTap(ResentTap):
    """A relay that ignores `withdraw` (it never takes anything back)."""

    def answer(self, request, answer):
        if request["do"] != "loop":
            return answer
        stamp = answer["record"]["stamp"]
        for device in answer["record"]["devices"]:
            device["outbox"] = [e for e in device["outbox"] if e["kind"] != "withdrawal" or e["stamp"] != stamp]
        if "push" in answer["answer"]:
            answer["answer"]["push"]["withdraw"] = []
        return self.resend(request, answer)


class DropDisplayedTap(CoreTap):
    """The old rules simulated: a key already displayed is left out of the
    answer (sent as read), so a replacement covers only the new messages."""

    def request(self, request):
        if request["do"] == "loop" and "notifications" in request:
            shown = {e["key"] for e in request["record"]["displayed"]}
            request = dict(request, notifications=[dict(n, read=True) if key_of(n) in shown else n
                                                   for n in request["notifications"]])
        return request


class MemoryOutboxTap(CoreTap):
    """Keeps its outboxes in memory only: a restart loses them."""

    def restarted(self):
        super().restarted()
        store = self.world.store
        for recipient in store.recipients():
            version, record = store.read(recipient)
            for device in record["devices"]:
                device["outbox"], device["attempt"], device["next"] = [], 0, None
            store.write(recipient, version, record)


class StoreWhenDeliveredTap(CoreTap):
    """Keeps the old `displayed` until every device accepted the answer's
    payloads (ADR 0035): the next answer starts from a state that one device
    no longer shows."""
    waiting = None  # the newer displayed, kept beside the record

    def answer(self, request, answer):
        record = answer.get("record")
        if record is None:
            return answer
        busy = any(d["outbox"] for d in record["devices"])
        if request["do"] == "loop" and busy:
            self.waiting, record["displayed"] = record["displayed"], request["record"]["displayed"]
        elif request["do"] == "loop":
            self.waiting = None
        elif self.waiting is not None and not busy:
            record["displayed"], self.waiting = self.waiting, None
        return answer


class SendBeforeStoreTap(CoreTap):
    """Issue 41, 3: sends the loop's payloads before it stores them (the old
    steps 6 to 8): a crash between the send and the store leaves the devices
    showing what `displayed` never records."""

    def before_write(self, recipient, record):
        if self.pending is None or self.pending[1]["record"] is not record:
            return
        request, answer = self.pending
        if "push" in answer["answer"]:
            self.world.notes[answer["answer"]["push"]["stamp"]] = note_of(request, answer)
        for send in answer["sends"]:
            self.world.relay.push[send["transport"]](send)


class MemoryRefreshTap(CoreTap):
    """Issue 41, 4: keeps a setting change's refresh in memory only: the loop
    it was for loses it when its fetch fails, its compose is given up or the
    relay restarts."""
    refresh = False

    def request(self, request):
        if request["do"] == "loop" and self.refresh:
            self.refresh = False
            request = dict(request, record=dict(request["record"], refresh=True))
        return request

    def answer(self, request, answer):
        record = answer.get("record")
        if record is not None and record["refresh"]:
            self.refresh |= request["do"] == "event"
            record["refresh"] = False
        return answer

    def restarted(self):
        super().restarted()
        self.refresh = False


class OutboxTap(ResentTap):
    """A relay that plans a loop's payloads into the outboxes by its own
    `enqueue` (on the outboxes as they were before the loop)."""

    def answer(self, request, answer):
        if request["do"] != "loop":
            return answer
        before = {d["id"]: d for d in request["record"]["devices"]}
        stamp, fetched = answer["record"]["stamp"], request["fetch"] == "ok"
        for device in answer["record"]["devices"]:
            new = [e for e in device["outbox"] if e["stamp"] == stamp]
            old = before.get(device["id"])
            if not new or old is None:
                continue
            outbox = list(old["outbox"])
            for entry in new:
                self.enqueue(device["transport"], outbox, entry, fetched)
            device["outbox"] = outbox
            self.planned(device, old)
        return self.resend(request, answer)

    def planned(self, device, old):
        """The device's badge after the plan: the core's (the newest payload's)."""


class OldOutboxTap(OutboxTap):
    """Issue 41, 5: the device's badge is the one a push service last
    accepted (not the newest queued), and a new payload supersedes only the
    queued alerts of its groups, whatever their stamps."""

    @staticmethod
    def enqueue(transport, outbox, entry, fetched):
        groups = {entry["group"]} if entry["kind"] == "alert" else withdrawn(transport, entry)
        outbox[:] = [e for e in outbox if e["kind"] != "alert" or e["group"] not in groups]
        outbox.append(entry)

    def planned(self, device, old):
        device["badge"] = old["badge"]

    def answer(self, request, answer):
        if request["do"] == "answer" and answer["outcome"] == "accepted":
            device = next((d for d in request["record"]["devices"] if d["id"] == request["device"]), None)
            entry = next((e for e in (device or {"outbox": []})["outbox"] if e["stamp"] == request["stamp"]), None)
            badge = None if entry is None else entry_badge(device["transport"], entry)
            for d in answer["record"]["devices"]:
                if d["id"] == request["device"]:
                    d["badge"] = badge if badge is not None else d["badge"]
        return super().answer(request, answer)


class DropOlderTap(OutboxTap):
    """An outbox where every payload of a successful fetch (a withdrawal, or
    an alert that is not a fallback) drops every older queued payload: a
    badge-only withdrawal drops the alert of the group its answer keeps, and
    an alert drops a withdrawal that a later withdrawal of its own group
    would then not replace."""

    @staticmethod
    def enqueue(transport, outbox, entry, fetched):
        if entry["kind"] == "alert":
            outbox[:] = [e for e in outbox if e["kind"] != "alert" or e["group"] != entry["group"]]
        if fetched and (entry["kind"] == "withdrawal" or not entry["fallback"]):
            outbox[:] = [e for e in outbox if e["stamp"] >= entry["stamp"]]
        outbox.append(entry)


class SendsTap(CoreTap):
    """A relay that rewrites each send's body (`rewrite(send, entry)`, the entry its outbox holds)."""

    def answer(self, request, answer):
        devices = {d["id"]: d for d in answer.get("record", {}).get("devices", [])}
        for send in answer.get("sends", []):
            entry = next(e for e in devices[send["device"]]["outbox"] if e["stamp"] == send["stamp"])
            self.rewrite(send, entry)
        return answer


class SameTtlTap(SendsTap):
    """Retries with the lifetime the answer gave, not what is left of it."""

    @staticmethod
    def rewrite(send, entry):
        if send["transport"] == "fcm":
            body = json.loads(send["body"])
            body["message"]["android"]["ttl"] = entry["payload"]["android"]["ttl"]
            send["body"] = compact(body)
        elif send["transport"] == "webpush":
            send["headers"]["TTL"] = entry["headers"]["TTL"]


class DefaultSeparatorsTap(SendsTap):
    """Writes payloads with Python's default separators (", ", ": ")."""

    @staticmethod
    def rewrite(send, entry):
        send["body"] = json.dumps(json.loads(send["body"]), ensure_ascii=False)


class NoTokenReserveTap(CoreTap):
    """Leaves no room in `reserveBytes` for the FCM token it adds (the core
    is told of no FCM token when it composes)."""
    tokens = {}  # device → its token, of the loop under way

    def request(self, request):
        if request["do"] == "loop":
            self.tokens = {d["id"]: d["token"] for d in request["record"]["devices"]}
            devices = [dict(d, token="") if d["transport"] == "fcm" else d for d in request["record"]["devices"]]
            request = dict(request, record=dict(request["record"], devices=devices))
        return request

    def answer(self, request, answer):
        if request["do"] != "loop":
            return answer
        for device in answer["record"]["devices"]:
            device["token"] = self.tokens.get(device["id"], device["token"])
        for send in answer["sends"]:
            if send["transport"] == "fcm":
                body = json.loads(send["body"])
                body["message"]["token"] = send["token"] = self.tokens[send["device"]]
                send["body"] = compact(body)
        return answer


BURST = profile(0.95, create=80, read=15, time=1)  # messages faster than Android's 5 updates a second
FAST = dict(REALISTIC, latency=[0, 0.3])
CRASHES = profile(0.5, crash=20, **{"device-fails": 10})
SETTINGS = profile(0.3, preview=15, locale=15, **{"fetch-fails": 15, "compose-unavailable": 8})


class NoDigestTap(CoreTap):
    """A relay that stores `displayed` without the entries' digests (compose.md C15): an edit never
    reaches the device (I8)."""

    def request(self, request):
        if request["do"] == "loop":
            record = dict(request["record"], displayed=[{k: v for k, v in e.items() if k != "digest"}
                                                        for e in request["record"]["displayed"]])
            request = dict(request, record=record)
        return request


class NoWindowTap(CoreTap):
    """A relay that drops the entries' `alerted`: every new message of a burst alerts (I9)."""

    def request(self, request):
        if request["do"] == "loop":
            record = dict(request["record"], displayed=[{k: v for k, v in e.items() if k != "alerted"}
                                                        for e in request["record"]["displayed"]])
            request = dict(request, record=record)
        return request


class NoActivityTap(CoreTap):
    """A relay that forgets the recipient's activity elsewhere: alerts while active (I10)."""

    def request(self, request):
        if request["do"] == "loop" and "activeUntil" in request["record"]:
            request = dict(request, record={k: v for k, v in request["record"].items() if k != "activeUntil"})
        return request


def every(platform):
    return {"apns": platform, "fcm": platform, "webpush": platform}


BROKEN = [  # (name, the core's tap, the device platform per transport, at most this many sequences, events[,
    # the network])
    ("1: a device comparing its posting time with the withdrawal's instant (sentAt)", CoreTap, every("old-sentAt"),
     300, LATE),
    ("2: a device without the stamp check of a group's alerts", CoreTap, every("old-no-group-stamp"), 400, LATE),
    ("3: a relay that sends before it stores", SendBeforeStoreTap, None, 400, CRASHES),
    ("4: a relay that keeps a refresh in memory only", MemoryRefreshTap, None, 400, SETTINGS),
    ("5: a relay whose outbox ignores stamps and takes the accepted badge", OldOutboxTap, None, 600, STALE_BADGE),
    ("an Android app that does not coalesce its posts", CoreTap, every("android-uncoalesced"), 300, BURST, FAST),
    ("a withdrawal that removes every older notification, whatever its group", CoreTap, every("withdraw-all"), 300,
     PROFILE),
    ("an outbox where a successful fetch's payload drops every older one", DropOlderTap, None, 600, STALE_BADGE),
    ("ignores withdraw", NoWithdrawTap, None, 200, PROFILE),
    ("drops displayed keys (the old C2)", DropDisplayedTap, None, 200, PROFILE),
    ("keeps its outboxes in memory", MemoryOutboxTap, None, 400, RESTARTS),
    ("stores displayed only once every device accepted", StoreWhenDeliveredTap, None, 400, RESTARTS),
    ("retries with the whole TTL", SameTtlTap, None, 200, PROFILE),
    ("writes Python's default separators", DefaultSeparatorsTap, None, 400, PROFILE),
    ("reserves no bytes for the FCM token", NoTokenReserveTap, None, 400, PROFILE),
    ("stores no text digests (edits never sent)", NoDigestTap, None, 300, profile(0.3, edit=40)),
    ("forgets when a group alerted (every message of a burst alerts)", NoWindowTap, None, 300,
     profile(0.3, create=80, time=2)),
    ("forgets the recipient's activity elsewhere", NoActivityTap, None, 300, profile(0.3, active=25, create=60)),
]


def io_lines(source):
    """The lines of Python code: neither blank, nor a comment, nor a docstring."""
    docstrings = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                docstrings.update(range(first.lineno, first.end_lineno + 1))
    code = set()
    skipped = (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER)
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in skipped:
            code.update(range(token.start[0], token.end[0] + 1))
    return len(code - docstrings)


def relay_follows_the_doc():
    """The example relay's comments cite every step of docs/relay.md's loop
    ("step 3", "steps 4-6"), no step the page does not have, nor a section
    it does not have; and its IO is at most MAX_IO_LINES lines of code."""
    page = (ROOT / "docs" / "relay.md").read_text(encoding="utf-8")
    code = EXAMPLE.read_text(encoding="utf-8")
    steps = set(re.findall(r"^(\d+)\. \*\*", page, re.M))
    cited = set()
    for first, last in re.findall(r"\bsteps? (\d+)(?:-(\d+))?", code):
        cited.update(str(n) for n in range(int(first), int(last or first) + 1))
    sections = set(re.findall(r"^## (.+)$", page, re.M))
    named = set(re.findall(r'relay\.md "([^"]+)"', code))
    lines = io_lines(code)
    ok = steps == cited and named <= sections and steps == {str(n) for n in range(1, len(steps) + 1)}
    print(f"self-test: examples/relay/relay.py cites steps {sorted(cited, key=int)} and sections {sorted(named)} of"
          f" docs/relay.md (its steps {sorted(steps, key=int)}): {'ok' if ok else 'MISMATCH'}")
    print(f"self-test: examples/relay/relay.py has {lines} lines of code (at most {MAX_IO_LINES}):"
          f" {'ok' if lines <= MAX_IO_LINES else 'TOO MANY'}")
    return ok and lines <= MAX_IO_LINES


def run_broken(job):
    """One broken relay or app of BROKEN through its random sequences until the checker catches it."""
    door, seed, index = job
    name, tap, platforms, count, events, *realistic = BROKEN[index]
    totals = run_random(door, count, seed, 1, core_for(door), tap, platforms, True, events,
                        *(realistic or [REALISTIC]))
    return name, totals


def self_test(door, seed, jobs=2):
    ok = relay_follows_the_doc()
    with multiprocessing.Pool(jobs) as pool:
        for name, totals in pool.imap(run_broken, [(door, seed, index) for index in range(len(BROKEN))]):
            caught = totals["violations"] > 0
            ok &= caught
            rules = ", ".join(f"{rule} {n}" for rule, n in sorted(totals["rules"].items()))
            print(f"self-test: {name}: {'caught' if caught else 'NOT CAUGHT'} in {totals['sequences']} sequences"
                  f" ({rules or 'no violation'})")
    return ok
