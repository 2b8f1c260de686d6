"""The reference relay: docs/relay.md, step by step, in Python's standard library.

Every step of docs/relay.md is marked here by its name ("step 4"). The relay
talks to four things it is given: a store (its database), a backend (the
app's notifications), the compose service (HTTP), and one client per push
transport. In checks/relay/model.py they are a model's fakes with a clock the
test controls; the relay itself does not know.

Each transport payload carries, besides what it sends, a `note` (the answer's
`kind` and `shown`): the model's devices use it to know which messages a
notification covers. A real push service never sees it, and nothing here
decides anything by it.
"""
from __future__ import annotations

import copy
import http.client
import json
import socket
import threading
from datetime import datetime, timezone

MAX_BACKOFF_MS = 60_000  # relay.md "Retries": doubling up to 60 s
WITHDRAWAL_SECONDS = 86_400  # push.md P21: a withdrawal lives a day


def write_json(value) -> bytes:
    """push.md P19/P20: compact, raw UTF-8, only JSON's own escapes (relay.md step 6)."""
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
            "displayed": [], "settings": dict(settings), "due": None,
            "devices": {d["id"]: {"transport": d["transport"], "token": d["token"], "topic": d.get("topic"),
                                  "badge": None, "outbox": [], "attempt": 0, "next": None} for d in devices}})


class ComposeClient:
    """POST /compose with relay.md step 4's timeout and retry rule."""

    def __init__(self, host, port, clock, log):
        self.host, self.port, self.clock, self.log = host, port, clock, log
        self.connection = None  # kept alive across requests
        self.unavailable = 0  # the model's fault: answer this many calls 503 without asking the service

    def post(self, request: dict):
        """The answer, or None when this round is given up (step 4)."""
        for attempt in (1, 2):
            status, retry_after, answer = self._post_once(request)
            if status == 200:
                return answer
            if status is not None and 400 <= status < 500:  # a bug in what the relay sent: log its code only
                self.log.append(("compose", status, answer.get("code")))
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

    # relay.md "Starting": the stored outboxes and loops due are scheduled again.
    def start(self):
        for recipient, (_, record) in self.store.records.items():
            if record["due"] is not None:
                self._arm_loop(recipient, record["due"]["at"])
            for device_id, device in record["devices"].items():
                if device["outbox"]:
                    self._arm_device(recipient, device_id, device["next"])

    def _lock(self, recipient):
        return self.locks.setdefault(recipient, threading.Lock())

    def _backoff(self, attempt, wait=None):
        """Full jitter: a random delay up to 1 s, 2 s, 4 s, … 60 s; a Retry-After wins."""
        if wait is not None:
            return wait
        return self.rng.randint(0, min(MAX_BACKOFF_MS, 1000 << min(attempt, 6)))

    def _arm_loop(self, recipient, at):
        self.scheduler.call_at(at, "relay", lambda: self.loop(recipient, from_due=True))

    def _arm_device(self, recipient, device_id, at):
        self.scheduler.call_at(at, "relay", lambda: self.retry(recipient, device_id))

    # relay.md "The loop"
    def loop(self, recipient, refresh=False, from_due=False):
        with self._lock(recipient):  # step 1: one at a time per recipient
            while True:
                version, record = self.store.read(recipient)  # step 2
                if from_due and (record["due"] is None or record["due"]["at"] > self.clock.now()):
                    return  # the loop this timer was for has run since
                if self._once(recipient, version, record, refresh):
                    return

    def _once(self, recipient, version, record, refresh):
        config, settings = self.config, record["settings"]
        now = self.clock.now()  # step 2: the clock, read once per loop
        fetch, notifications, unread = self.backend.fetch(recipient, now, config["maxAgeSeconds"])  # step 3
        request = {"displayed": record["displayed"], "now": rfc3339(now),  # step 4
                   "maxAgeSeconds": config["maxAgeSeconds"], "maxUnits": config["maxUnits"],
                   "recipient": recipient, "locale": settings["locale"], "preview": settings["preview"],
                   "push": {"androidChannel": settings["androidChannel"], "reserveBytes": self._reserve(record)}}
        if fetch == "ok":
            request["notifications"] = notifications
            request["push"]["badge"] = unread
        else:
            request["fetch"] = fetch
        answer = self.compose.post(request)
        if answer is None:  # step 4: given up this round; the loop runs again after the backoff
            due = record["due"] or {"attempt": 0}
            record["due"] = {"at": self.clock.now() + self._backoff(due["attempt"]), "attempt": due["attempt"] + 1}
            if self.store.write(recipient, version, record):
                self._arm_loop(recipient, record["due"]["at"])
            return True
        self.on_answer(recipient, request, answer)
        push = answer["push"]
        sends_alert = push["send"] or (refresh and answer["shown"] != [])
        gone = []
        for device_id, device in record["devices"].items():
            sent = []
            badge_changes = "badge" in request["push"] and request["push"]["badge"] != device["badge"]
            if push["withdraw"] or (badge_changes and not sends_alert):  # step 5
                sent.append(self._withdrawal(device, push, now))
            if sends_alert:  # step 6
                sent.append(self._alert(device, answer, now))
            for entry in sent:
                self._supersede(device, entry)
            if self._deliver(recipient, device_id, device, sent) == "gone":  # step 7
                gone.append(device_id)
        for device_id in gone:  # step 7: a token that is gone is deleted, with its outbox
            del record["devices"][device_id]
        self._store_displayed(record, answer["displayed"])  # step 8: settled; stored as returned, with the outboxes
        if fetch == "ok":
            record["due"] = None
        else:  # step 3: the fetch failed; the loop runs again after the backoff
            due = record["due"] or {"attempt": 0}
            record["due"] = {"at": self.clock.now() + self._backoff(due["attempt"]), "attempt": due["attempt"] + 1}
        if not self.store.write(recipient, version, record):
            return False  # compare-and-set failed: start over at step 2
        self._arm_after_store(recipient, record)
        return True

    def _store_displayed(self, record, displayed):
        record["displayed"] = displayed

    def _retried(self, record):
        """After a retry's answers (a hook for the self-test's relay); nothing here."""

    def on_answer(self, recipient, request, answer):
        """A hook for the model (it records what each compose fetched); the relay needs nothing here."""

    def _reserve(self, record):
        """step 4: FCM's `,"token":"…"` is the one member this relay adds to a measured payload."""
        sizes = [len(d["token"].encode()) + 11 for d in record["devices"].values() if d["transport"] == "fcm"]
        return min(2048, max(sizes, default=0))

    def _withdrawal(self, device, push, now):
        """step 5: the answer's withdrawal payload for this device's transport."""
        transport = device["transport"]
        payload = copy.deepcopy(push["withdrawal"][transport])
        return {"message": "withdrawal", "groups": list(push["withdraw"]), "payload": payload,
                "expires": now // 1000 + WITHDRAWAL_SECONDS, "badge": self._payload_badge(transport, payload),
                "note": None}

    def _alert(self, device, answer, now):
        """step 6: the alert payload for this device's transport, as returned."""
        transport, push = device["transport"], answer["push"]
        payload = copy.deepcopy(push[transport])
        if transport == "apns":  # "Retries": a payload's end, absolute for APNs, now + TTL for the others
            expires = int(payload["headers"]["apns-expiration"])
        elif transport == "fcm":
            expires = now // 1000 + int(payload["message"]["android"]["ttl"].rstrip("s"))
        else:
            expires = now // 1000 + int(payload["headers"]["TTL"])
        return {"message": "alert", "group": push["apns"]["headers"]["apns-collapse-id"],  # the group key G
                "payload": payload, "expires": expires, "badge": self._payload_badge(transport, payload),
                "note": {"kind": answer["kind"], "shown": answer["shown"], "locale": answer["locale"],
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

    @staticmethod
    def _supersede(device, entry):
        """steps 5 and 6: a new alert replaces a pending alert of its group; a
        withdrawal takes back pending alerts of the groups it withdraws."""
        if entry["message"] == "alert":
            gone_groups = {entry["group"]}
        else:
            gone_groups = set(entry["groups"])
        device["outbox"] = [e for e in device["outbox"] if e["message"] != "alert" or e["group"] not in gone_groups]

    def _send(self, device, entry):
        """step 6 (and the retries): the request as the transport takes it, with
        what the relay adds, and the TTL rewritten to what is left of it."""
        self.clock.advance(1)  # every request a relay makes takes a millisecond of the model's clock
        transport, payload = device["transport"], entry["payload"]
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
            headers["TTL"] = payload["headers"]["TTL"] = str(left)
            body = self.write(payload["payload"])
        return self.transports[transport].post(device["token"], headers, body, entry["note"])

    def _left(self, transport, entry):
        """What is left of the payload's lifetime, in whole seconds (relay.md "Retries")."""
        return entry["expires"] - self.clock.now() // 1000

    write = staticmethod(write_json)

    def _deliver(self, recipient, device_id, device, entries):
        """step 7: send each entry and handle its answer; an entry that failed
        transiently joins the device's outbox. Returns "gone" when the token is."""
        failed, waits = [], []
        for entry in entries:
            status, headers, body = self._send(device, entry)
            outcome, wait = classify(device["transport"], status, headers, body)
            if outcome == "accepted":
                if entry["badge"] is not None:
                    device["badge"] = entry["badge"]
            elif outcome == "gone":
                return "gone"
            elif outcome == "transient":
                failed.append(entry)
                waits.append(wait)
            else:
                self.log.append(("transport-bug", device["transport"], status, body))
        device["outbox"] += failed
        if failed:
            wait = max((w for w in waits if w is not None), default=None)
            device["next"] = self.clock.now() + self._backoff(device["attempt"], wait)
            device["attempt"] += 1
        elif not device["outbox"]:
            device["attempt"], device["next"] = 0, None
        return "kept"

    def _arm_after_store(self, recipient, record):
        if record["due"] is not None:
            self._arm_loop(recipient, record["due"]["at"])
        for device_id, device in record["devices"].items():
            if device["outbox"]:
                self._arm_device(recipient, device_id, device["next"])

    # relay.md "Retries"
    def retry(self, recipient, device_id):
        with self._lock(recipient):
            while True:
                version, record = self.store.read(recipient)
                device = record["devices"].get(device_id)
                if device is None or not device["outbox"] or device["next"] > self.clock.now():
                    return  # delivered, superseded or rescheduled since this timer was set
                pending, device["outbox"] = device["outbox"], []
                now_s = self.clock.now() // 1000
                live = [e for e in pending if e["expires"] - now_s > 0]
                given_up = [e["expires"] for e in pending if e not in live and e["message"] == "alert"]
                if given_up:  # an alert given up: run the loop once what it covered is stale
                    record["due"] = {"at": max(self.clock.now(), (max(given_up) + 1) * 1000), "attempt": 0}
                outcome = self._deliver(recipient, device_id, device, live)
                if outcome == "gone":
                    del record["devices"][device_id]
                self._retried(record)
                if self.store.write(recipient, version, record):
                    self._arm_after_store(recipient, record)
                    return
