"""A push relay that does only IO around notification-text's relay core.

Every decision of docs/relay.md (what to compose, what each device gets,
supersession, badges, lifetimes, retries, what a push service's answer
means) is the core's: `POST /relay` (`http_core`), or the same core in this process
through the WebAssembly module's Python host (`host_core`, no service: `pip
install notification-text`, docs/wasm.md). What is left here is IO:
the store (one record per recipient, compare-and-set), the backend fetch,
the push clients, the scheduler. Standard library only (`host_core` imports
the notification-text package, which brings wasmtime).

    relay = Relay(core=host_core(), fetch=my_fetch,  # or http_core("http://127.0.0.1:8080")
                  push={"apns": apns_send, "fcm": fcm_send, "webpush": webpush_send})
    relay.event("u1", {"type": "created"}, settings={"locale": "en", "preview": "full"})
    relay.tick()   # from a timer: runs what is due

`fetch(recipient, now_ms)` returns `(notifications, unread)` (relay.md step 3)
or raises `TimeoutError` or another error; each push client takes a send
(`{"device","transport","stamp","token","headers","body"}`) and returns
`(status, reason, retry_after, token_invalid)`, status 0 for a timeout. The Web
Push client encrypts `body` (RFC 8291) itself, afresh for every attempt.

120 lines of code (docs/relay.md, "The core", says how they are counted);
`make check-relay` runs this relay in the device model of checks/relay/ (`RELAY_CORE=host`: on
the module).
"""
import http.client
import io
import json
import random
import threading
import time
import urllib.error
from datetime import datetime, timezone


def http_core(base_url, token=None, timeout=2.0):
    """The core over HTTP, one kept-alive connection per thread: a request dict in, the answer dict
    out. A problem raises `HTTPError`, a timeout or a lost connection an `OSError` (the call has no
    effect but its answer, so it is tried once more first, on a new connection)."""
    local, host = threading.local(), base_url.split("//")[-1].rstrip("/")
    headers = {"Content-Type": "application/json", **({"Authorization": "Bearer " + token} if token else {})}

    def call(request):
        body = json.dumps(request, ensure_ascii=False, separators=(",", ":")).encode()
        for attempt in (1, 2):
            local.connection = getattr(local, "connection", None) or http.client.HTTPConnection(host, timeout=timeout)
            try:
                local.connection.request("POST", "/relay", body, headers)
                response = local.connection.getresponse()
                data = response.read()
                break
            except (OSError, http.client.HTTPException) as error:
                local.connection = local.connection.close()
                if attempt == 2:
                    raise OSError(error) from error
        return answered(base_url, response.status, data.decode(), response.headers)
    return call


def host_core():
    """The core in this process: the relay's WebAssembly module (notification_text.NotificationRelay), one
    instance per thread, answering as `http_core` does; a problem raises the same `HTTPError`."""
    from notification_text import NotificationRelay
    local = threading.local()

    def call(request):
        local.core = getattr(local, "core", None) or NotificationRelay()
        return answered("relay", *local.core.relay(request))
    return call


def answered(url, status, body, headers=None):
    """The core's answer as a dict, or its problem (status 400, 422, 503...) raised."""
    if status != 200:
        raise urllib.error.HTTPError(url, status, "problem", headers or {}, io.BytesIO(body.encode()))
    return json.loads(body)


class Store:
    """Records by recipient, each written with compare-and-set on its version."""
    def __init__(self):
        self.rows, self.lock = {}, threading.Lock()

    def read(self, recipient):
        with self.lock:
            return self.rows.get(recipient, (0, None))

    def recipients(self):
        return list(self.rows)

    def write(self, recipient, version, record):
        with self.lock:
            if self.rows.get(recipient, (0, None))[0] != version:
                return False
            self.rows[recipient] = (version + 1, record)
            return True


class Relay:
    def __init__(self, core, fetch, push, store=None, clock=time.time, jitter=random.random, sleep=time.sleep):
        self.core, self.fetch, self.push, self.clock, self.jitter, self.sleep = core, fetch, push, clock, jitter, sleep
        self.store = store or Store()
        self.wake_at, self.locks, self.locks_lock = {}, {}, threading.Lock()  # wake_at: the timers, recipient -> ms

    def now(self):
        ms = round(self.clock() * 1000)
        return ms, datetime.fromtimestamp(ms / 1000, timezone.utc).isoformat(timespec="milliseconds")[:-6] + "Z"

    def lock(self, recipient):  # step 1: one at a time per recipient
        with self.locks_lock:
            return self.locks.setdefault(recipient, threading.RLock())

    def ask(self, recipient, do, new=None, **members):
        """Reads the record, asks the core to `do` with `members` and the clock as it is (`new`: the members
        of a recipient's first event, without a record), stores its record with CAS (again on a conflict)."""
        while True:
            version, record = self.store.read(recipient)  # step 2
            answer = self.core({"do": do, "record": record, "now": self.now()[1], **members,
                                **((new or {}) if record is None else {})})
            if self.store.write(recipient, version, answer["record"]):
                if "wakeAt" in answer:  # None: no timer
                    self.wake_at[recipient] = answer["wakeAt"]
                return answer

    def event(self, recipient, event, settings=None):
        """An event: `due` written first, then the loop (relay.md "Events")."""
        with self.lock(recipient):
            self.ask(recipient, "event", {"recipient": recipient, "settings": settings}, event=event)
            self.loop(recipient)

    def loop(self, recipient):
        with self.lock(recipient):
            try:  # step 3
                notifications, unread = self.fetch(recipient, self.now()[0])
                fetched = {"fetch": "ok", "notifications": notifications, "unread": unread}
            except Exception as error:
                fetched = {"fetch": "timeout" if isinstance(error, TimeoutError) else "failed"}
            for attempt in (1, 2):  # steps 4-6: compose, plan, store; `now` read again: the sends' lifetimes
                try:  # are what is left of them after the fetch and any wait
                    answer = self.ask(recipient, "loop", jitter=self.jitter(), **fetched)
                    break
                except OSError as error:  # a 503's Retry-After, else 200 ms; then once more
                    if attempt == 2:
                        return self.give_up(recipient)
                    self.sleep(float(getattr(error, "headers", None) and error.headers.get("Retry-After") or 0.2))
            self.send_all(recipient, answer["sends"])  # step 7, from the store
        # the lock is released here

    def give_up(self, recipient):
        try:
            self.ask(recipient, "gave-up", jitter=self.jitter())
        except OSError:
            self.wake_at[recipient] = self.now()[0] + 1000

    def send_all(self, recipient, sends):
        queue = list(sends)
        for send in queue:  # the core's next sends are appended, and reached in turn
            try:  # (status, reason, retry_after, token_invalid)
                pushed = self.push[send["transport"]](send)
            except Exception:
                pushed = (0, None, None, False)  # as a timeout
            answer = self.ask(recipient, "answer", device=send["device"], stamp=send["stamp"], jitter=self.jitter(),
                              **dict(zip(("status", "reason", "retryAfter", "tokenInvalid"), pushed)))
            queue.extend(answer["sends"])

    def wake(self, recipient):
        with self.lock(recipient):
            answer = self.ask(recipient, "wake")
            self.send_all(recipient, answer["sends"])
            if answer["loop"]:
                self.loop(recipient)

    def start(self):
        """After a restart: every record's outboxes and `due` (relay.md "Starting")."""
        for recipient in self.store.recipients():
            self.wake(recipient)

    def tick(self):
        for recipient, at in list(self.wake_at.items()):
            if at is not None and at <= self.now()[0]:
                self.wake_at.pop(recipient, None)
                self.wake(recipient)
