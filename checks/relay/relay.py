"""The reference relay: docs/relay.md, step by step, in Python's standard library.

Every step of docs/relay.md is marked here by its number ("step 4": 1 the
lock, 2 reading the record and the clock, 3 the fetch, 4 the compose, 5 the
plan into each device's outbox, 6 the store, 7 the sends; then the lock is
released). The relay
talks to four things it is given: a store (its database), a backend (the
app's notifications), the compose service (HTTP), and one client per push
transport. In checks/relay/model.py they are a model's fakes with a clock the
test controls; the relay itself does not know.

The relay is a transactional outbox: every event first records that the
loop is due (one compare-and-set write); the loop composes, plans each
device's payloads into its stored outbox, stores the answer's `displayed`,
the stamp, the pending refresh and every outbox in one write, and only then
sends from the store, per device in stamp order. A crash anywhere leaves
the record to resume from ("Starting"); the model crashes it at each of
`CRASH_POINTS`.

Each transport payload carries, besides what it sends, a `note` (the answer's
`kind` and `shown`, the request's locale and preview): the model's devices
use it to know which messages a notification covers and in which tier and
language it was composed. A real push service never sees it, and nothing
here decides anything by it.
"""
from __future__ import annotations

import copy
import http.client
import json
import socket
import threading
from datetime import datetime, timezone

CRASH_POINTS = ("after-fetch", "after-compose", "after-store", "between-devices", "after-send")
MAX_BACKOFF_MS = 60_000  # relay.md "Retries": doubling up to 60 s
WITHDRAWAL_SECONDS = 86_400  # push.md P21: a withdrawal lives a day


def write_json(value) -> bytes:
    """push.md P19/P20: compact, raw UTF-8, only JSON's own escapes (relay.md step 7)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def rfc3339(ms: int) -> str:
    moment = datetime.fromtimestamp(ms / 1000, tz=timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


class Store:
    """The relay's database: one record per recipient, with a version for
    compare-and-set (relay.md "State", step 1). Records are copied in and out,
    as a database would."""

    def __init__(self):
        self.records = {}

    def read(self, recipient):
        version, record = self.records[recipient]
        return version, copy.deepcopy(record)

    def write(self, recipient, version, record) -> bool:
        if self.records.get(recipient, (0, None))[0] != version:
            return False
        self.records[recipient] = (version + 1, copy.deepcopy(record))
        return True

    def create(self, recipient, settings, devices):
        self.records[recipient] = (0, {
            "displayed": [], "stamp": 0, "settings": dict(settings), "refresh": False, "due": None,
            "devices": {d["id"]: new_device(d) for d in devices}})


def new_device(d):
    """A device's stored part: its transport and token, the badge of the
    newest payload queued or accepted for it, its outbox and retry state."""
    return {"transport": d["transport"], "token": d["token"], "topic": d.get("topic"), "badge": None,
            "outbox": [], "attempt": 0, "next": None}


class ComposeClient:
    """POST /compose with relay.md step 4's timeout and retry rule."""

    def __init__(self, host, port, clock, log):
        self.host, self.port, self.clock, self.log = host, port, clock, log
        self.connection = None  # kept alive across requests
        self.unavailable = 0  # the model's fault: answer this many calls 503 without asking the service
        self.refused = False

    def post(self, request: dict):
        """The answer, or None when this round is given up (step 4), or refused
        (a 400: `refused` is then true)."""
        self.refused = False
        for attempt in (1, 2):
            status, retry_after, answer = self._post_once(request)
            if status == 200:
                return answer
            if status is not None and 400 <= status < 500:  # a bug in what the relay sent: log its code only
                self.log.append(("compose", status, answer.get("code")))
                self.refused = True
                return None
            if attempt == 1:  # 503 too-many-connections, a 500, a timeout: once more, on a new connection,
                self.close()  # after Retry-After or 200 ms
                self.clock.sleep(retry_after * 1000 if retry_after is not None else 200)
        return None

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def _post_once(self, request):
        self.clock.advance(1)  # every request a relay makes takes a millisecond of the model's clock
        if self.unavailable > 0:
            self.unavailable -= 1
            return 503, 1, {"code": "too-many-connections"}
        body = write_json(request)
        try:
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=10)
                self.connection.connect()
                self.connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.connection.request("POST", "/compose", body, {"Content-Type": "application/json"})
            response = self.connection.getresponse()
            data = response.read()
            if response.getheader("Connection", "").lower() == "close":
                self.connection.close()
                self.connection = None
            retry_after = response.getheader("Retry-After")
            return response.status, int(retry_after) if retry_after else None, json.loads(data)
        except (OSError, http.client.HTTPException):
            if self.connection is not None:
                self.connection.close()
            self.connection = None
            return None, None, None


def classify(transport, status, headers, body):
    """relay.md "What each push service answers": accepted, gone, transient
    (with the wait a Retry-After or a 429 asks for), or a relay bug."""
    retry_after = headers.get("Retry-After")
    wait = int(retry_after) * 1000 if retry_after is not None else None
    if status in (200, 201):
        return "accepted", None
    if status is None:  # a timeout: the push service may have accepted it (the device ignores a duplicate)
        return "transient", None
    reason = body.get("reason") if transport == "apns" else body.get("error", {}).get("status")
    if status == 429:  # APNs: at least 60 s; FCM: Retry-After, else 60 s; Web Push: Retry-After
        if transport == "apns":
            return "transient", max(wait or 0, 60_000)
        return "transient", wait if wait is not None or transport == "webpush" else 60_000
    if status >= 500:
        return "transient", wait
    if (transport == "apns" and (status == 410 or reason == "BadDeviceToken")) or \
            (transport == "fcm" and reason in ("UNREGISTERED", "SENDER_ID_MISMATCH")) or \
            (transport == "webpush" and status in (404, 410)):
        return "gone", None
    return "bug", None


class Relay:
    def __init__(self, store, backend, compose, transports, clock, scheduler, rng, config, log):
        self.store, self.backend, self.compose, self.transports = store, backend, compose, transports
        self.clock, self.scheduler, self.rng, self.config, self.log = clock, scheduler, rng, config, log
        self.locks = {}
        self.crash = lambda point: None  # the model's: raises where the process is to die

    # relay.md "Starting": the stored loops due and outboxes are scheduled again.
    def start(self):
        for recipient, (_, record) in self.store.records.items():
            if record["due"] is not None:
                self._arm_loop(recipient, record["due"]["at"])
            for device_id, device in record["devices"].items():
                if device["outbox"]:
                    self._arm_device(recipient, device_id, device["next"] or self.clock.now())

    def _lock(self, recipient):
        return self.locks.setdefault(recipient, threading.Lock())

    def _backoff(self, attempt, wait=None):
        """Full jitter: a random delay up to 1 s, 2 s, 4 s, … 60 s; a Retry-After wins."""
        if wait is not None:
            return wait
        return self.rng.randint(0, min(MAX_BACKOFF_MS, 1000 << min(attempt, 6)))

    def _next_due(self, record):
        due = record["due"] or {"attempt": 0}
        return {"at": self.clock.now() + self._backoff(due["attempt"]), "attempt": due["attempt"] + 1}

    def _arm_loop(self, recipient, at):
        self.scheduler.call_at(at, "relay", lambda: self.loop(recipient))

    def _arm_device(self, recipient, device_id, at):
        self.scheduler.call_at(at, "relay", lambda: self.retry(recipient, device_id))

    # relay.md "Events": a notification created or read, a setting changed, a
    # device registered. Each first records in one write that the loop is due
    # (with a refresh for a setting or a device), so a crash anywhere later
    # leaves the loop to run at start-up; then runs it.
    def event(self, recipient, refresh=False, settings=None, device=None):
        while True:
            version, record = self.store.read(recipient)
            due = record["due"]
            if due is None or due["at"] > self.clock.now():  # now, or stays when it is earlier
                record["due"] = {"at": self.clock.now(), "attempt": due["attempt"] if due else 0}
            record["refresh"] = record["refresh"] or refresh
            if settings:
                record["settings"].update(settings)
            if device is not None:
                record["devices"][device["id"]] = new_device(device)
            if self.store.write(recipient, version, record):
                break
        self.loop(recipient)

    # relay.md "The loop"
    def loop(self, recipient, refresh=False):
        with self._lock(recipient):  # step 1: one at a time per recipient
            while True:
                version, record = self.store.read(recipient)  # step 2
                now = self.clock.now()
                if record["due"] is None or record["due"]["at"] > now:
                    return  # not due: it ran since this timer was set, or waits for its backoff
                outcome = self._once(recipient, version, record, refresh, now)
                if outcome != "again":
                    break
            if outcome == "send":
                self._send_all(recipient)  # step 7

    def _once(self, recipient, version, record, refresh, now):
        config, settings = self.config, record["settings"]
        fetch, notifications, unread = self.backend.fetch(recipient, now, config["maxAgeSeconds"])  # step 3
        self.crash("after-fetch")
        stamp = max(record["stamp"] + 1, now)  # step 4: newer than every stamp sent before
        request = {"displayed": record["displayed"], "now": rfc3339(now),
                   "maxAgeSeconds": config["maxAgeSeconds"], "maxUnits": config["maxUnits"],
                   "recipient": recipient, "locale": settings["locale"], "preview": settings["preview"],
                   "push": {"androidChannel": settings["androidChannel"], "reserveBytes": self._reserve(record),
                            "stamp": stamp}}
        if fetch == "ok":
            request["notifications"] = notifications
            request["push"]["badge"] = unread
        else:
            request["fetch"] = fetch
        answer = self.compose.post(request)
        self.crash("after-compose")
        if answer is None:  # step 4: given up this round; the loop runs again after the backoff;
            # refused (a 400, logged): not again
            record["due"] = None if self.compose.refused else self._next_due(record)
            if not self.store.write(recipient, version, record):
                return "again"
            if record["due"] is not None:
                self._arm_loop(recipient, record["due"]["at"])
            return "stored"
        self._plan(record, request, answer, stamp, refresh or record["refresh"], now)  # step 5
        self._store_displayed(record, answer["displayed"])  # step 6: one write
        record["stamp"] = stamp
        if fetch == "ok":
            record["due"], record["refresh"] = None, False
        else:  # step 3: the fetch failed; the loop runs again after the backoff
            record["due"] = self._next_due(record)
        if not self._commit(recipient, version, record):
            return "again"  # compare-and-set failed: start over at step 2
        self.on_answer(recipient, request, answer)
        for device_id, entry in self._unsent:
            self.not_sent(device_id, entry)
        self.crash("after-store")
        if record["due"] is not None:
            self._arm_loop(recipient, record["due"]["at"])
        return "send"

    def _commit(self, recipient, version, record):
        return self.store.write(recipient, version, record)

    def _store_displayed(self, record, displayed):
        record["displayed"] = displayed

    def on_answer(self, recipient, request, answer):
        """A hook for the model (it records what each stored answer fetched); the relay needs nothing here."""

    def not_sent(self, device_id, entry):
        """A hook for the model: a withdrawal a Web Push device is not sent (its
        shadow gets it, and every badge-only one); the relay needs nothing here."""

    def _reserve(self, record):
        """step 4: FCM's `,"token":"…"` and APNs' `,"mutable-content":1` are the
        members this relay adds to a measured payload."""
        sizes = [len(d["token"].encode()) + 11 if d["transport"] == "fcm" else
                 len(b',"mutable-content":1') if d["transport"] == "apns" else 0
                 for d in record["devices"].values()]
        return min(2048, max(sizes, default=0))

    # step 5: each device's payloads, into its outbox
    def _plan(self, record, request, answer, stamp, refresh, now):
        push, fetch_ok = answer["push"], "notifications" in request
        self._unsent = []
        sends_alert = push["send"] or (refresh and answer["shown"] != [])
        badge = request["push"].get("badge")
        for device_id, device in record["devices"].items():
            entries = []
            if device["transport"] == "webpush":  # a push must show a notification there: no withdrawal
                if push["withdraw"] or (badge is not None and not sends_alert):
                    self._unsent.append((device_id, self._withdrawal(device, push, stamp, now)))
            elif push["withdraw"] or (badge is not None and badge != device["badge"] and not sends_alert):
                entries.append(self._withdrawal(device, push, stamp, now))
            if sends_alert:
                entries.append(self._alert(device, answer, request, stamp, now))
            for entry in entries:
                entry["fetchOk"] = fetch_ok
                self._enqueue(device, entry)

    def _enqueue(self, device, entry):
        """Supersession, as the device would apply it: a new alert of group G
        drops the queued alerts of G, and an alert of a successful fetch that
        is not a fallback every older queued alert (the device would ignore
        them); a withdrawal drops the queued alerts of its groups and the
        queued withdrawals of no other group. Queued withdrawals are what
        takes every other group off the device, so an alert never drops one
        (a later withdrawal may drop that alert in turn), and a withdrawal
        drops no alert of a group it does not name (an answer that keeps its
        group without sending it still needs that group's queued alert). The
        device's badge is the newest payload's."""
        outbox = device["outbox"]
        if entry["message"] == "alert":
            newest = entry["fetchOk"] and entry["kind"] != "fallback"
            outbox[:] = [e for e in outbox if e["message"] != "alert"
                         or e["group"] != entry["group"] and not (newest and e["stamp"] < entry["stamp"])]
        else:
            groups = set(entry["groups"])
            outbox[:] = [e for e in outbox if not (e["message"] == "alert" and e["group"] in groups
                                                   or e["message"] == "withdrawal" and set(e["groups"]) <= groups)]
        outbox.append(entry)
        if entry["badge"] is not None:
            device["badge"] = entry["badge"]

    def _withdrawal(self, device, push, stamp, now):
        """The answer's withdrawal payload for this device's transport."""
        transport = device["transport"]
        payload = copy.deepcopy(push["withdrawal"][transport])
        return {"id": f"{stamp}:w", "message": "withdrawal", "stamp": stamp, "groups": list(push["withdraw"]),
                "payload": payload, "expires": now // 1000 + WITHDRAWAL_SECONDS,
                "badge": self._payload_badge(transport, payload), "note": None}

    def _alert(self, device, answer, request, stamp, now):
        """The alert payload for this device's transport, as returned, with
        APNs' `mutable-content` (within reserveBytes) so that the app's
        notification service extension applies the stamp rule."""
        transport, push = device["transport"], answer["push"]
        payload = copy.deepcopy(push[transport])
        if transport == "apns":  # relay.md "Retries": a payload's end, absolute for APNs, now + TTL for the others
            payload["payload"]["aps"]["mutable-content"] = 1
            expires = int(payload["headers"]["apns-expiration"])
        elif transport == "fcm":
            expires = now // 1000 + int(payload["message"]["android"]["ttl"].rstrip("s"))
        else:
            expires = now // 1000 + int(payload["headers"]["TTL"])
        return {"id": f"{stamp}:a", "message": "alert", "stamp": stamp, "kind": answer["kind"],
                "group": push["group"],  # the group key G
                "payload": payload, "expires": expires, "badge": self._payload_badge(transport, payload),
                "note": {"kind": answer["kind"], "shown": answer["shown"], "locale": answer["locale"],
                         "preview": request["preview"], "requested": request["locale"],
                         "expires": int(push["apns"]["headers"]["apns-expiration"])}}

    @staticmethod
    def _payload_badge(transport, payload):
        if transport == "apns":
            badge = payload["payload"].get("badge", payload["payload"].get("aps", {}).get("badge"))
        elif transport == "fcm":
            badge = payload["message"]["data"].get("badge")
        else:
            badge = payload["payload"].get("appBadge")
        return None if badge is None else int(badge)

    def _send(self, device, entry):
        """The request as the transport takes it, with what the relay adds,
        and the TTL rewritten to what is left of it (relay.md "Retries")."""
        self.clock.advance(1)  # every request a relay makes takes a millisecond of the model's clock
        transport, payload = device["transport"], copy.deepcopy(entry["payload"])
        left = self._left(transport, entry)
        if transport == "apns":
            headers = dict(payload["headers"], **{"apns-topic": device["topic"], "authorization": "bearer jwt"})
            body = self.write(payload["payload"])
        elif transport == "fcm":
            message = payload["message"]
            message["android"]["ttl"] = f"{left}s"
            headers = {"Authorization": "Bearer oauth2"}
            body = self.write({"message": dict(message, token=device["token"])})
        else:
            headers = dict(payload["headers"], **{"Content-Encoding": "aes128gcm", "Authorization": "vapid"})
            headers["TTL"] = str(left)
            body = self.write(payload["payload"])
        return self.transports[transport].post(device["token"], headers, body, entry["note"])

    def _left(self, transport, entry):
        """What is left of the payload's lifetime, in whole seconds (relay.md "Retries")."""
        return entry["expires"] - self.clock.now() // 1000

    write = staticmethod(write_json)

    # step 7: send from the store, per device in stamp order
    def _send_all(self, recipient):
        _, record = self.store.read(recipient)
        for index, device_id in enumerate(sorted(record["devices"])):
            if index:
                self.crash("between-devices")
            self._send_device(recipient, device_id)

    def retry(self, recipient, device_id):
        """A device's retry timer (relay.md "Retries")."""
        with self._lock(recipient):
            self._send_device(recipient, device_id)

    def _update(self, recipient, change):
        """Applies `change(record)` in a compare-and-set write, reading again when it fails."""
        while True:
            version, record = self.store.read(recipient)
            result = change(record)
            if self.store.write(recipient, version, record):
                return record, result

    def _send_device(self, recipient, device_id):
        """The device's outbox in stamp order, the first entry first: accepted,
        it leaves the outbox; a transient failure stops the device here (the
        later entries wait behind it) until its next attempt; gone, the
        device is deleted with its outbox."""
        while True:
            _, record = self.store.read(recipient)
            device = record["devices"].get(device_id)
            now = self.clock.now()
            if device is None or not device["outbox"] or (device["next"] is not None and device["next"] > now):
                return  # delivered, or waiting for its retry timer
            entry = device["outbox"][0]
            left = entry["expires"] - now // 1000
            if left < 0 or left == 0 and entry.get("tried"):  # relay.md "Retries": nothing is left of it (a TTL
                # of 0 in the answer is sent as it is, once)
                _, at = self._update(recipient, lambda r: self._expired(r, device_id, entry))
                if at is not None:
                    self._arm_loop(recipient, at)
                continue
            if not entry.get("tried"):
                self._update(recipient, lambda r: self._tried(r, device_id, entry))
            status, headers, body = self._send(device, entry)
            self.crash("after-send")
            outcome, wait = classify(device["transport"], status, headers, body)
            if outcome == "bug":
                self.log.append(("transport-bug", device["transport"], status, body))
            record, _ = self._update(recipient, lambda r: self._answered(r, device_id, entry, outcome, wait))
            if outcome in ("transient", "gone"):
                device = record["devices"].get(device_id)
                if device is not None and device["outbox"]:
                    self._arm_device(recipient, device_id, device["next"])
                return

    @staticmethod
    def _tried(record, device_id, entry):
        for e in record["devices"].get(device_id, {"outbox": []})["outbox"]:
            if e["id"] == entry["id"]:
                e["tried"] = True

    def _expired(self, record, device_id, entry):
        device = record["devices"].get(device_id)
        if device is None:
            return None
        device["outbox"] = [e for e in device["outbox"] if e["id"] != entry["id"]]
        if entry["badge"] is not None and not any(e["badge"] is not None for e in device["outbox"]):
            device["badge"] = None  # the newest badge was not delivered: the next loop sends it again
        if entry["message"] == "alert":  # the loop runs again once what it covered is stale
            at = max(self.clock.now(), (entry["expires"] + 1) * 1000)
            if record["due"] is None or record["due"]["at"] > at:
                record["due"] = {"at": at, "attempt": 0}
                return at
        return None

    def _answered(self, record, device_id, entry, outcome, wait):
        device = record["devices"].get(device_id)
        if device is None:
            return
        if outcome == "gone":  # the token is deleted, with its outbox
            del record["devices"][device_id]
            return
        if outcome == "transient":
            device["next"] = self.clock.now() + self._backoff(device["attempt"], wait)
            device["attempt"] += 1
            return
        device["outbox"] = [e for e in device["outbox"] if e["id"] != entry["id"]]  # accepted, or a bug: not again
        device["attempt"], device["next"] = 0, None
        self._accepted(device, entry)

    def _accepted(self, device, entry):
        """A hook for the self-test's relay; nothing here (the badge was taken when it was queued)."""
