"""The model's plumbing around the relay it runs: examples/relay/relay.py's
`Relay`, imported as it is, which does only IO around the core (`POST
/relay`, docs/relay.md "The core"). Every decision (what to compose, each
device's outbox, supersession, badges, lifetimes, retries, what a push
service's answer means, the payload bytes with the FCM token) is the core's;
this file holds no rule of docs/relay.md, only what the relay is given:

- `Store`: the relay's database, one record per recipient written with
  compare-and-set, records copied in and out, as a database would;
- `FetchFake`: the backend's fetch (model.Backend);
- `PushFake`: one push client per transport, in front of services.py's fake
  APNs, FCM and Web Push endpoints;
- `CoreTap`: the core the relay is given, with the model's faults (the
  service at its connection limit): `core_for(door)`, over HTTP
  (`http_core`) against the service the check started, or in process
  through the relay's WebAssembly module (`host_core`, `--core host`).

The relay process dies (model.Crash) at each of `CRASH_POINTS`, raised by
these fakes before or after they do their part: after the fetch, after the
core composed a loop's answer (not stored), after the store wrote it,
between two devices' sends, after a push service accepted a send (its answer
never recorded). world.py then starts a new `Relay` on the same store and
calls its `start()` (relay.md "Starting").

What the model observes, it takes from the core's answers as they are stored
(`CoreTap.stored`): per stamp, the loop's compose answer (`kind`, `shown`,
`locale`) and the record's `locale` and `preview`, so that a device knows
which messages an alert of that stamp covers and in which tier and language
it was composed; the fetch's keys and unread count for the checks; and the
withdrawal a Web Push device is not sent, for its shadow. Nothing the relay
sends carries any of it.
"""
from __future__ import annotations

import importlib.util
import io
import json
import pathlib
import sys
import urllib.error
from datetime import datetime, timezone

from model import key_of

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "relay" / "relay.py"
_spec = importlib.util.spec_from_file_location("example_relay", EXAMPLE)
example = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(example)
Relay, http_core, host_core = example.Relay, example.http_core, example.host_core
ROOT = pathlib.Path(__file__).resolve().parents[2]

CRASH_POINTS = ("after-fetch", "after-compose", "after-store", "between-devices", "after-send")


def core_for(door: str):
    """The core through `door`: "host" (the relay's module in this process, through the Python
    package of wasm/python with the module `make wasm` put in it) or a service's URL (`POST /relay`)."""
    if door != "host":
        return http_core(door)
    try:
        import notification_text  # noqa: F401  (installed: that one)
    except ImportError:
        sys.path.insert(0, str(ROOT / "wasm" / "python"))
    return host_core()


def ms_of(text: str) -> int:
    """The Unix milliseconds of an RFC 3339 timestamp the core wrote."""
    return int(datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00")).timestamp() * 1000)


def rfc3339(ms: int) -> str:
    moment = datetime.fromtimestamp(ms / 1000, tz=timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


class Store:
    """One record per recipient with a version for compare-and-set; records
    are copied in and out (kept as JSON text, as a database would). `on_write(recipient, record)` runs after every
    successful write (the harness's observation, and its crash after-store)."""

    def __init__(self):
        self.rows = {}
        self.on_write = lambda recipient, record: None
        self.before_write = lambda recipient, record: None

    def read(self, recipient):
        version, text = self.rows.get(recipient, (0, "null"))
        return version, json.loads(text)

    def write(self, recipient, version, record) -> bool:
        if self.rows.get(recipient, (0, None))[0] != version:
            return False
        self.before_write(recipient, record)
        self.rows[recipient] = (version + 1, json.dumps(record, ensure_ascii=False))
        self.on_write(recipient, record)
        return True

    def recipients(self):
        return list(self.rows)


class FetchFake:
    """The backend's fetch as the relay calls it: `(notifications, unread)`,
    or TimeoutError / another error."""

    def __init__(self, world):
        self.world = world

    def __call__(self, recipient, now_ms):
        world = self.world
        outcome, notifications, unread = world.backend.fetch(recipient, now_ms, world.config["maxAgeSeconds"])
        world.clock.advance(1)  # the fetch takes a millisecond of the model's clock (so each event's
        # messages are newer than the last loop's); the sends that follow take none: each is sent at the instant
        # the core wrote its lifetime for
        world.crash_point("after-fetch")
        if outcome == "timeout":
            raise TimeoutError("the backend's fetch timed out")
        if outcome != "ok":
            raise ConnectionError("the backend's fetch failed")
        return notifications, unread


class PushFake:
    """A push client: the send's headers and body bytes to the model's
    endpoint of its transport; its answer as `(status, reason, retry_after,
    token_invalid)`, status 0 for a timeout."""

    def __init__(self, world, transport):
        self.world, self.transport = world, transport

    def __call__(self, send):
        world = self.world
        if world.last_device not in (None, send["device"]):
            world.crash_point("between-devices")
        world.last_device = send["device"]
        endpoint = world.endpoints[self.transport]
        note = world.notes.get(send["stamp"])
        status, headers, body = endpoint.post(send["token"], send["headers"], send["body"].encode("utf-8"), note)
        world.crash_point("after-send")
        if status is None:
            return 0, None, None, False
        if self.transport == "apns":
            reason = body.get("reason")
        elif self.transport == "fcm":
            reason = body.get("error", {}).get("status")
        else:
            reason = None
        retry_after = headers.get("Retry-After")
        return status, reason, int(retry_after) if retry_after is not None else None, False


def unavailable(url):
    """The service at its connection limit: `503 too-many-connections`, `Retry-After: 1`."""
    body = io.BytesIO(b'{"code":"too-many-connections"}')
    return urllib.error.HTTPError(url, 503, "Service Unavailable", {"Retry-After": "1"}, body)


class CoreTap:
    """The core callable the relay is given: `http_core` against the
    service, answering 503 to a loop while the model says the service is at
    its limit, dying after a loop's answer (`after-compose`), logging a 4xx
    problem and a push answer the core calls a `bug` (each a violation).
    A loop's answer is remembered until the store writes its record; then
    `stored` tells the model what it needs to observe. The self-test's
    broken relays override `request`, `answer` and `restarted`."""

    def __init__(self, call, world):
        self.call, self.world = call, world
        self.pending = None  # (the loop's request, its answer): observed once stored

    def __call__(self, request):
        world = self.world
        request = self.request(request)
        if request["do"] == "loop" and world.compose_unavailable > 0:
            world.compose_unavailable -= 1
            raise unavailable("http://127.0.0.1/relay")
        try:
            answer = self.call(request)
        except urllib.error.HTTPError as error:
            if 400 <= error.code < 500:
                world.log.append(("core", error.code, json.loads(error.read() or b"{}").get("code")))
            raise
        answer = self.answer(request, answer)
        if request["do"] == "loop":
            self.pending = (request, answer)
            world.crash_point("after-compose")
        elif request["do"] == "answer" and answer.get("outcome") == "bug":
            world.log.append(("push", request["device"], request["status"], request.get("reason")))
        return answer

    def request(self, request):
        return request

    def answer(self, request, answer):
        return answer

    def before_write(self, recipient, record):
        """The store is about to write `record` (a self-test's relay that sends before it stores)."""

    def restarted(self):
        """The relay process died: what it kept in memory is lost."""
        self.pending = None

    def stored(self, recipient, record):
        """The store wrote `record`: when it is a loop's, the model observes that loop."""
        if self.pending is None or self.pending[1]["record"] is not record:
            return
        request, answer = self.pending
        self.pending = None
        self.world.observe(request, answer)
        self.world.crash_point("after-store")


def loop_fetch_keys(request):
    """The keys of a successful fetch's notifications (the checks' I1)."""
    return {key_of(n) for n in request.get("notifications", [])}
