"""A push relay that does only IO around notification-text's relay core.

Every decision of docs/relay.md (what to compose, what each device gets,
supersession, badges, lifetimes, retries, what a push service's answer
means) is the core's: `POST /relay` (or the library, `notification-text relay
--json-lines`). What is left here is IO:
the store (one record per recipient, compare-and-set), the backend fetch,
the push clients, the scheduler. Standard library only.

    relay = Relay(core=http_core("http://127.0.0.1:8080"), fetch=my_fetch,
                  push={"apns": apns_send, "fcm": fcm_send, "webpush": webpush_send})
    relay.event("u1", {"type": "created"}, settings={"locale": "en", "preview": "full"})
    relay.tick()   # from a timer: runs what is due

`fetch(recipient, now_ms)` returns `(notifications, unread)` (relay.md step 3)
or raises `TimeoutError` or another error; each push client takes a send
(`{"device","transport","stamp","token","headers","body"}`) and returns
`(status, reason, retry_after, token_invalid)`, status 0 for a timeout. The Web
Push client encrypts `body` (RFC 8291) itself, afresh for every attempt.
"""
import json
import random
import threading
import time
import urllib.request
from datetime import datetime, timezone


def http_core(base_url, token=None, timeout=2.0):
    """The core over HTTP: a request dict in, the answer dict out (a problem raises)."""
    def call(request):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        body = json.dumps(request, ensure_ascii=False, separators=(",", ":")).encode()
        post = urllib.request.Request(base_url.rstrip("/") + "/relay", body, headers, method="POST")
        with urllib.request.urlopen(post, timeout=timeout) as response:
            return json.loads(response.read())
    return call


class Store:
    """Records by recipient, each written with compare-and-set on its version."""
    def __init__(self):
        self.rows, self.lock = {}, threading.Lock()

    def read(self, recipient):
        with self.lock:
            return self.rows.get(recipient, (0, None))

    def write(self, recipient, version, record):
        with self.lock:
            if self.rows.get(recipient, (0, None))[0] != version:
                return False
            self.rows[recipient] = (version + 1, record)
            return True


class Relay:
    def __init__(self, core, fetch, push, store=None, clock=time.time, jitter=random.random):
        self.core, self.fetch, self.push, self.clock, self.jitter = core, fetch, push, clock, jitter
        self.store = store or Store()
        self.wake_at = {}  # recipient -> ms: the scheduler's timers
        self.locks, self.locks_lock = {}, threading.Lock()

    def now(self):
        ms = int(self.clock() * 1000)
        return ms, datetime.fromtimestamp(ms / 1000, timezone.utc).isoformat(timespec="milliseconds")[:-6] + "Z"

    def lock(self, recipient):  # step 1: one at a time per recipient
        with self.locks_lock:
            return self.locks.setdefault(recipient, threading.RLock())

    def update(self, recipient, make):
        """Reads the record, asks the core, stores its record with CAS (again on a conflict)."""
        while True:
            version, record = self.store.read(recipient)
            answer = make(record)
            if self.store.write(recipient, version, answer["record"]):
                if "wakeAt" in answer:
                    self.schedule(recipient, answer["wakeAt"])
                return answer

    def schedule(self, recipient, at):
        if at is None:
            self.wake_at.pop(recipient, None)
        else:
            self.wake_at[recipient] = at

    def event(self, recipient, event, settings=None):
        """An event: `due` written first, then the loop (relay.md "Events")."""
        with self.lock(recipient):
            def make(record):
                request = {"do": "event", "record": record, "now": self.now()[1], "event": event}
                if record is None:
                    request.update(recipient=recipient, settings=settings)
                return self.core(request)
            self.update(recipient, make)
            self.loop(recipient)

    def loop(self, recipient):
        with self.lock(recipient):
            now_ms, now = self.now()
            try:  # step 3
                notifications, unread = self.fetch(recipient, now_ms)
                fetched = {"fetch": "ok", "notifications": notifications, "unread": unread}
            except TimeoutError:
                fetched = {"fetch": "timeout"}
            except Exception:
                fetched = {"fetch": "failed"}
            request = {"do": "loop", "now": now, "jitter": self.jitter(), **fetched}
            for attempt in (1, 2):  # steps 4-6: compose, plan, store
                try:
                    answer = self.update(recipient, lambda record: self.core({**request, "record": record}))
                    break
                except OSError:
                    if attempt == 2:
                        return self.give_up(recipient, now)
                    time.sleep(0.2)
            self.send_all(recipient, answer["sends"])  # step 7, from the store

    def give_up(self, recipient, now):
        try:
            self.update(recipient, lambda record: self.core(
                {"do": "gave-up", "record": record, "now": now, "jitter": self.jitter()}))
        except OSError:
            self.schedule(recipient, self.now()[0] + 1000)

    def send_all(self, recipient, sends):
        queue = list(sends)
        while queue:
            send = queue.pop(0)
            try:
                status, reason, retry_after, token_invalid = self.push[send["transport"]](send)
            except Exception:
                status, reason, retry_after, token_invalid = 0, None, None, False
            answer = self.update(recipient, lambda record: self.core({
                "do": "answer", "record": record, "now": self.now()[1], "device": send["device"],
                "stamp": send["stamp"], "status": status, "reason": reason, "retryAfter": retry_after,
                "tokenInvalid": token_invalid, "jitter": self.jitter()}))
            queue.extend(answer["sends"])

    def wake(self, recipient):
        with self.lock(recipient):
            answer = self.update(recipient, lambda record: self.core(
                {"do": "wake", "record": record, "now": self.now()[1]}))
            self.send_all(recipient, answer["sends"])
            if answer["loop"]:
                self.loop(recipient)

    def start(self):
        """After a restart: every record's outboxes and `due` (relay.md "Starting")."""
        for recipient in list(self.store.rows):
            self.wake(recipient)

    def tick(self):
        now_ms = self.now()[0]
        for recipient, at in list(self.wake_at.items()):
            if at <= now_ms:
                self.wake_at.pop(recipient, None)
                self.wake(recipient)
