#!/usr/bin/env python3
"""Resilience suite: hostile input, faults and load against a live server.

Starts `notification-text serve --port 0` on 127.0.0.1 (one fresh server per
scenario), reads its JSON start line for the port and pid, and checks that it
keeps serving and loses nothing:

  slow-clients   100 clients sending a byte a second; normal clients still served
  sigterm        SIGTERM under load; every request sent before it is answered
  malformed      >= 1000 malformed requests of >= 30 kinds; each gets its 4xx
                 (or a closed connection where evhttp documents that), and the
                 server keeps serving
  resets         clients that reset (SO_LINGER 0) mid-body; no descriptor leaks
  access         --auth-token-file (401/200, probes open) and --metrics-port
  soak           mixed traffic for SOAK_SECONDS; RSS, descriptors, errors before/after
  framing        each request-framing case of docs/adr/0016 followed by a pipelined
                 request: its target answer, never a second parse
  pipelining     10 clients pipeline GET /healthz and never read: RSS peak < 64 MiB,
                 a normal client served meanwhile
  uploads        60 unauthenticated 1 MB uploads at once: RSS rise < 24 MiB; 401/413
                 when the head arrives, no 100 Continue, the whole answer read
  max-connections  past --max-connections a connection waits (or gets one 503)
  drain          SIGTERM under 16 keep-alive clients: 0 requests lost, idle
                 connections open through the drain, exit 0 within it
  shutdown-delay --shutdown-delay-seconds serves normally before the drain
  rotation       several tokens a file; SIGHUP re-reads it, keeps the old tokens
                 when the file is unusable, logs either, never ends the process
  visibility     evhttp's own answers and accept errors: a JSON line and a counter
                 each; process_cpu_seconds_total, process_open_fds, process_max_fds
  reason-phrases RFC 9110 reason phrases on every status the service sends
  stuck-replies  10 clients whose 1.9 MB replies are stuck go on sending: RSS peak < 64 MiB
  stuck-replies-no-token  the same from paced GET /playground.js, no token: RSS peak < 64 MiB
  memory-budget  81 0.99 MB /compose at once in a 128 MiB budget: RSS < 128 MiB, 200 or
                 503 Retry-After each; the derived limit for 128 MiB counts the reply
  slowloris      100 slow heads at --max-connections 81: a normal client's p99 < 50 ms

Every scenario also checks that no message text ever reaches the server's
stdout or stderr (the texts carry a marker that must never be logged).

Only 127.0.0.1; every loop is bounded in count and time. Standard library only.

    checks/resilience/resilience.py --binary .build/release/notification-text [--quick]
        [--soak-seconds N] [--only slow-clients,sigterm,...]
    checks/resilience/resilience.py --framing-table HOST:PORT   (any server's framing answers)

Exit status 0 when every check passed; figures are printed either way.
"""
import argparse
import json
import re
import os
import random
import resource
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

HOST = "127.0.0.1"
MARKER = "SECRET-7f3a-must-never-be-logged"
START_TIMEOUT_SECONDS = 20.0


# ---------------------------------------------------------------- plumbing

class Failure(Exception):
    pass


class Report:
    """Collects checks and figures of one run."""

    def __init__(self):
        self.failures = []
        self.figures = {}

    def check(self, condition, what):
        status = "ok  " if condition else "FAIL"
        print(f"  [{status}] {what}", flush=True)
        if not condition:
            self.failures.append(what)

    def figure(self, scenario, name, value):
        self.figures.setdefault(scenario, {})[name] = value
        print(f"  {name}: {value}", flush=True)


class Server:
    """One `serve` process on 127.0.0.1, port 0, with its output captured."""

    def __init__(self, binary, extra=(), env=None, preexec_fn=None):
        arguments = [binary, "serve", "--host", HOST, "--port", "0", *extra]
        self.process = subprocess.Popen(
            arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**os.environ, **(env or {})}, preexec_fn=preexec_fn)
        self.stdout_lines = []
        self.stderr_bytes = bytearray()
        self.started = threading.Event()
        self.start_line = None
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        if not self.started.wait(START_TIMEOUT_SECONDS) or self.start_line is None:
            self.kill()
            raise Failure("server printed no start line: " + bytes(self.stderr_bytes).decode(errors="replace")[-500:])
        self.port = self.start_line["port"]
        self.pid = self.start_line["pid"]
        if self.pid != self.process.pid:
            raise Failure(f"start line pid {self.pid} is not the child's pid {self.process.pid}")

    def _read_stdout(self):
        for raw in self.process.stdout:
            line = raw.decode("utf-8", errors="replace")
            self.stdout_lines.append(line)
            if self.start_line is None:
                try:
                    event = json.loads(line)
                except ValueError:
                    continue
                if event.get("event") == "start":
                    self.start_line = event
                    self.started.set()
        self.started.set()

    def _read_stderr(self):
        while True:
            chunk = self.process.stderr.read1(65536) if hasattr(self.process.stderr, "read1") else self.process.stderr.read(65536)
            if not chunk:
                return
            self.stderr_bytes += chunk

    def alive(self):
        return self.process.poll() is None

    def rss_kib(self):
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return -1

    def fd_count(self):
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def stop(self, timeout=20.0):
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return None

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)

    def output_text(self):
        return "".join(self.stdout_lines) + bytes(self.stderr_bytes).decode("utf-8", errors="replace")

    def events(self, *names):
        """The JSON lines on stdout or stderr whose "event" is one of `names`, in order per stream."""
        lines = list(self.stdout_lines) + bytes(self.stderr_bytes).decode("utf-8", errors="replace").splitlines()
        found = []
        for line in lines:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if isinstance(event, dict) and event.get("event") in names:
                found.append(event)
        return found

    def stop_event(self):
        for line in self.stdout_lines:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if event.get("event") == "stop":
                return event
        return None


def read_response(sock, deadline):
    """Reads one HTTP/1.1 response; returns (status, headers, body) or raises."""
    buffer = bytearray()
    while b"\r\n\r\n" not in buffer:
        sock.settimeout(max(0.05, deadline - time.monotonic()))
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed before a complete response head" if buffer else "closed without a response")
        buffer += chunk
        if len(buffer) > 1 << 20:
            raise ConnectionError("response head too large")
    head, _, rest = bytes(buffer).partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/"):
        raise ConnectionError("not an HTTP response: " + lines[0][:80])
    status = int(parts[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    body = bytearray(rest)
    if "content-length" in headers:
        length = int(headers["content-length"])
        while len(body) < length:
            sock.settimeout(max(0.05, deadline - time.monotonic()))
            chunk = sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed in the middle of a response body")
            body += chunk
        body = body[:length]
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        raise ConnectionError("chunked responses are not expected from this server")
    else:
        while True:
            sock.settimeout(max(0.05, deadline - time.monotonic()))
            chunk = sock.recv(65536)
            if not chunk:
                break
            body += chunk
    return status, headers, bytes(body)


def request_bytes(method, path, body=b"", headers=None, keep_alive=True):
    lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}"]
    all_headers = {"Content-Type": "application/json"} if body else {}
    all_headers.update(headers or {})
    if body or method == "POST":
        all_headers.setdefault("Content-Length", str(len(body)))
    if not keep_alive:
        all_headers["Connection"] = "close"
    lines += [f"{name}: {value}" for name, value in all_headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def connect(port, timeout=5.0):
    sock = socket.create_connection((HOST, port), timeout=timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def one_request(port, method, path, body=b"", headers=None, timeout=10.0):
    """A request on a fresh connection; (status, headers, body)."""
    with connect(port, timeout) as sock:
        sock.sendall(request_bytes(method, path, body, headers, keep_alive=False))
        return read_response(sock, time.monotonic() + timeout)


def body_request(index):
    text = f"**{MARKER}** message {index} with [a link](https://x.io/{index}) and `code`"
    return json.dumps({"text": text}).encode()


def compose_request(index, count=50):
    notifications = [{
        "id": f"n{index}-{n}", "source": "chat", "type": "message",
        "timestamp": "2026-11-29T11:59:%02dZ" % (n % 60), "thread": "t1",
        "sender": {"id": f"u{n % 7}", "name": f"{MARKER} sender {n % 7}"},
        "text": f"{MARKER} hello **{n}**",
    } for n in range(count)]
    return json.dumps({"now": "2026-11-29T12:00:00Z", "notifications": notifications}).encode()


def check_no_marker(report, server, scenario):
    report.check(MARKER not in server.output_text(), f"{scenario}: no message text or name in the server's logs")


# ---------------------------------------------------------------- scenarios

def scenario_slow_clients(binary, report, quick):
    """100 clients sending one byte a second must not stop normal clients."""
    print("slow-clients", flush=True)
    slow_count = 100
    seconds = 6.0 if quick else 15.0
    server = Server(binary, ["--threads", "2", "--access-log", "off"])
    try:
        slow_request = request_bytes("POST", "/body", body_request(0))
        slow = []
        for _ in range(slow_count):
            sock = connect(server.port)
            sock.setblocking(False)
            slow.append(sock)
        # How each slow client ended: still open, answered (with its status), or closed.
        outcome = {}
        normal = {"ok": 0, "failed": 0, "latencies": []}
        stop = threading.Event()

        def normal_client():
            index = 0
            while not stop.is_set():
                index += 1
                started = time.monotonic()
                try:
                    status, _, _ = one_request(server.port, "POST", "/body", body_request(index), timeout=5.0)
                    if status == 200:
                        normal["ok"] += 1
                        normal["latencies"].append(time.monotonic() - started)
                    else:
                        normal["failed"] += 1
                except (OSError, ConnectionError):
                    normal["failed"] += 1
                time.sleep(0.02)

        workers = [threading.Thread(target=normal_client) for _ in range(4)]
        for worker in workers:
            worker.start()
        begin = time.monotonic()
        sent = 0
        while time.monotonic() - begin < seconds and sent < len(slow_request):
            for index, sock in enumerate(slow):
                if index in outcome:
                    continue
                try:
                    sock.send(slow_request[sent:sent + 1])
                except OSError:
                    outcome[index] = f"closed after {round(time.monotonic() - begin)} s"
                    continue
                try:
                    data = sock.recv(4096)
                    if not data:
                        outcome[index] = f"closed after {round(time.monotonic() - begin)} s"
                    else:
                        outcome[index] = "answered " + data.split(b" ", 2)[1].decode(errors="replace")
                except BlockingIOError:
                    pass
                except OSError:
                    outcome[index] = f"closed after {round(time.monotonic() - begin)} s"
            sent += 1
            time.sleep(1.0)
        stop.set()
        for worker in workers:
            worker.join(15)
        for index, sock in enumerate(slow):
            if index not in outcome:
                outcome[index] = "still open"
            sock.close()
        latencies = sorted(normal["latencies"])
        summary = {}
        for value in outcome.values():
            summary[value] = summary.get(value, 0) + 1
        report.figure("slow-clients", "duration_seconds", round(seconds, 1))
        report.figure("slow-clients", "slow_client_outcomes", summary)
        report.figure("slow-clients", "normal_requests_ok", normal["ok"])
        report.figure("slow-clients", "normal_requests_failed", normal["failed"])
        if latencies:
            report.figure("slow-clients", "normal_latency_ms_p50_p99_max", [
                round(latencies[len(latencies) // 2] * 1000, 1),
                round(latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000, 1),
                round(latencies[-1] * 1000, 1)])
        report.check(normal["ok"] >= 20 and normal["failed"] == 0,
                     f"slow-clients: normal clients served while {slow_count} slow clients trickle (ok {normal['ok']}, failed {normal['failed']})")
        report.check(server.alive(), "slow-clients: server still running")
        check_no_marker(report, server, "slow-clients")
    finally:
        server.stop()


def scenario_sigterm(binary, report, quick):
    """SIGTERM under load: every request fully sent before the signal gets a complete response."""
    print("sigterm", flush=True)
    rounds = 2 if quick else 5
    totals = {"sent_before": 0, "answered_before": 0, "lost": 0, "after_answered": 0, "after_refused": 0}
    for round_index in range(rounds):
        server = Server(binary, ["--threads", "2", "--access-log", "off", "--drain-seconds", "10"])
        signalled_at = [None]
        records = []  # (sent_at, outcome) per request
        lock = threading.Lock()
        stop = threading.Event()

        def client(worker):
            sock = None
            index = 0
            while not stop.is_set():
                index += 1
                heavy = (index + worker) % 3 == 0
                payload = compose_request(index, 400) if heavy else body_request(index)
                data = request_bytes("POST", "/compose" if heavy else "/body", payload)
                try:
                    if sock is None:
                        sock = connect(server.port)
                    sock.sendall(data)
                except OSError:
                    if sock is not None:
                        sock.close()
                    sock = None
                    with lock:
                        records.append((time.monotonic(), "refused"))
                    if signalled_at[0] is not None:
                        return
                    continue
                sent_at = time.monotonic()
                try:
                    status, headers, _ = read_response(sock, sent_at + 20)
                    outcome = f"status {status}"
                    if headers.get("connection", "").lower() == "close":
                        sock.close()
                        sock = None
                except (OSError, ConnectionError) as error:
                    outcome = f"lost: {error}"
                    sock.close()
                    sock = None
                with lock:
                    records.append((sent_at, outcome))
                if signalled_at[0] is not None and time.monotonic() - signalled_at[0] > 1.0:
                    break
            if sock is not None:
                sock.close()

        workers = [threading.Thread(target=client, args=(n,)) for n in range(12)]
        for worker in workers:
            worker.start()
        time.sleep(1.0 + 0.37 * round_index)
        signalled_at[0] = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        try:
            exit_code = server.process.wait(25)
        except subprocess.TimeoutExpired:
            exit_code = None
        stop.set()
        for worker in workers:
            worker.join(25)
        server.kill()
        cutoff = signalled_at[0]
        before = [outcome for sent_at, outcome in records if sent_at < cutoff and outcome != "refused"]
        after = [outcome for sent_at, outcome in records if sent_at >= cutoff]
        lost = [outcome for outcome in before if outcome != "status 200"]
        lost_lead_ms = sorted(round((cutoff - sent_at) * 1000, 1) for sent_at, outcome in records
                              if sent_at < cutoff and outcome not in ("refused", "status 200"))
        totals["sent_before"] += len(before)
        totals["answered_before"] += len(before) - len(lost)
        totals["lost"] += len(lost)
        totals["after_answered"] += sum(1 for outcome in after if outcome.startswith("status"))
        totals["after_refused"] += sum(1 for outcome in after if not outcome.startswith("status"))
        stop_event = server.stop_event()
        report.check(exit_code == 0, f"sigterm round {round_index + 1}: exit status 0 after draining (got {exit_code})")
        report.check(stop_event is not None and stop_event.get("reason") == "SIGTERM",
                     f"sigterm round {round_index + 1}: stop line names SIGTERM ({stop_event})")
        report.check(not lost, f"sigterm round {round_index + 1}: {len(before)} requests sent before SIGTERM, "
                               f"{len(lost)} without a complete 200 {sorted(set(lost))[:3]}"
                               + (f", sent {lost_lead_ms[:8]} ms before the signal" if lost else ""))
        check_no_marker(report, server, f"sigterm round {round_index + 1}")
    report.figure("sigterm", "rounds", rounds)
    for name, value in totals.items():
        report.figure("sigterm", name, value)


def malformed_kinds():
    """(name, raw request bytes, expectation). Expectations:
    an int: exactly that status; "4xx": any 4xx; "4xx-or-close": a 4xx or the
    connection closed without a response (evhttp's documented answer to a
    request head it cannot parse or that exceeds --max-header-bytes);
    a (status, code) pair: that status with that problem+json code."""
    body = b'{"text":"x"}'
    post = lambda path, payload, headers=None: request_bytes("POST", path, payload, headers)
    big_header = "X-Fill: " + "a" * 20000
    kinds = [
        ("garbage-request-line", b"GARBAGE\r\n\r\n", "4xx-or-close"),
        ("request-line-no-target", b"GET HTTP/1.1\r\n\r\n", "4xx-or-close"),
        ("bad-http-version", b"GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n", "4xx-or-close"),
        ("http-version-garbage", b"GET /healthz HTTX/1.1\r\nHost: x\r\n\r\n", "4xx-or-close"),
        ("nul-in-request-line", b"GET /heal\x00thz HTTP/1.1\r\nHost: x\r\n\r\n", "4xx-or-close"),
        ("oversized-header", f"GET /healthz HTTP/1.1\r\nHost: x\r\n{big_header}\r\n\r\n".encode(), "4xx-or-close"),
        ("many-headers", ("GET /healthz HTTP/1.1\r\n" + "".join(f"X-H{n}: v\r\n" for n in range(3000)) + "\r\n").encode(), "4xx-or-close"),
        ("header-without-colon", b"GET /healthz HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n", "4xx-or-close"),
        ("content-length-not-a-number", b"POST /body HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n" + body, "4xx-or-close"),
        ("content-length-negative", b"POST /body HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n" + body, "4xx-or-close"),
        ("chunk-size-garbage", b"POST /body HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n", "4xx-or-close"),
        ("body-too-large", post("/body", b'{"text":"' + b"a" * 1_100_000 + b'"}'), (413, "payload-too-large")),
        ("uri-too-long", f"GET /{'a' * 5000} HTTP/1.1\r\nHost: x\r\n\r\n".encode(), "4xx-or-close"),
        ("unknown-path", request_bytes("GET", "/nope"), (404, "not-found")),
        ("trailing-slash", request_bytes("GET", "/healthz/"), (404, "not-found")),
        ("get-body", request_bytes("GET", "/body"), (405, "method-not-allowed")),
        ("post-healthz", post("/healthz", body), (405, "method-not-allowed")),
        ("delete-compose", request_bytes("DELETE", "/compose"), (405, "method-not-allowed")),
        ("text-plain", post("/body", body, {"Content-Type": "text/plain"}), (415, "unsupported-media-type")),
        ("gzip-encoding", post("/body", body, {"Content-Encoding": "gzip"}), (415, "unsupported-media-type")),
        ("latin1-charset", post("/body", body, {"Content-Type": "application/json; charset=latin1"}), (415, "unsupported-media-type")),
        ("invalid-utf8", post("/body", b'{"text":"\xff\xfe"}'), (400, "invalid-utf8")),
        ("overlong-utf8", post("/body", b'{"text":"\xc0\xaf"}'), (400, "invalid-utf8")),
        ("truncated-json", post("/body", b'{"text":"ab'), (400, "invalid-json")),
        ("empty-body", post("/body", b""), (400, "invalid-json")),
        ("trailing-garbage", post("/body", b'{"text":"a"} x'), (400, "invalid-json")),
        ("lone-surrogate", post("/body", b'{"text":"\\ud800"}'), (400, "lone-surrogate")),
        ("deep-nesting", post("/body", b"[" * 100_000), (400, "nesting-too-deep")),
        ("duplicate-member", post("/body", b'{"text":"a","text":"b"}'), (400, "duplicate-member")),
        ("text-wrong-type", post("/body", b'{"text":5}'), (400, "invalid-type")),
        ("top-level-array", post("/body", b'["text"]'), (400, "invalid-type")),
        ("missing-text", post("/body", b'{}'), (400, "missing-field")),
        ("max-units-too-small", post("/body", b'{"text":"a","maxUnits":10}'), (400, "out-of-range")),
        ("max-units-fraction", post("/body", b'{"text":"a","maxUnits":300.5}'), "4xx"),
        ("compose-bad-timestamp", post("/compose", b'{"now":"2026-02-30T00:00:00Z","notifications":[]}'), (400, "invalid-timestamp")),
        ("compose-notifications-object", post("/compose", b'{"notifications":{}}'), (400, "invalid-type")),
        ("compose-missing-id", post("/compose", b'{"notifications":[{"type":"message","timestamp":"2026-11-29T12:00:00Z"}]}'), (400, "missing-field")),
        ("compose-bad-fetch", post("/compose", b'{"fetch":"maybe"}'), (400, "invalid-value")),
        ("compose-too-many", post("/compose", json.dumps({"notifications": [
            {"id": str(n), "type": "x", "timestamp": "2026-11-29T12:00:00Z"} for n in range(1001)]}).encode()), (400, "out-of-range")),
        ("compose-max-age-negative", post("/compose", b'{"notifications":[],"maxAgeSeconds":-1}'), (400, "out-of-range")),
    ]
    return kinds


def classify(port, raw, timeout=10.0, half_close=False):
    """Sends raw bytes on a fresh connection; ("status", n, headers, body) or ("close", reason)."""
    try:
        with connect(port, timeout) as sock:
            try:
                sock.sendall(raw)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the server may answer and close before reading everything
            if half_close:
                try:
                    sock.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
            status, headers, body = read_response(sock, time.monotonic() + timeout)
            return ("status", status, headers, body)
    except (ConnectionError, OSError) as error:
        return ("close", str(error))


def scenario_malformed(binary, report, quick):
    """A thousand malformed requests of >= 30 kinds; each its 4xx; the server keeps serving."""
    print("malformed", flush=True)
    total = 1000
    kinds = malformed_kinds()
    server = Server(binary, ["--threads", "2", "--access-log", "off"])
    try:
        results = {name: {} for name, _, _ in kinds}
        wrong = []
        lock = threading.Lock()
        counter = iter(range(total))

        def worker():
            for index in counter:
                name, raw, expectation = kinds[index % len(kinds)]
                outcome = classify(server.port, raw)
                label = f"{outcome[1]}" if outcome[0] == "status" else "close"
                good = False
                if outcome[0] == "status":
                    status = outcome[1]
                    if isinstance(expectation, tuple):
                        try:
                            problem = json.loads(outcome[3])
                        except ValueError:
                            problem = {}
                        good = (status == expectation[0]
                                and outcome[2].get("content-type") == "application/problem+json"
                                and problem.get("code") == expectation[1])
                        label = f"{status} {problem.get('code')}"
                    elif expectation in ("4xx", "4xx-or-close"):
                        good = 400 <= status < 500
                    else:
                        good = status == expectation
                else:
                    good = expectation == "4xx-or-close"
                with lock:
                    results[name][label] = results[name].get(label, 0) + 1
                    if not good:
                        wrong.append((name, label, expectation))

        threads = [threading.Thread(target=worker) for _ in range(4)]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        elapsed = time.monotonic() - started
        report.figure("malformed", "requests", total)
        report.figure("malformed", "kinds", len(kinds))
        report.figure("malformed", "seconds", round(elapsed, 1))
        report.figure("malformed", "outcomes", {name: outcome for name, outcome in results.items()})
        report.check(len(kinds) >= 30, f"malformed: at least 30 kinds ({len(kinds)})")
        report.check(not wrong, f"malformed: every request got its expected answer ({len(wrong)} did not: {sorted(set(map(str, wrong)))[:5]})")
        status, _, _ = one_request(server.port, "POST", "/body", body_request(1))
        report.check(server.alive() and status == 200, "malformed: server still serves afterwards")
        check_no_marker(report, server, "malformed")
    finally:
        server.stop()


def scenario_resets(binary, report, quick):
    """Clients that reset the connection mid-body leave no descriptor behind."""
    print("resets", flush=True)
    count = 200 if quick else 1000
    server = Server(binary, ["--threads", "2", "--access-log", "off"])
    try:
        one_request(server.port, "GET", "/healthz")
        time.sleep(0.3)
        fds_before = server.fd_count()
        payload = body_request(1)
        linger = struct.pack("ii", 1, 0)
        for index in range(count):
            sock = connect(server.port)
            head = request_bytes("POST", "/body", b"", {"Content-Length": str(len(payload) + 10_000)})
            sock.sendall(head + payload[: (index % len(payload)) + 1])
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
            sock.close()  # SO_LINGER 0: an RST instead of a FIN
        status, _, _ = one_request(server.port, "POST", "/body", body_request(2))
        deadline = time.monotonic() + 5
        fds_after = server.fd_count()
        while fds_after > fds_before and time.monotonic() < deadline:
            time.sleep(0.1)
            fds_after = server.fd_count()
        report.figure("resets", "resets", count)
        report.figure("resets", "fds_before_after", [fds_before, fds_after])
        report.check(status == 200 and server.alive(), "resets: server still serves after mid-body resets")
        report.check(fds_after <= fds_before, f"resets: descriptors back to {fds_before} (now {fds_after})")
    finally:
        server.stop()


def scenario_soak(binary, report, quick, soak_seconds):
    """Mixed traffic for a bounded time; RSS, descriptors and errors before and after."""
    print("soak", flush=True)
    server = Server(binary, ["--threads", "2"])
    try:
        # Warm up so that one-time allocations (caches, buffers, thread stacks) are in the baseline.
        for index in range(200):
            one_request(server.port, "POST", "/body", body_request(index))
            one_request(server.port, "POST", "/compose", compose_request(index, 20))
        time.sleep(0.3)
        before = {"rss_kib": server.rss_kib(), "fds": server.fd_count()}
        counts = {"requests": 0, "errors": 0, "malformed": 0, "resets": 0}
        samples = []
        lock = threading.Lock()
        stop = threading.Event()
        kinds = malformed_kinds()

        def keep_alive_client(worker):
            sock = None
            index = 0
            while not stop.is_set():
                index += 1
                heavy = index % 5 == 0
                data = request_bytes("POST", "/compose" if heavy else "/body",
                                     compose_request(index, 100) if heavy else body_request(index))
                try:
                    if sock is None:
                        sock = connect(server.port)
                    sock.sendall(data)
                    status, _, _ = read_response(sock, time.monotonic() + 10)
                    ok = status == 200
                except (OSError, ConnectionError):
                    ok = False
                    if sock is not None:
                        sock.close()
                    sock = None
                with lock:
                    counts["requests"] += 1
                    counts["errors"] += 0 if ok else 1
                if index % 50 == 0 and sock is not None:
                    sock.close()
                    sock = None
            if sock is not None:
                sock.close()

        def hostile_client():
            index = 0
            linger = struct.pack("ii", 1, 0)
            while not stop.is_set():
                index += 1
                name, raw, _ = kinds[index % len(kinds)]
                if name in ("body-too-large", "deep-nesting", "compose-too-many"):
                    continue  # large bodies are covered by `malformed`; keep the soak about churn
                classify(server.port, raw, timeout=5)
                with lock:
                    counts["malformed"] += 1
                try:
                    sock = connect(server.port)
                    sock.sendall(request_bytes("POST", "/body", b"", {"Content-Length": "5000"}) + b'{"te')
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
                    sock.close()
                    with lock:
                        counts["resets"] += 1
                except OSError:
                    pass
                time.sleep(0.005)

        threads = [threading.Thread(target=keep_alive_client, args=(n,)) for n in range(4)]
        threads.append(threading.Thread(target=hostile_client))
        for thread in threads:
            thread.start()
        started = time.monotonic()
        while time.monotonic() - started < soak_seconds:
            time.sleep(min(5.0, soak_seconds / 4))
            samples.append((round(time.monotonic() - started), server.rss_kib(), server.fd_count()))
        stop.set()
        for thread in threads:
            thread.join(30)
        time.sleep(0.5)
        after = {"rss_kib": server.rss_kib(), "fds": server.fd_count()}
        report.figure("soak", "seconds", soak_seconds)
        report.figure("soak", "counts", counts)
        report.figure("soak", "before", before)
        report.figure("soak", "after", after)
        report.figure("soak", "samples_seconds_rss_kib_fds", samples)
        report.check(counts["errors"] == 0, f"soak: no errors on well-formed requests ({counts['errors']} of {counts['requests']})")
        report.check(after["fds"] <= before["fds"], f"soak: descriptors back to {before['fds']} (now {after['fds']})")
        # A leak of even 100 bytes per request would show as many megabytes here;
        # allocator caches settle within the first samples.
        growth_kib = after["rss_kib"] - before["rss_kib"]
        report.check(growth_kib < 64 * 1024, f"soak: resident memory grew {growth_kib} KiB (< 64 MiB)")
        check_no_marker(report, server, "soak")
    finally:
        code = server.stop()
        report.check(code == 0, f"soak: clean exit after SIGTERM (status {code})")


def scenario_access(binary, report, quick):
    """--auth-token-file and --metrics-port on the real binary."""
    print("access", flush=True)
    token = "tok-" + os.urandom(12).hex()
    with tempfile.NamedTemporaryFile("w", suffix=".token", delete=False) as file:
        file.write(token + "\n")
        token_path = file.name
    try:
        server = Server(binary, ["--threads", "1", "--auth-token-file", token_path, "--metrics-port", "0"])
        try:
            port = server.port
            metrics_port = server.start_line.get("metricsPort")
            report.check(isinstance(metrics_port, int) and metrics_port != port,
                         f"access: start line names the metrics listener ({server.start_line.get('metricsAddress')})")
            body = body_request(1)
            status, headers, _ = one_request(port, "POST", "/body", body)
            report.check(status == 401 and headers.get("www-authenticate", "").startswith("Bearer"),
                         f"access: no token → 401 with WWW-Authenticate: Bearer (got {status})")
            status, headers, answer = one_request(port, "POST", "/body", body, {"Authorization": "Bearer wrong-" + token})
            code = json.loads(answer or b"{}").get("code")
            report.check(status == 401 and code == "unauthorized" and "invalid_token" in headers.get("www-authenticate", ""),
                         f"access: wrong token → 401 unauthorized, error=invalid_token (got {status} {code})")
            status, _, _ = one_request(port, "POST", "/body", body, {"Authorization": "Bearer " + token})
            report.check(status == 200, f"access: right token → 200 (got {status})")
            status, _, _ = one_request(port, "GET", "/nope")
            report.check(status == 401, f"access: unknown path without token → 401, not 404 (got {status})")
            for path in ("/healthz", "/readyz"):
                status, _, _ = one_request(port, "GET", path)
                report.check(status == 200, f"access: {path} needs no token (got {status})")
            status, _, _ = one_request(port, "GET", "/metrics")
            report.check(status == 401, f"access: /metrics on the main port needs the token (got {status})")
            if isinstance(metrics_port, int):
                status, headers, text = one_request(metrics_port, "GET", "/metrics")
                report.check(status == 200 and b"notification_text" in text,
                             f"access: /metrics on the metrics port without a token → 200 (got {status})")
                report.check(token.encode() not in text, "access: the token is not in the metrics")
                status, _, _ = one_request(metrics_port, "POST", "/body", body, {"Authorization": "Bearer " + token})
                report.check(status == 404, f"access: the metrics port serves nothing else (POST /body → {status})")
            report.check(server.alive(), "access: server still running")
        finally:
            server.stop()
        report.check(token not in server.output_text(), "access: the token never appears in the server's output")
        check_no_marker(report, server, "access")
        with open(token_path, "w"):
            pass
        failed = subprocess.run([binary, "serve", "--port", "0", "--auth-token-file", token_path],
                                capture_output=True, timeout=20)
        report.check(failed.returncode == 64 and b"empty" in failed.stderr,
                     f"access: an empty token file stops the start with 64 (got {failed.returncode})")
    finally:
        os.unlink(token_path)


# ---------------------------------------------------------------- framing

# Every framing case is followed by this request on the same connection; a
# server that reads the case's bytes the way its sender meant answers it once.
FOLLOW = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
# What a desynchronised server answers as a second request of its own (the
# service answers it 404; the nginx set-up of docs/adr/0016 too).
SMUGGLED = b"GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n"
JSON_BODY = b'{"text":"x"}'


def chunked(data):
    return b"%x\r\n" % len(data) + data + b"\r\n0\r\n\r\n"


def head(request_line, *fields):
    """A request head; `fields` are raw header lines (bytes), each without its CRLF."""
    return request_line + b"\r\nHost: x\r\n" + b"".join(field + b"\r\n" for field in fields) + b"\r\n"


def cl(data):
    return b"Content-Length: %d" % len(data)


# Target answers. ("reject", statuses): exactly one answer, one of `statuses`,
# application/problem+json, `Connection: close`, then the connection closed
# (no reset, no answer to anything after it). ("serve", status): the case
# answered `status`, the following request answered 200, the connection open.
# ("one", status): one answer, `status`, then the connection closed.
REJECT = ("reject", (400, 501))
REJECT_SIZE = ("reject", (400, 413))
SERVE = ("serve", 200)
SERVE_405 = ("serve", 405)
ONE = ("one", 200)

POST = b"POST /body HTTP/1.1"
TE_CHUNKED = b"Transfer-Encoding: chunked"


def framing_cases():
    """(name, raw bytes sent before FOLLOW, True when the first request is a HEAD, acceptable targets)."""
    return [
        ("content-length", head(POST, cl(JSON_BODY)) + JSON_BODY, False, (SERVE,)),
        ("chunked", head(POST, TE_CHUNKED) + chunked(JSON_BODY), False, (SERVE,)),
        ("chunked-with-trailer", head(POST, TE_CHUNKED) + b"c\r\n" + JSON_BODY + b"\r\n0\r\nX-Trailer: v\r\n\r\n", False, (SERVE,)),
        ("transfer-encoding-uppercase", head(POST, b"Transfer-Encoding: CHUNKED") + chunked(JSON_BODY), False, (SERVE,)),
        ("content-length-leading-zeros", head(POST, b"Content-Length: 0012") + JSON_BODY, False, (SERVE,)),
        ("content-length-trailing-space", head(POST, b"Content-Length: 12 ") + JSON_BODY, False, (SERVE,)),
        ("http10-keep-alive", head(b"POST /body HTTP/1.0", b"Connection: keep-alive", cl(JSON_BODY)) + JSON_BODY, False, (SERVE,)),
        ("http10-no-keep-alive", head(b"POST /body HTTP/1.0", cl(JSON_BODY)) + JSON_BODY, False, (ONE,)),
        ("connection-close", head(POST, b"Connection: close", cl(JSON_BODY)) + JSON_BODY, False, (ONE,)),
        ("bare-lf-line-ends", b"POST /body HTTP/1.1\nHost: x\nContent-Length: 12\n\n" + JSON_BODY, False, (SERVE, REJECT)),
        ("chunk-extension", head(POST, TE_CHUNKED) + b"c;name=value\r\n" + JSON_BODY + b"\r\n0\r\n\r\n", False, (SERVE, REJECT)),
        ("content-length-twice-same", head(POST, cl(JSON_BODY), cl(JSON_BODY)) + JSON_BODY, False, (REJECT,)),
        ("content-length-list-same", head(POST, b"Content-Length: 12, 12") + JSON_BODY, False, (REJECT,)),
        ("content-length-twice-0-then-n", head(POST, b"Content-Length: 0", cl(SMUGGLED)) + SMUGGLED, False, (REJECT,)),
        ("content-length-twice-n-then-0", head(POST, cl(SMUGGLED), b"Content-Length: 0") + SMUGGLED, False, (REJECT,)),
        ("content-length-and-chunked", head(POST, cl(b"0\r\n\r\n" + SMUGGLED), TE_CHUNKED) + b"0\r\n\r\n" + SMUGGLED, False, (REJECT,)),
        ("chunked-and-content-length", head(POST, TE_CHUNKED, cl(b"0\r\n\r\n" + SMUGGLED)) + b"0\r\n\r\n" + SMUGGLED, False, (REJECT,)),
        ("transfer-encoding-xchunked", head(POST, b"Transfer-Encoding: xchunked") + SMUGGLED, False, (REJECT,)),
        ("transfer-encoding-chunked-identity", head(POST, b"Transfer-Encoding: chunked, identity") + SMUGGLED, False, (REJECT,)),
        ("transfer-encoding-identity", head(POST, b"Transfer-Encoding: identity") + SMUGGLED, False, (REJECT,)),
        ("transfer-encoding-gzip-chunked", head(POST, b"Transfer-Encoding: gzip, chunked") + chunked(SMUGGLED), False, (REJECT,)),
        ("transfer-encoding-empty", head(POST, b"Transfer-Encoding:", cl(JSON_BODY)) + JSON_BODY, False, (REJECT,)),
        ("transfer-encoding-twice", head(POST, TE_CHUNKED, TE_CHUNKED) + chunked(JSON_BODY), False, (REJECT,)),
        ("transfer-encoding-identity-then-chunked", head(POST, b"Transfer-Encoding: identity", TE_CHUNKED) + SMUGGLED, False, (REJECT,)),
        ("transfer-encoding-obs-fold", head(POST, b"Transfer-Encoding:", b" chunked") + SMUGGLED, False, (REJECT,)),
        ("transfer-encoding-tab-before-value", head(POST, b"Transfer-Encoding:\tchunked") + chunked(JSON_BODY), False, (SERVE, REJECT)),
        ("transfer-encoding-http10", head(b"POST /body HTTP/1.0", b"Connection: keep-alive", TE_CHUNKED) + chunked(JSON_BODY), False, (REJECT,)),
        ("space-before-colon-content-length", head(POST, b"Content-Length : %d" % len(SMUGGLED)) + SMUGGLED, False, (REJECT,)),
        ("space-before-colon-transfer-encoding", head(POST, b"Transfer-Encoding : chunked") + SMUGGLED, False, (REJECT,)),
        ("head-with-content-length-body", head(b"HEAD /healthz HTTP/1.1", cl(SMUGGLED)) + SMUGGLED, True, (REJECT,)),
        ("get-with-content-length-body", head(b"GET /healthz HTTP/1.1", cl(SMUGGLED)) + SMUGGLED, False, (REJECT, SERVE)),
        ("get-with-chunked-body", head(b"GET /healthz HTTP/1.1", TE_CHUNKED) + chunked(SMUGGLED), False, (REJECT, SERVE)),
        ("delete-with-content-length-body", head(b"DELETE /body HTTP/1.1", cl(SMUGGLED)) + SMUGGLED, False, (REJECT, SERVE_405)),
        ("options-with-content-length-body", head(b"OPTIONS /body HTTP/1.1", cl(SMUGGLED)) + SMUGGLED, False, (REJECT, SERVE_405)),
        ("content-length-negative", head(POST, b"Content-Length: -1") + JSON_BODY, False, (REJECT,)),
        ("content-length-plus-sign", head(POST, b"Content-Length: +12") + JSON_BODY, False, (REJECT,)),
        ("content-length-huge", head(POST, b"Content-Length: 99999999999999999999") + JSON_BODY, False, (REJECT_SIZE,)),
        ("content-length-not-a-number", head(POST, b"Content-Length: 12abc") + JSON_BODY, False, (REJECT,)),
        ("content-length-empty", head(POST, b"Content-Length:") + JSON_BODY, False, (REJECT,)),
        ("chunk-size-overflow", head(POST, TE_CHUNKED) + b"10000000000000000c\r\n" + JSON_BODY + b"\r\n0\r\n\r\n", False, (REJECT_SIZE,)),
        ("chunk-size-0x-prefix", head(POST, TE_CHUNKED) + b"0xc\r\n" + JSON_BODY + b"\r\n0\r\n\r\n", False, (REJECT,)),
        ("chunk-size-negative", head(POST, TE_CHUNKED) + b"-c\r\n" + JSON_BODY + b"\r\n0\r\n\r\n", False, (REJECT,)),
        ("chunk-size-space-garbage", head(POST, TE_CHUNKED) + b"c garbage\r\n" + JSON_BODY + b"\r\n0\r\n\r\n", False, (REJECT, SERVE)),
        ("chunk-extension-invalid", head(POST, TE_CHUNKED) + b"c;\x01\r\n" + JSON_BODY + b"\r\n0\r\n\r\n", False, (REJECT, SERVE)),
        ("chunk-data-without-crlf", head(POST, TE_CHUNKED) + b"c\r\n" + JSON_BODY + b"0\r\n\r\n", False, (REJECT,)),
        ("chunk-extra-blank-line", head(POST, TE_CHUNKED) + b"c\r\n" + JSON_BODY + b"\r\n\r\n0\r\n\r\n", False, (REJECT,)),
        ("chunked-without-last-chunk", head(POST, TE_CHUNKED) + b"c\r\n" + JSON_BODY + b"\r\n" + SMUGGLED, False, (REJECT,)),
    ]


def parse_response(buffer, is_head, at_end):
    """One complete response at the start of `buffer`: (bytes used, status,
    headers, body), or None while it is incomplete."""
    end = buffer.find(b"\r\n\r\n")
    if end < 0:
        return None
    lines = bytes(buffer[:end]).decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
        raise ConnectionError("not an HTTP response: " + lines[0][:80])
    status = int(parts[1])
    headers = {"reason": parts[2] if len(parts) > 2 else ""}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    start = end + 4
    if is_head or 100 <= status < 200 or status in (204, 304):
        return start, status, headers, b""
    if "content-length" in headers:
        length = int(headers["content-length"])
        if len(buffer) < start + length:
            return None
        return start + length, status, headers, bytes(buffer[start:start + length])
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = bytearray()
        position = start
        while True:
            line_end = buffer.find(b"\r\n", position)
            if line_end < 0:
                return None
            size = int(bytes(buffer[position:line_end]).split(b";")[0], 16)
            position = line_end + 2
            if size == 0:
                trailer_end = buffer.find(b"\r\n", position)
                return None if trailer_end < 0 else (trailer_end + 2, status, headers, bytes(body))
            if len(buffer) < position + size + 2:
                return None
            body += buffer[position:position + size]
            position += size + 2
    return (len(buffer), status, headers, bytes(buffer[start:])) if at_end else None


def read_answers(sock, first_is_head=False, quiet_seconds=0.8, limit_seconds=10.0):
    """Every response the server sends until it closes the connection, resets
    it, or stays quiet for `quiet_seconds`: (answers, interim, ending, leftover)
    with answers a list of (status, headers, body), interim the 1xx statuses,
    ending "closed", "reset" or "open", and leftover the bytes that were not a
    complete response."""
    buffer = bytearray()
    answers, interim = [], []
    ending = None
    deadline = time.monotonic() + limit_seconds
    while True:
        while buffer:
            parsed = parse_response(buffer, first_is_head and not answers, ending is not None)
            if parsed is None:
                break
            used, status, headers, body = parsed
            del buffer[:used]
            (interim if 100 <= status < 200 else answers).append(status if status < 200 else (status, headers, body))
        if ending is not None:
            return answers, interim, ending, len(buffer)
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            ending = "open"
            continue
        sock.settimeout(min(quiet_seconds, remaining))
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            ending = "open"
            continue
        except ConnectionResetError:
            ending = "reset"
            continue
        if chunk:
            buffer += chunk
        else:
            ending = "closed"


def framing_outcome(port, raw, first_is_head, host=HOST):
    """Sends a case and FOLLOW on one connection: (answers, interim, ending, leftover)."""
    with socket.create_connection((host, port), timeout=5.0) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            sock.sendall(raw + FOLLOW)
        except (BrokenPipeError, ConnectionResetError):
            pass
        return read_answers(sock, first_is_head)


def describe_outcome(outcome):
    """"400 close", "200, 200 open", "200, 404, 200 open"... as the ADR's table writes them."""
    answers, interim, ending, leftover = outcome
    words = ", ".join(str(status) + ("" if status < 400 or headers.get("content-type") == "application/problem+json"
                                     else f" ({headers.get('content-type', 'no type')})")
                      for status, headers, _ in answers) or "no answer"
    if interim:
        words = " ".join(str(status) for status in interim) + " then " + words
    words += {"closed": " close", "reset": " reset", "open": " open"}[ending]
    return words + (f" (+{leftover} bytes)" if leftover else "")


def meets_target(outcome, target):
    answers, interim, ending, leftover = outcome
    kind, statuses = target
    if leftover or interim:
        return False
    if kind == "reject":
        if len(answers) != 1 or ending != "closed":
            return False
        status, headers, _ = answers[0]
        return (status in statuses and headers.get("content-type") == "application/problem+json"
                and headers.get("connection", "").lower() == "close")
    if kind == "serve":
        return ending == "open" and [status for status, _, _ in answers] == [statuses, 200]
    return ending == "closed" and [status for status, _, _ in answers] == [statuses]


def describe_target(targets):
    words = []
    for kind, statuses in targets:
        if kind == "reject":
            words.append(" or ".join(map(str, statuses)) + " problem close")
        elif kind == "serve":
            words.append(f"{statuses}, 200 open")
        else:
            words.append(f"{statuses} close")
    return " / ".join(words)


def scenario_framing(binary, report, quick):
    """Each request-framing case of docs/adr/0016 gets its target answer, and never a second parse."""
    print("framing", flush=True)
    cases = framing_cases()
    server = Server(binary, ["--threads", "2", "--access-log", "off"])
    try:
        outcomes = {}
        lock = threading.Lock()
        queue = iter(cases)

        def worker():
            for name, raw, first_is_head, _ in queue:
                try:
                    outcome = framing_outcome(server.port, raw, first_is_head)
                except (OSError, ConnectionError) as error:
                    outcome = ([], [], f"error {error}", 0)
                with lock:
                    outcomes[name] = outcome

        threads = [threading.Thread(target=worker) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        failed = []
        for name, _, _, targets in cases:
            outcome = outcomes.get(name, ([], [], "open", 0))
            good = outcome[2] in ("closed", "reset", "open") and any(meets_target(outcome, target) for target in targets)
            described = describe_outcome(outcome) if outcome[2] in ("closed", "reset", "open") else outcome[2]
            report.check(good, f"framing {name}: {described} (target {describe_target(targets)})")
            if not good:
                failed.append(name)
        report.figure("framing", "cases", len(cases))
        report.figure("framing", "off_target", len(failed))
        status, _, _ = one_request(server.port, "POST", "/body", body_request(1))
        report.check(server.alive() and status == 200, "framing: server still serves afterwards")
    finally:
        server.stop()


def print_framing_table(address):
    """Prints each case's answer from any HTTP server at HOST:PORT (for the ADR's nginx column)."""
    host, _, port = address.rpartition(":")
    for name, raw, first_is_head, targets in framing_cases():
        try:
            described = describe_outcome(framing_outcome(int(port), raw, first_is_head, host))
        except (OSError, ConnectionError) as error:
            described = f"error {error}"
        print(f"{name}\t{described}\t{describe_target(targets)}", flush=True)


# ---------------------------------------------------------------- hostile clients and operations

MIB = 1024 * 1024


class RSSSampler:
    """Samples a server's resident memory every 50 ms in a thread; `peak_kib`
    after `stop`. Past `cutoff_kib` it sets `exceeded`, so a scenario whose
    check has already failed stops before it exhausts the machine."""

    def __init__(self, server, cutoff_kib=256 * 1024):
        self.server = server
        self.cutoff_kib = cutoff_kib
        self.peak_kib = server.rss_kib()
        self.exceeded = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.wait(0.05):
            try:
                self.peak_kib = max(self.peak_kib, self.server.rss_kib())
            except OSError:
                return
            if self.peak_kib > self.cutoff_kib:
                self.exceeded.set()

    def stop(self):
        self._stop.set()
        self._thread.join(5)
        return self.peak_kib


class NormalTraffic:
    """One well-behaved client (a request every 20 ms on a fresh connection)
    while something hostile happens; counts what was not answered 200."""

    def __init__(self, port, headers=None):
        self.port = port
        self.headers = headers
        self.ok = 0
        self.failed = []
        self.latencies = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        index = 0
        while not self._stop.is_set():
            index += 1
            started = time.monotonic()
            try:
                status, _, _ = one_request(self.port, "POST", "/body", body_request(index), self.headers, timeout=5.0)
                if status == 200:
                    self.ok += 1
                    self.latencies.append(time.monotonic() - started)
                else:
                    self.failed.append(f"status {status}")
            except (OSError, ConnectionError) as error:
                self.failed.append(str(error)[:60])
            self._stop.wait(0.02)

    def stop(self):
        self._stop.set()
        self._thread.join(15)
        latencies = sorted(self.latencies)
        return latencies[-1] * 1000 if latencies else None


def scenario_pipelining(binary, report, quick):
    """Clients that pipeline GET /healthz and never read a reply: memory stays bounded, others are served."""
    print("pipelining", flush=True)
    clients = 10
    seconds = 4.0 if quick else 10.0
    server = Server(binary, ["--threads", "2", "--access-log", "off"])
    try:
        one_request(server.port, "GET", "/healthz")
        baseline_kib = server.rss_kib()
        pipeline = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n" * 2000
        accepted = [0] * clients
        ends = {}
        stop = threading.Event()

        def flooder(index):
            try:
                sock = connect(server.port)
            except OSError as error:
                ends[index] = f"connect failed: {error}"
                return
            sock.settimeout(0.2)
            view = memoryview(pipeline)
            offset = 0
            with sock:
                while not stop.is_set():
                    try:
                        sent = sock.send(view[offset:])
                    except socket.timeout:
                        continue
                    except OSError:
                        ends[index] = f"closed by the server after {accepted[index] // MIB} MiB"
                        return
                    accepted[index] += sent
                    offset = (offset + sent) % len(pipeline)
            ends[index] = "open"

        sampler = RSSSampler(server)
        normal = NormalTraffic(server.port)
        threads = [threading.Thread(target=flooder, args=(n,), daemon=True) for n in range(clients)]
        for thread in threads:
            thread.start()
        started = time.monotonic()
        sampler.exceeded.wait(seconds)
        elapsed = time.monotonic() - started
        stop.set()
        for thread in threads:
            thread.join(10)
        worst_ms = normal.stop()
        peak_kib = sampler.stop()
        summary = {}
        for value in ends.values():
            summary[value] = summary.get(value, 0) + 1
        report.figure("pipelining", "clients_seconds", [clients, round(elapsed, 1)])
        if sampler.exceeded.is_set():
            print(f"  (stopped after {elapsed:.1f} s: past the {sampler.cutoff_kib // 1024} MiB cut-off)", flush=True)
        report.figure("pipelining", "rss_mib_baseline_peak", [round(baseline_kib / 1024, 1), round(peak_kib / 1024, 1)])
        report.figure("pipelining", "bytes_accepted_per_client_mib_max", round(max(accepted) / MIB, 1))
        report.figure("pipelining", "flooder_ends", summary)
        report.figure("pipelining", "normal_ok_failed_worst_ms", [normal.ok, len(normal.failed), worst_ms and round(worst_ms, 1)])
        report.check(peak_kib < 64 * 1024,
                     f"pipelining: resident memory peak {round(peak_kib / 1024, 1)} MiB with {clients} never-reading "
                     f"pipelining clients for {elapsed:.1f} s (< 64 MiB)")
        report.check(normal.ok >= max(3, int(elapsed * 5)) and not normal.failed,
                     f"pipelining: a normal client is served meanwhile (ok {normal.ok}, failed {len(normal.failed)} {normal.failed[:2]})")
        status, _, _ = one_request(server.port, "POST", "/body", body_request(1))
        report.check(server.alive() and status == 200, "pipelining: server still serves afterwards")
    finally:
        server.stop()


def token_file(*tokens):
    """A temporary token file holding `tokens`, one a line; the caller unlinks it."""
    with tempfile.NamedTemporaryFile("w", suffix=".token", delete=False) as file:
        file.write("".join(token + "\n" for token in tokens))
        return file.name


def upload(port, length, headers, send_body=True, timeout=10.0):
    """A POST /body declaring `length` bytes; sends them all unless `send_body`
    is false, then reads what comes back: (interim statuses, final answer or
    None, ending) where ending is "closed", "reset" or "open"."""
    head_bytes = request_bytes("POST", "/body", b"", {"Content-Length": str(length), **headers})
    with connect(port, timeout) as sock:
        sock.sendall(head_bytes)
        if send_body:
            chunk = (b'{"text":"' + MARKER.encode() + b" " * 65536)[:65536]
            remaining = length
            try:
                while remaining > 0:
                    sock.sendall(chunk[:min(remaining, len(chunk))])
                    remaining -= min(remaining, len(chunk))
            except (BrokenPipeError, ConnectionResetError):
                pass
        answers, interim, ending, _ = read_answers(sock, quiet_seconds=2.0 if send_body else 1.5, limit_seconds=timeout)
        return interim, answers[0] if answers else None, ending


def problem_code(answer):
    try:
        return json.loads(answer[2]).get("code")
    except (ValueError, TypeError, AttributeError):
        return None


def scenario_uploads(binary, report, quick):
    """Bodies without a token, or over the limit, are refused when the head
    arrives: no 100 Continue, no body buffered, and the whole refusal still reaches the client."""
    print("uploads", flush=True)
    token = "tok-" + os.urandom(12).hex()
    path = token_file(token)
    authorized = {"Authorization": "Bearer " + token}
    uploads = 60
    try:
        server = Server(binary, ["--threads", "2", "--access-log", "off", "--auth-token-file", path])
        try:
            one_request(server.port, "POST", "/body", body_request(1), authorized)
            baseline_kib = server.rss_kib()
            sampler = RSSSampler(server)
            normal = NormalTraffic(server.port, authorized)
            results = []
            lock = threading.Lock()
            # Every upload stops one byte short until all have got that far,
            # so the server holds all of them at once if it buffers bodies.
            barrier = threading.Barrier(uploads)
            body = (b'{"text":"' + MARKER.encode() + b" " * 1_000_000)[:999_999]

            def uploader():
                try:
                    with connect(server.port, 5.0) as sock:
                        try:
                            sock.sendall(request_bytes("POST", "/body", b"", {"Content-Length": "1000000"}) + body)
                        except (socket.timeout, BrokenPipeError, ConnectionResetError):
                            pass  # a server that refused at the head and stopped reading
                        try:
                            barrier.wait(15)
                        except threading.BrokenBarrierError:
                            pass
                        time.sleep(1.0)  # for the server to read what the kernel holds
                        # Like curl: the last byte only if no answer has started arriving.
                        readable, _, _ = select.select([sock], [], [], 0)
                        if not readable:
                            try:
                                sock.sendall(b"}")
                            except OSError:
                                pass
                        answers, interim, ending, _ = read_answers(sock, quiet_seconds=2.0)
                        outcome = (interim, answers[0] if answers else None, ending)
                except (OSError, ConnectionError) as error:
                    outcome = ([], None, f"error {error}"[:60])
                with lock:
                    results.append(outcome)

            threads = [threading.Thread(target=uploader) for _ in range(uploads)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(60)
            normal.stop()
            peak_kib = sampler.stop()
            whole = sum(1 for interim, answer, ending in results
                        if not interim and answer and answer[0] == 401 and problem_code(answer) == "unauthorized"
                        and answer[1].get("connection", "").lower() == "close" and ending != "reset")
            summary = {}
            for interim, answer, ending in results:
                label = (" ".join(map(str, interim)) + " " if interim else "") + (str(answer[0]) if answer else "none") + " " + ending
                summary[label] = summary.get(label, 0) + 1
            rise_mib = (peak_kib - baseline_kib) / 1024
            report.figure("uploads", "rss_mib_baseline_peak", [round(baseline_kib / 1024, 1), round(peak_kib / 1024, 1)])
            report.figure("uploads", "unauthenticated_1mb_upload_outcomes", summary)
            report.check(rise_mib < 24, f"uploads: {uploads} unauthenticated 1 MB uploads raise resident memory "
                                        f"{rise_mib:.1f} MiB (< 24 MiB)")
            report.check(whole == uploads, f"uploads: {whole} of {uploads} unauthenticated uploads read a complete "
                                           "401 unauthorized with Connection: close (no reset, no 100 Continue)")
            report.check(normal.ok >= 10 and not normal.failed,
                         f"uploads: a client with the token is served meanwhile (ok {normal.ok}, failed {len(normal.failed)})")

            cases = [
                ("no token, head only", 1_000_000, {}, False, 401, "unauthorized"),
                ("no token, Expect: 100-continue", 1_000_000, {"Expect": "100-continue"}, False, 401, "unauthorized"),
                ("token, 1.5 MB declared, head only", 1_500_000, authorized, False, 413, "payload-too-large"),
                ("token, 1.5 MB, Expect: 100-continue", 1_500_000, {**authorized, "Expect": "100-continue"}, False, 413,
                 "payload-too-large"),
                ("token, 1.5 MB sent", 1_500_000, authorized, True, 413, "payload-too-large"),
                ("token, 3 MB sent", 3_000_000, authorized, True, 413, "payload-too-large"),
                ("no token, 3 MB sent", 3_000_000, {}, True, (401, 413), ("unauthorized", "payload-too-large")),
            ]
            for what, length, headers, send_body, status, code in cases:
                statuses = status if isinstance(status, tuple) else (status,)
                codes = code if isinstance(code, tuple) else (code,)
                try:
                    interim, answer, ending = upload(server.port, length, headers, send_body)
                except (OSError, ConnectionError) as error:
                    interim, answer, ending = [], None, f"error {error}"[:60]
                got = (" ".join(map(str, interim)) + " then " if interim else "") + (
                    f"{answer[0]} {problem_code(answer)}" if answer else "no answer") + f", {ending}"
                good = (not interim and answer is not None and answer[0] in statuses
                        and problem_code(answer) == codes[statuses.index(answer[0])]
                        and answer[1].get("connection", "").lower() == "close" and ending != "reset")
                expected = " or ".join(f"{one} {codes[n]}" for n, one in enumerate(statuses))
                when = "the whole answer read after the body" if send_body else "before any body byte is sent"
                report.check(good, f"uploads: {what} → {expected}, Connection: close, {when} (got {got})")
            status, _, _ = one_request(server.port, "POST", "/body", body_request(2), authorized)
            report.check(server.alive() and status == 200, "uploads: server still serves afterwards")
            check_no_marker(report, server, "uploads")
        finally:
            server.stop()
        scenario_lingering_bound(binary, report, path)
    finally:
        os.unlink(path)


def scenario_lingering_bound(binary, report, token_path):
    """After an early refusal the server discards what still arrives only for a
    bounded time: a client that goes silent, or keeps sending, is closed."""
    read_timeout = 2.0
    bound = 10.0
    server = Server(binary, ["--threads", "1", "--access-log", "off", "--auth-token-file", token_path,
                             "--read-timeout-seconds", str(read_timeout)])
    try:
        for behaviour in ("silent", "trickling"):
            with connect(server.port) as sock:
                sock.sendall(request_bytes("POST", "/body", b"", {"Content-Length": "1000000"}))
                answers, _, ending, _ = read_answers(sock, quiet_seconds=1.5, limit_seconds=1.5)
                answered_at = time.monotonic()
                closed_after = None
                if answers and ending == "open":
                    while time.monotonic() < answered_at + bound:
                        if behaviour == "trickling":
                            try:
                                sock.sendall(b" " * 4096)
                            except OSError:
                                closed_after = time.monotonic() - answered_at
                                break
                        if closed_by_peer(sock, 0.1):
                            closed_after = time.monotonic() - answered_at
                            break
                elif answers:
                    closed_after = 0.0
                got = f"{answers[0][0]}, closed after {closed_after:.1f} s" if answers and closed_after is not None else (
                    f"{answers[0][0]}, still open after {bound:g} s" if answers else f"no answer, {ending}")
                report.check(bool(answers) and answers[0][0] == 401 and closed_after is not None,
                             f"uploads: a {behaviour} client refused at the head is closed within {bound:g} s of its 401 "
                             f"(--read-timeout-seconds {read_timeout:g}; got {got})")
    finally:
        server.stop()


def exchange(sock, method, path, body=b"", headers=None, timeout=5.0):
    """One request on an open keep-alive connection: (status, headers) or (None, reason)."""
    try:
        sock.sendall(request_bytes(method, path, body, headers))
        status, answer_headers, _ = read_response(sock, time.monotonic() + timeout)
        return status, answer_headers
    except (OSError, ConnectionError) as error:
        return None, str(error)[:60]


def closed_by_peer(sock, wait_seconds=0.0):
    """True once the server has closed (or reset) the connection; False while it is open and silent."""
    readable, _, _ = select.select([sock], [], [], wait_seconds)
    if not readable:
        return False
    try:
        return sock.recv(1, socket.MSG_PEEK) == b""
    except OSError:
        return True


def scenario_max_connections(binary, report, quick):
    """Past --max-connections, a new connection takes the place of the connection idle longest (closed,
    as a keep-alive connection may be between requests); the others are served."""
    print("max-connections", flush=True)
    limit = 8
    server = Server(binary, ["--threads", "1", "--access-log", "off", "--max-connections", str(limit)])
    held = []
    try:
        for _ in range(limit):
            sock = connect(server.port)
            held.append(sock)
            status, _ = exchange(sock, "GET", "/healthz")
            report.check(status == 200, f"max-connections: connection {len(held)} of {limit} served (got {status})")
        extra = connect(server.port)
        extra.sendall(request_bytes("GET", "/body"))
        answers, _, ending, _ = read_answers(extra, quiet_seconds=1.0, limit_seconds=3.0)
        statuses = [status for status, _, _ in answers]
        report.figure("max-connections", "connection_past_the_limit", f"answered {statuses}, {ending}")
        report.check(statuses == [405] and ending == "open",
                     f"max-connections: connection {limit + 1} served at once on a kept-alive connection "
                     f"(got {statuses}, {ending})")
        report.check(closed_by_peer(held[0], wait_seconds=2.0),
                     "max-connections: the connection idle longest was closed to make room")
        extra.close()
        statuses = [exchange(sock, "GET", "/healthz")[0] for sock in held[1:]]
        report.check(all(status == 200 for status in statuses),
                     f"max-connections: the other connections within the limit are still served ({statuses})")
    finally:
        for sock in held:
            sock.close()
        server.stop()


def scenario_drain(binary, report, quick):
    """SIGTERM loses nothing: idle keep-alive connections stay open through the
    drain, each request on one is answered with Connection: close."""
    print("drain", flush=True)
    drain_seconds = 2.0
    # An idle connection that stays silent and one that sends a request after the signal.
    server = Server(binary, ["--threads", "2", "--access-log", "off", "--drain-seconds", str(drain_seconds)])
    silent, late = connect(server.port), connect(server.port)
    try:
        exchange(silent, "GET", "/healthz")
        exchange(late, "GET", "/healthz")
        closed_at = [None]

        def watch_silent():
            while time.monotonic() < signalled + drain_seconds + 2.0:
                if closed_by_peer(silent, 0.02):
                    closed_at[0] = time.monotonic() - signalled
                    return

        signalled = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        watcher = threading.Thread(target=watch_silent)
        watcher.start()
        time.sleep(0.5)
        status, headers = exchange(late, "POST", "/body", body_request(1))
        connection = headers.get("connection") if isinstance(headers, dict) else headers
        report.check(status == 200 and connection == "close" and closed_by_peer(late, 2.0),
                     f"drain: a request 0.5 s after SIGTERM on an idle keep-alive connection → 200, Connection: close, "
                     f"then closed (got {status}, {connection})")
        try:
            code = server.process.wait(max(0.1, signalled + drain_seconds + 2.0 - time.monotonic()))
        except subprocess.TimeoutExpired:
            code = None
        exited_at = time.monotonic() - signalled
        watcher.join(drain_seconds + 3)
        closed_at = closed_at[0]
        report.figure("drain", "silent_connection_closed_after_s", closed_at and round(closed_at, 2))
        report.check(closed_at is not None and drain_seconds - 0.3 <= closed_at <= drain_seconds + 1.0,
                     f"drain: a silent keep-alive connection stays open through the drain and is closed at its end "
                     f"({closed_at and round(closed_at, 2)} s after SIGTERM, drain {drain_seconds:g} s)")
        report.check(code == 0 and exited_at <= drain_seconds + 1.0,
                     f"drain: exit status 0 within the drain time (status {code} after {exited_at:.2f} s)")
    finally:
        silent.close()
        late.close()
        server.kill()

    # Rounds of SIGTERM under 16 keep-alive clients that pause between requests.
    rounds = 3 if quick else 10
    clients = 16
    drain_seconds = 5.0
    totals = {"requests": 0, "lost": 0, "refused": 0}
    worst_exit = 0.0
    for round_index in range(rounds):
        server = Server(binary, ["--threads", "2", "--access-log", "off", "--drain-seconds", str(drain_seconds)])
        signalled_at = [None]
        counts = {"requests": 0, "lost": 0, "refused": 0}
        lost_examples = []
        lock = threading.Lock()

        def client(worker):
            rng = random.Random(round_index * 100 + worker)
            sock = None
            index = 0
            while True:
                if signalled_at[0] is not None and time.monotonic() > signalled_at[0] + drain_seconds + 2:
                    break
                index += 1
                if sock is None:
                    try:
                        sock = connect(server.port)
                    except OSError:
                        with lock:
                            counts["refused"] += 1
                        if signalled_at[0] is not None:
                            break
                        continue
                status, headers = exchange(sock, "POST", "/body", body_request(index), timeout=10)
                with lock:
                    counts["requests"] += 1
                    if status != 200:
                        counts["lost"] += 1
                        lost_examples.append(str(headers) if status is None else f"status {status}")
                if status != 200 or headers.get("connection", "").lower() == "close":
                    sock.close()
                    sock = None
                    if signalled_at[0] is not None:
                        break  # the next connection would go to another instance
                time.sleep(rng.uniform(0.0, 0.03))
            if sock is not None:
                sock.close()

        threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
        for thread in threads:
            thread.start()
        time.sleep(0.8 + 0.13 * round_index)
        signalled_at[0] = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        try:
            code = server.process.wait(drain_seconds + 5)
        except subprocess.TimeoutExpired:
            code = None
        exited_after = time.monotonic() - signalled_at[0]
        worst_exit = max(worst_exit, exited_after)
        for thread in threads:
            thread.join(drain_seconds + 10)
        server.kill()
        stop_event = server.stop_event()
        for name in totals:
            totals[name] += counts[name]
        report.check(counts["lost"] == 0, f"drain round {round_index + 1}: {counts['lost']} of {counts['requests']} "
                                          f"requests lost {sorted(set(lost_examples))[:2]}")
        report.check(code == 0 and exited_after <= drain_seconds + 0.5 and (stop_event or {}).get("reason") == "SIGTERM",
                     f"drain round {round_index + 1}: exit status 0 within the drain time, stop line names SIGTERM "
                     f"(status {code} after {exited_after:.2f} s)")
    report.figure("drain", "rounds_clients", [rounds, clients])
    report.figure("drain", "requests_lost_refused", [totals["requests"], totals["lost"], totals["refused"]])
    report.figure("drain", "slowest_exit_seconds", round(worst_exit, 2))


def scenario_shutdown_delay(binary, report, quick):
    """--shutdown-delay-seconds: after SIGTERM the server keeps serving normally, then drains."""
    print("shutdown-delay", flush=True)
    delay, drain = 1.0, 2.0
    server = Server(binary, ["--threads", "2", "--access-log", "off", "--shutdown-delay-seconds", str(delay),
                             "--drain-seconds", str(drain)])
    kept = connect(server.port)
    try:
        exchange(kept, "GET", "/healthz")
        signalled = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        time.sleep(0.3)
        try:
            status, headers, _ = one_request(server.port, "POST", "/body", body_request(1), timeout=3)
        except (OSError, ConnectionError) as error:
            status, headers = None, {"error": str(error)[:60]}
        report.check(status == 200, f"shutdown-delay: a new connection 0.3 s after SIGTERM is served (got {status} {headers.get('error', '')})")
        try:
            readiness, _, _ = one_request(server.port, "GET", "/readyz", timeout=3)
        except (OSError, ConnectionError):
            readiness = None
        report.figure("shutdown-delay", "readyz_during_delay", readiness)
        status, headers = exchange(kept, "POST", "/body", body_request(2))
        connection = headers.get("connection") if isinstance(headers, dict) else headers
        report.check(status == 200 and connection != "close",
                     f"shutdown-delay: keep-alive served without Connection: close during the delay (got {status}, {connection})")
        time.sleep(max(0.0, signalled + delay + 0.4 - time.monotonic()))
        status, headers = exchange(kept, "POST", "/body", body_request(3))
        connection = headers.get("connection") if isinstance(headers, dict) else headers
        report.check(status == 200 and connection == "close",
                     f"shutdown-delay: once the drain starts, the next request → 200 with Connection: close (got {status}, {connection})")
        try:
            code = server.process.wait(delay + drain + 2)
        except subprocess.TimeoutExpired:
            code = None
        exited_at = time.monotonic() - signalled
        report.figure("shutdown-delay", "exit_seconds_after_sigterm", round(exited_at, 2))
        report.check(code == 0 and delay - 0.1 <= exited_at <= delay + drain + 1.0,
                     f"shutdown-delay: exit status 0 after the delay and within delay + drain (status {code} after {exited_at:.2f} s)")
    finally:
        kept.close()
        server.kill()


def authorized_status(port, token, timeout=3.0):
    """POST /body with `token` on a fresh connection: its status, or None when nothing answers."""
    try:
        return one_request(port, "POST", "/body", body_request(0), {"Authorization": "Bearer " + token}, timeout)[0]
    except (OSError, ConnectionError):
        return None


def await_event(server, names, already, timeout=3.0):
    """The first JSON line named one of `names` after the `already` seen ones, or None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = server.events(*names)
        if len(found) > already:
            return found[already]
        if not server.alive():
            return None
        time.sleep(0.05)
    return None


RELOADED = "auth-tokens-reloaded"
RELOAD_FAILED = "auth-tokens-reload-failed"


def scenario_rotation(binary, report, quick):
    """A token file with several tokens; SIGHUP re-reads it, keeps the old tokens
    when the file became unusable, logs either outcome, and never ends the process."""
    print("rotation", flush=True)
    old, new, other = ("tok-" + os.urandom(12).hex() for _ in range(3))
    path = token_file(old, new)
    outputs = []
    try:
        try:
            server = Server(binary, ["--threads", "1", "--access-log", "off", "--auth-token-file", path])
        except Failure as failure:
            report.check(False, f"rotation: a token file with two tokens, one a line, is accepted ({failure})")
        else:
            try:
                statuses = [authorized_status(server.port, token) for token in (old, new, other)]
                report.check(statuses == [200, 200, 401],
                             f"rotation: with two tokens in the file each is accepted, another is not "
                             f"({statuses}, expected [200, 200, 401])")
            finally:
                server.stop()
                outputs.append(server.output_text())

        with open(path, "w") as file:
            file.write(old + "\n")
        server = Server(binary, ["--threads", "1", "--access-log", "off", "--auth-token-file", path])
        try:
            steps = [
                ("both tokens", old + "\n" + new + "\n", RELOADED, 2, [200, 200]),
                ("the new token only", new + "\n", RELOADED, 1, [401, 200]),
                ("an empty file", "", RELOAD_FAILED, None, [401, 200]),
                ("a missing file", None, RELOAD_FAILED, None, [401, 200]),
            ]
            for what, contents, expected_event, token_count, expected in steps:
                if contents is None:
                    if os.path.exists(path):
                        os.unlink(path)
                else:
                    with open(path, "w") as file:
                        file.write(contents)
                seen = len(server.events(RELOADED, RELOAD_FAILED))
                if server.alive():
                    server.process.send_signal(signal.SIGHUP)
                event = await_event(server, (RELOADED, RELOAD_FAILED), seen)
                time.sleep(0.1)
                report.check(server.alive(), f"rotation: still running after SIGHUP with {what} (exit status {server.process.poll()})")
                good_event = event is not None and event.get("event") == expected_event and (
                    token_count is None or event.get("tokens") == token_count)
                shape = {"event": expected_event, **({} if token_count is None else {"tokens": token_count})}
                report.check(good_event, f"rotation: SIGHUP with {what} logs {json.dumps(shape)} (got {event})")
                statuses = [authorized_status(server.port, token) for token in (old, new)]
                report.check(statuses == expected, f"rotation: after SIGHUP with {what}, the old and new tokens get "
                                                   f"{statuses} (expected {expected})")
        finally:
            code = server.stop()
            outputs.append(server.output_text())
        report.check(code == 0 and (server.stop_event() or {}).get("reason") == "SIGTERM",
                     f"rotation: SIGTERM after the SIGHUPs still drains and exits 0 (status {code}, stop {server.stop_event()})")

        server = Server(binary, ["--threads", "1", "--access-log", "off"])
        try:
            server.process.send_signal(signal.SIGHUP)
            time.sleep(0.5)
            try:
                status = one_request(server.port, "GET", "/healthz", timeout=3)[0]
            except (OSError, ConnectionError):
                status = None
            report.check(server.alive() and status == 200,
                         f"rotation: SIGHUP without --auth-token-file leaves the server serving (status {status}, "
                         f"exit status {server.process.poll()})")
        finally:
            server.stop()
            outputs.append(server.output_text())
        text = "".join(outputs)
        report.check(not any(token in text for token in (old, new, other)), "rotation: no token ever appears in the server's output")
    finally:
        if os.path.exists(path):
            os.unlink(path)


REJECTION_REASONS = ["bad_request", "headers_too_large", "body_too_large", "bad_framing", "not_implemented",
                     "max_connections", "accept_error"]
REJECTED_METRIC = "notification_text_connections_rejected_total"


def scrape(port):
    """The metrics text of `port` as {series: value} and {name: type}."""
    _, _, text = one_request(port, "GET", "/metrics")
    values, types = {}, {}
    for line in text.decode().splitlines():
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ", 3)
            types[name] = kind
        elif line and not line.startswith("#"):
            series, _, value = line.rpartition(" ")
            try:
                values[series] = float(value)
            except ValueError:
                pass
    return values, types


def rejected_series(reason):
    return f'{REJECTED_METRIC}{{reason="{reason}"}}'


def proc_cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def scenario_visibility(binary, report, quick):
    """Each answer evhttp gives itself and each accept error: one JSON line and
    a counter; the standard process_* metrics for CPU and descriptors."""
    print("visibility", flush=True)
    max_fds = 64

    def low_descriptor_limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (max_fds, max_fds))

    # A connection limit of the server's own (say, one derived from the
    # descriptor limit) must not keep accept() from failing here.
    help_text = subprocess.run([binary, "serve", "--help"], capture_output=True, timeout=20).stdout.decode()
    extra = ["--max-connections", "10000"] if "--max-connections" in help_text else []
    server = Server(binary, ["--threads", "2", "--metrics-port", "0", *extra], preexec_fn=low_descriptor_limit)
    try:
        metrics_port = server.start_line.get("metricsPort")
        before, types = scrape(metrics_port)
        missing = [reason for reason in REJECTION_REASONS if rejected_series(reason) not in before]
        report.check(types.get(REJECTED_METRIC) == "counter" and not missing,
                     f"visibility: {REJECTED_METRIC} is a counter with every reason from the start "
                     f"(missing {missing or 'none'})")
        marker = MARKER.encode()
        triggers = [
            ("bad_request", b"GARBAGE-" + marker + b"\r\n\r\n", (400,)),
            ("headers_too_large", b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Fill: " + marker + b"a" * 20000 + b"\r\n\r\n", (400, 431)),
            ("body_too_large", head(POST, b"Content-Length: 3000000", b"X-Note: " + marker), (413,)),
            ("bad_framing", head(POST, b"Content-Length: 0", cl(SMUGGLED), b"X-Note: " + marker) + SMUGGLED, (400,)),
            ("not_implemented", b"TRACE /" + marker + b" HTTP/1.1\r\nHost: x\r\n\r\n", (501,)),
        ]
        repeat = 3
        for reason, raw, statuses in triggers:
            seen = [event for event in server.events("rejected") if event.get("reason") == reason]
            answered = []
            for _ in range(repeat):
                outcome = classify(server.port, raw, timeout=5)
                answered.append(outcome[1] if outcome[0] == "status" else "close")
            deadline = time.monotonic() + 2
            while True:
                lines = [event for event in server.events("rejected") if event.get("reason") == reason][len(seen):]
                if len(lines) >= repeat or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            after, _ = scrape(metrics_port)
            delta = after.get(rejected_series(reason), 0) - before.get(rejected_series(reason), 0)
            report.check(all(status in statuses for status in answered),
                         f"visibility: {reason} requests answered {' or '.join(map(str, statuses))} (got {answered})")
            report.check(len(lines) == repeat and all(line.get("status") in statuses for line in lines),
                         f"visibility: {repeat} {reason} rejections → {repeat} lines "
                         f"{{\"event\":\"rejected\",\"reason\":\"{reason}\",\"status\":…}} (got {len(lines)}: {lines[:1]})")
            report.check(delta == repeat, f"visibility: {rejected_series(reason)} rose by {repeat} (by {delta:g})")

        # accept errors: hold more connections than the descriptor limit allows.
        seen = len([event for event in server.events("rejected") if event.get("reason") == "accept_error"])
        before, _ = scrape(metrics_port)
        held = []
        try:
            for _ in range(max_fds + 16):
                held.append(connect(server.port, timeout=2))
            time.sleep(0.5)
            report.figure("visibility", "server_fds_while_holding", server.fd_count())
        finally:
            for sock in held:
                sock.close()
        time.sleep(0.5)
        try:
            status = one_request(server.port, "GET", "/healthz", timeout=5)[0]
        except (OSError, ConnectionError):
            status = None
        report.check(status == 200, f"visibility: serving again after running out of descriptors (got {status})")
        after, _ = scrape(metrics_port)
        lines = [event for event in server.events("rejected") if event.get("reason") == "accept_error"][seen:]
        delta = after.get(rejected_series("accept_error"), 0) - before.get(rejected_series("accept_error"), 0)
        report.figure("visibility", "accept_error_lines_counter", [len(lines), delta])
        report.check(lines and delta == len(lines),
                     f"visibility: accept errors (EMFILE) → lines {{\"event\":\"rejected\",\"reason\":\"accept_error\"}} "
                     f"and {rejected_series('accept_error')} counting the same ({len(lines)} lines, counter +{delta:g})")

        values, types = scrape(metrics_port)
        actual_fds = server.fd_count()
        actual_cpu = proc_cpu_seconds(server.pid)
        cpu = values.get("process_cpu_seconds_total")
        open_fds = values.get("process_open_fds")
        report.figure("visibility", "process_cpu_open_max", [cpu, open_fds, values.get("process_max_fds")])
        report.check(types.get("process_cpu_seconds_total") == "counter" and cpu is not None
                     and 0 < cpu <= actual_cpu + 0.05 and cpu >= actual_cpu - 0.5,
                     f"visibility: process_cpu_seconds_total counter near /proc's {actual_cpu:.2f} s (got {cpu})")
        report.check(types.get("process_open_fds") == "gauge" and open_fds is not None and abs(open_fds - actual_fds) <= 3,
                     f"visibility: process_open_fds gauge near /proc's {actual_fds} (got {open_fds})")
        report.check(types.get("process_max_fds") == "gauge" and values.get("process_max_fds") == max_fds,
                     f"visibility: process_max_fds gauge is the descriptor limit {max_fds} (got {values.get('process_max_fds')})")
        check_no_marker(report, server, "visibility")
    finally:
        server.stop()


REASON_PHRASES = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 405: "Method Not Allowed",
                  413: "Content Too Large", 414: "URI Too Long", 415: "Unsupported Media Type"}


def scenario_reason_phrases(binary, report, quick):
    """Each status the service answers carries its RFC 9110 reason phrase."""
    print("reason-phrases", flush=True)
    token = "tok-" + os.urandom(12).hex()
    path = token_file(token)
    authorized = {"Authorization": "Bearer " + token}
    try:
        server = Server(binary, ["--threads", "1", "--access-log", "off", "--auth-token-file", path])
        try:
            requests = [
                (200, request_bytes("GET", "/healthz", keep_alive=False)),
                (400, request_bytes("POST", "/body", b"{", authorized, keep_alive=False)),
                (401, request_bytes("POST", "/body", body_request(1), keep_alive=False)),
                (404, request_bytes("GET", "/nope", b"", authorized, keep_alive=False)),
                (405, request_bytes("GET", "/body", b"", authorized, keep_alive=False)),
                (413, request_bytes("POST", "/body", b'{"text":"' + b"a" * 1_100_000 + b'"}', authorized, keep_alive=False)),
                (414, request_bytes("GET", "/" + "a" * 5000, b"", authorized, keep_alive=False)),
                (415, request_bytes("POST", "/body", b"{}", {**authorized, "Content-Type": "text/plain"}, keep_alive=False)),
            ]
            for expected, raw in requests:
                with connect(server.port) as sock:
                    try:
                        sock.sendall(raw)
                    except OSError:
                        pass
                    answers, _, _, _ = read_answers(sock, quiet_seconds=2.0)
                got = (answers[0][0], answers[0][1].get("reason")) if answers else None
                report.check(got == (expected, REASON_PHRASES[expected]),
                             f"reason-phrases: {expected} is sent as \"{expected} {REASON_PHRASES[expected]}\" (got {got})")
        finally:
            server.stop()
    finally:
        os.unlink(path)


# ---------------------------------------------------------------- memory budget and slots (issue 27: F1, F2, F3)

JEMALLOC = "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2"


def jemalloc_env():
    """The allocator as deployed (ADR 0009), when the machine has it."""
    return {"LD_PRELOAD": JEMALLOC} if os.path.exists(JEMALLOC) else {}


def large_compose_body(count=1000):
    """A /compose body of about 0.99 MB whose reply is about 1.9 times as large."""
    notifications = [{"id": f"{index}-" + "x" * 900, "type": "message", "timestamp": "2026-11-29T11:59:00Z",
                      "thread": "t", "text": "hi"} for index in range(count)]
    return json.dumps({"now": "2026-11-29T12:00:00Z", "notifications": notifications},
                      separators=(",", ":")).encode()


def send_for(sock, data, seconds, stop_at_kib=None, sampler=None):
    """Sends `data` over and over for `seconds` (or until the sampler's cut-off);
    returns the bytes the server's side took."""
    sock.settimeout(0.2)
    view = memoryview(data)
    sent = 0
    offset = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end and not (sampler and sampler.exceeded.is_set()):
        try:
            count = sock.send(view[offset:])
        except socket.timeout:
            continue
        except OSError:
            break
        sent += count
        offset = (offset + count) % len(data)
    return sent


def rss_after_close(server, target_mib, within):
    """Resident memory once the hostile clients have gone (MiB), and the seconds it took to fall
    under `target_mib`: sampled every 0.25 s for at most `within` seconds (the last sample when
    it never does), so a loaded machine that closes the connections late is waited for."""
    start = time.monotonic()
    while True:
        rss_mib = round(server.rss_kib() / 1024, 1)
        waited = time.monotonic() - start
        if rss_mib < target_mib or waited >= within:
            return rss_mib, round(waited, 2)
        time.sleep(0.25)


def stuck_clients(report, scenario, server, clients, seconds, hostile, what):
    """Runs `hostile(index, sampler)` (returning the bytes the server's side took) on `clients`
    threads; checks that resident memory peaks under 64 MiB and comes back once they are gone."""
    baseline_kib = server.rss_kib()
    sampler = RSSSampler(server)
    taken = [0] * clients

    def run(index):
        try:
            taken[index] = hostile(index, sampler)
        except OSError:
            pass

    threads = [threading.Thread(target=run, args=(n,), daemon=True) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 15)
    peak_kib = sampler.stop()
    baseline_mib = round(baseline_kib / 1024, 1)
    after_mib, after_s = rss_after_close(server, baseline_mib + 8, 10.0)
    report.figure(scenario, "rss_mib_baseline_peak_after", [baseline_mib, round(peak_kib / 1024, 1), after_mib])
    report.figure(scenario, "seconds_until_memory_came_back", after_s)
    report.figure(scenario, "bytes_taken_per_client_mib_max", round(max(taken) / MIB, 1))
    report.check(peak_kib < 64 * 1024,
                 f"{scenario}: resident memory peak {round(peak_kib / 1024, 1)} MiB with {clients} {what} (< 64 MiB)")
    report.check(after_mib < baseline_mib + 8,
                 f"{scenario}: memory comes back once they are gone ({after_mib} MiB after {after_s} s, within 10 s;"
                 f" {baseline_mib} MiB before)")


def scenario_stuck_replies(binary, report, quick):
    """F1: 10 clients pipeline four 0.99 MB /compose requests (1.9 MB replies), never read, then send junk:
    reading stops while a reply is pending, so resident memory stays under 64 MiB."""
    print("stuck-replies", flush=True)
    seconds = 3.0 if quick else 8.0
    server = Server(binary, ["--threads", "1", "--max-connections", "81", "--access-log", "off"], env=jemalloc_env())
    try:
        one_request(server.port, "GET", "/healthz")
        pipelined = request_bytes("POST", "/compose", large_compose_body()) * 4
        junk = b"X" * 262144

        def hostile(index, sampler):
            with connect(server.port) as sock:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                return send_for(sock, pipelined, 1.5, sampler=sampler) + send_for(sock, junk, seconds, sampler=sampler)

        stuck_clients(report, "stuck-replies", server, 10, seconds, hostile,
                      "clients whose replies are stuck and who go on sending")
        status, _, _ = one_request(server.port, "POST", "/body", body_request(1))
        report.check(server.alive() and status == 200, "stuck-replies: server still serves afterwards")
    finally:
        server.stop()


def scenario_stuck_replies_no_token(binary, report, quick):
    """F1 without a token: clients send GET /playground.js (open to all, 12 KB replies) one at a time,
    so no reply finds input behind it, and never read; once replies are stuck they send junk. With
    --auth-token-file on, memory stays bounded all the same."""
    print("stuck-replies-no-token", flush=True)
    seconds = 3.0 if quick else 8.0
    path = token_file("memory-scenario-token")
    server = Server(binary, ["--threads", "1", "--access-log", "off", "--auth-token-file", path], env=jemalloc_env())
    try:
        probe = b"GET /playground.js HTTP/1.1\r\nHost: x\r\n\r\n"
        junk = b"X" * 262144

        def hostile(index, sampler):
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.connect((HOST, server.port))
            with sock:
                # Paced, so no reply finds input behind it, until the replies back up.
                sock.settimeout(0.2)
                taken = 0
                end = time.monotonic() + 2.0
                while time.monotonic() < end and not sampler.exceeded.is_set():
                    try:
                        taken += sock.send(probe)
                    except socket.timeout:
                        break
                    time.sleep(0.001)
                return taken + send_for(sock, junk, seconds, sampler=sampler)

        stuck_clients(report, "stuck-replies-no-token", server, 10, seconds, hostile,
                      "clients without a token pacing GET /playground.js, never reading, then sending junk")
        status, _, _ = one_request(server.port, "GET", "/healthz")
        report.check(server.alive() and status == 200, "stuck-replies-no-token: server still serves afterwards")
    finally:
        server.stop()
        os.unlink(path)


def scenario_memory_budget(binary, report, quick):
    """F2: in a 128 MiB budget, 81 clients (the limit set by hand) each send one 0.99 MB /compose at once
    and read late: what the budget cannot take is answered 503 with Retry-After, and memory stays
    under the limit. The derived limit for 128 MiB counts the reply."""
    print("memory-budget", flush=True)
    limit_bytes = 128 * MIB
    clients = 81
    read_after = 1.0 if quick else 3.0
    derived = Server(binary, ["--threads", "1", "--access-log", "off", "--memory-limit-bytes", str(limit_bytes)])
    derived_limit = derived.start_line.get("maxConnections")
    derived.stop()
    report.figure("memory-budget", "derived_max_connections_128_mib", derived_limit)
    report.check(isinstance(derived_limit, int) and derived_limit >= 1000,
                 f"memory-budget: the derived limit for 128 MiB is in the thousands, connections being charged "
                 f"for the bytes they hold (got {derived_limit}; 27 when each reserved its largest body and reply)")
    server = Server(binary, ["--threads", "1", "--access-log", "off", "--memory-limit-bytes", str(limit_bytes),
                             "--max-connections", str(clients)], env=jemalloc_env())
    sockets = []
    try:
        request = request_bytes("POST", "/compose", large_compose_body())
        sampler = RSSSampler(server)
        for _ in range(clients):
            sockets.append(connect(server.port, timeout=20.0))
        senders = [threading.Thread(target=lambda s=s: s.sendall(request), daemon=True) for s in sockets]
        for thread in senders:
            thread.start()
        time.sleep(read_after)
        answers = {}

        def read_one(sock):
            try:
                status, headers, _ = read_response(sock, time.monotonic() + 20)
                key = f"{status}" + (" Retry-After" if status == 503 and headers.get("retry-after") else "")
            except (OSError, ConnectionError) as error:
                key = "error: " + str(error)[:40]
            answers[key] = answers.get(key, 0) + 1

        readers = [threading.Thread(target=read_one, args=(sock,), daemon=True) for sock in sockets]
        for thread in readers:
            thread.start()
        for thread in readers + senders:
            thread.join(30)
        peak_kib = sampler.stop()
        report.figure("memory-budget", "answers", answers)
        report.figure("memory-budget", "rss_mib_peak", round(peak_kib / 1024, 1))
        report.check(peak_kib < limit_bytes // 1024,
                     f"memory-budget: resident memory peak {round(peak_kib / 1024, 1)} MiB with {clients} 0.99 MB "
                     f"/compose requests at once (< 128 MiB)")
        report.check(set(answers) <= {"200", "503 Retry-After"} and answers.get("200", 0) >= 16,
                     f"memory-budget: each request answered 200, or 503 with Retry-After when the budget is spent "
                     f"(got {answers})")
        for sock in sockets:
            sock.close()
        time.sleep(1.5)
        status, _, _ = one_request(server.port, "POST", "/body", body_request(1))
        report.check(server.alive() and status == 200, "memory-budget: server still serves afterwards")
    finally:
        for sock in sockets:
            sock.close()
        server.stop()


def scenario_slowloris(binary, report, quick):
    """F3: 100 connections trickle a head at a byte a second (reconnecting when closed) against
    --max-connections 81; a normal client's p99 stays under 50 ms, and a slow head is closed early."""
    print("slowloris", flush=True)
    slow_count = 100
    seconds = 8.0 if quick else 20.0
    server = Server(binary, ["--threads", "1", "--access-log", "off", "--max-connections", "81"], env=jemalloc_env())
    head_bytes = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: " + b"a" * 2000 + b"\r\n\r\n"
    slow = []
    lifetimes = []
    latencies = []
    failures = []
    stop = threading.Event()

    def open_slow():
        sock = connect(server.port, timeout=1.0)
        sock.setblocking(False)
        return [sock, 0, time.monotonic()]

    def normal():
        while not stop.is_set():
            started = time.monotonic()
            try:
                status, _, _ = one_request(server.port, "GET", "/healthz", timeout=15.0)
                if status == 200:
                    latencies.append(time.monotonic() - started)
                else:
                    failures.append(f"status {status}")
            except (OSError, ConnectionError) as error:
                failures.append(str(error)[:40])
            stop.wait(0.05)

    try:
        for _ in range(slow_count):
            slow.append(open_slow())
        worker = threading.Thread(target=normal, daemon=True)
        worker.start()
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for state in slow:
                sock = state[0]
                try:
                    if sock.recv(4096) == b"":
                        raise ConnectionError
                except BlockingIOError:
                    pass
                except OSError:
                    lifetimes.append(time.monotonic() - state[2])
                    sock.close()
                    try:
                        state[:] = open_slow()
                    except OSError:
                        pass
                    continue
                try:
                    sock.send(head_bytes[state[1]:state[1] + 1])
                    state[1] = (state[1] + 1) % len(head_bytes)
                except OSError:
                    pass
            time.sleep(1.0)
        stop.set()
        worker.join(20)
        latencies.sort()
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000 if latencies else None
        lifetimes.sort()
        report.figure("slowloris", "normal_ok_failed", [len(latencies), len(failures)])
        report.figure("slowloris", "normal_latency_ms_p50_p99_max", latencies and [
            round(latencies[len(latencies) // 2] * 1000, 1), round(p99, 1), round(latencies[-1] * 1000, 1)])
        report.figure("slowloris", "slow_closed_lifetime_s_median", [len(lifetimes), lifetimes and round(lifetimes[len(lifetimes) // 2], 1)])
        report.check(p99 is not None and p99 < 50 and not failures and len(latencies) >= seconds * 5,
                     f"slowloris: a normal client's p99 under 50 ms beside {slow_count} slow heads at the limit of 81 "
                     f"(p99 {p99 and round(p99, 1)} ms, ok {len(latencies)}, failed {len(failures)} {failures[:2]})")
        report.check(lifetimes and lifetimes[len(lifetimes) // 2] < 5.0,
                     f"slowloris: slow heads are closed before the read timeout (median lifetime "
                     f"{lifetimes and round(lifetimes[len(lifetimes) // 2], 1)} s)")
    finally:
        stop.set()
        for state in slow:
            state[0].close()
        server.stop()


def scenario_nagle(binary, report, quick):
    """A reply over 64 KiB on a kept-alive connection arrives at once: accepted
    sockets have TCP_NODELAY, so Nagle's algorithm cannot hold the reply's last
    segment until the client's delayed ACK (about 40 ms each time). The time
    measured is the reply's transfer, from its first byte to its last, so the
    cost of composing it (large in a debug build) does not count."""
    print("nagle", flush=True)
    server = Server(binary, ["--threads", "1", "--access-log", "off"])
    try:
        body = large_compose_body(count=40)
        sock = connect(server.port)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        transfers = []
        size = 0
        for _ in range(12 if quick else 40):
            sock.sendall(request_bytes("POST", "/compose", body, {"Content-Type": "application/json"}))
            received = sock.recv(65536)
            first_byte = time.monotonic()
            head, _, content = received.partition(b"\r\n\r\n")
            length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
            while len(content) < length:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                content += chunk
            transfers.append((time.monotonic() - first_byte) * 1000)
            size = len(content)
        sock.close()
        transfers.sort()
        median = transfers[len(transfers) // 2]
        report.figure("nagle", "reply_bytes", size)
        report.figure("nagle", "median_transfer_ms", round(median, 2))
        report.check(size >= 64 * 1024, f"nagle: the reply is over 64 KiB ({size} bytes)")
        # The median, not one try: on a busy machine one exchange can be slow
        # for reasons of its own, but Nagle's stall would hit every one.
        report.check(median < 5.0, f"nagle: a 64 KiB reply on a kept-alive connection arrives in under 5 ms "
                                   f"(median {median:.2f} ms from its first byte to its last, of {len(transfers)})")
    finally:
        server.stop()


def scenario_port_taken(binary, report, quick):
    """A second instance on a port another process holds exits 69 and says
    why, instead of binding beside it with SO_REUSEPORT."""
    print("port-taken", flush=True)
    server = Server(binary, ["--threads", "2", "--access-log", "off"])
    try:
        second = subprocess.Popen([binary, "serve", "--host", HOST, "--port", str(server.port), "--threads", "2"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            _, stderr = second.communicate(timeout=5)
            outcome = f"{second.returncode}: {stderr.strip()[-120:]!r}"
        except subprocess.TimeoutExpired:
            second.kill()
            _, stderr = second.communicate()
            outcome = "still serving beside the first after 5 s"
        report.figure("port-taken", "second_instance", outcome)
        report.check(second.returncode == 69 and "Address already in use" in stderr,
                     f"port-taken: a second serve on a held port exits 69 with the reason (got {outcome})")
        statuses = [one_request(server.port, "GET", "/healthz")[0] for _ in range(20)]
        report.check(all(status == 200 for status in statuses),
                     f"port-taken: the first instance answers every request ({statuses.count(200)} of 20)")
    finally:
        server.stop()


def scenario_token_fifo(binary, report, quick):
    """SIGHUP with a FIFO at the token path: the file is opened without
    blocking and refused (not a regular file), the tokens in force stay, and a
    SIGTERM after it is handled at once (before, the control thread hung in
    fopen() until something opened the FIFO for writing)."""
    print("token-fifo", flush=True)
    path = token_file("tok-" + MARKER)
    server = Server(binary, ["--threads", "1", "--access-log", "off", "--auth-token-file", path])
    try:
        os.unlink(path)
        os.mkfifo(path)
        server.process.send_signal(signal.SIGHUP)
        time.sleep(0.5)
        failed = await_event(server, ["auth-tokens-reload-failed"], 0)
        report.check(failed is not None and "not a regular file" in failed.get("detail", ""),
                     f"token-fifo: SIGHUP with a FIFO is refused as not a regular file (got {failed})")
        status = authorized_status(server.port, "tok-" + MARKER)
        report.check(status == 200, f"token-fifo: the token in force still works (got {status})")
        started = time.monotonic()
        code = server.stop(timeout=5.0)
        seconds = time.monotonic() - started
        report.figure("token-fifo", "sigterm_exit_seconds", round(seconds, 2))
        report.check(code == 0 and seconds < 3.0,
                     f"token-fifo: SIGTERM after it exits 0 at once (exit {code} after {seconds:.2f} s)")
        check_no_marker(report, server, "token-fifo")
    finally:
        server.kill()
        if os.path.exists(path):
            os.unlink(path)


def rfc9112_cases():
    """(name, raw request, expected status, expected ending) for the head
    rules of RFC 9112 a proxy in front would enforce."""
    body = b'{"text":"hi"}'
    post = b"POST /body HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
    return [
        ("no Host in HTTP/1.1 (3.2)", b"GET /healthz HTTP/1.1\r\n\r\n", 400, "closed"),
        ("two Host fields (3.2)", b"GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "closed"),
        ("no Host in HTTP/1.0", b"GET /healthz HTTP/1.0\r\n\r\n", 200, "closed"),
        ("Connection: close, keep-alive (9.6)",
         b"GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close, keep-alive\r\n\r\n", 200, "closed"),
        ("HTTP/1.0, Connection: keep-alive, close",
         b"GET /healthz HTTP/1.0\r\nConnection: keep-alive, close\r\n\r\n", 200, "closed"),
        ("HTTP/1.0, Connection: keep-alive", b"GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", 200, "open"),
        ("an empty line before the request line (2.2)", b"\r\nGET /healthz HTTP/1.1\r\nHost: a\r\n\r\n", 200, "open"),
        ("empty lines before a POST with a body",
         b"\r\n\r\n" + post + b"Content-Length: 13\r\n\r\n" + body, 200, "open"),
        ("a chunk size with leading zeros (7.1)",
         post + b"Transfer-Encoding: chunked\r\n\r\n00000000000000000d\r\n" + body + b"\r\n0\r\n\r\n", 200, "open"),
        ("a chunk size of 33 digits", post + b"Transfer-Encoding: chunked\r\n\r\n" + b"0" * 32 + b"d\r\n" + body
         + b"\r\n0\r\n\r\n", 400, "closed"),
    ]


def scenario_rfc9112(binary, report, quick):
    """The head rules of RFC 9112 that a proxy would catch: Host exactly once,
    `close` anywhere in Connection, empty lines before the request line, chunk
    sizes with leading zeros."""
    print("rfc9112", flush=True)
    server = Server(binary, ["--threads", "1", "--access-log", "off"])
    try:
        met = 0
        cases = rfc9112_cases()
        for name, raw, status, ending in cases:
            with connect(server.port) as sock:
                sock.sendall(raw)
                answers, _, got_ending, _ = read_answers(sock, quiet_seconds=0.5, limit_seconds=3.0)
            got = answers[0][0] if answers else None
            ok = got == status and got_ending == ending and len(answers) == 1
            met += ok
            report.check(ok, f"rfc9112: {name}: {status} and {ending} (got {got}, {got_ending}, "
                             f"{len(answers)} answer(s))")
        report.figure("rfc9112", "cases_on_target", f"{met} of {len(cases)}")
    finally:
        server.stop()


def scenario_metrics_drain(binary, report, quick):
    """The metrics listener drains with the main server (ADR 0017): its idle
    keep-alive connections close as the drain starts, not after the main
    port's drain has run its course."""
    print("metrics-drain", flush=True)
    server = Server(binary, ["--threads", "1", "--access-log", "off", "--metrics-port", "0", "--drain-seconds", "3"])
    try:
        metrics_port = server.start_line["metricsPort"]
        main_idle = connect(server.port)
        status, _ = exchange(main_idle, "GET", "/healthz")
        report.check(status == 200, f"metrics-drain: a main-port keep-alive connection is served (got {status})")
        scraper = connect(metrics_port)
        status, _ = exchange(scraper, "GET", "/metrics")
        report.check(status == 200, f"metrics-drain: a scrape on a keep-alive connection is served (got {status})")
        signalled = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        closed_after = None
        while time.monotonic() - signalled < 5.0:
            if closed_by_peer(scraper, 0.05):
                closed_after = time.monotonic() - signalled
                break
        report.figure("metrics-drain", "scrape_connection_closed_after_s",
                      None if closed_after is None else round(closed_after, 2))
        report.check(closed_after is not None and closed_after < 1.0,
                     f"metrics-drain: the idle scrape connection closes as the drain starts "
                     f"(after {closed_after if closed_after is None else round(closed_after, 2)} s; the main drain runs 3 s)")
        scraper.close()
        main_idle.close()
    finally:
        server.stop()


def scenario_header_fields(binary, report, quick):
    """At most 100 header fields: the 101st is answered 431 and the head is
    read no further, so a 16 KB head of 4,000 empty fields costs what a plain
    request costs (2.1 ms of CPU each before)."""
    print("header-fields", flush=True)
    server = Server(binary, ["--threads", "1", "--access-log", "off"])
    try:
        def head(count):
            return b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"a:\r\n" * (count - 1) + b"\r\n"
        for count, status in [(100, 200), (101, 431)]:
            with connect(server.port) as sock:
                sock.sendall(head(count))
                answers, _, ending, _ = read_answers(sock, quiet_seconds=0.5, limit_seconds=3.0)
            got = answers[0][0] if answers else None
            code = problem_code(answers[0]) if answers and got != 200 else None
            report.check(got == status and (status == 200 or (code == "header-fields-too-large" and ending == "closed")),
                         f"header-fields: {count} fields answered {status} (got {got}, {code}, {ending})")
        hostile = head(4000)
        count = 300 if quick else 2000
        before = proc_cpu_seconds(server.pid)
        for _ in range(count):
            with connect(server.port) as sock:
                sock.sendall(hostile)
                read_answers(sock, quiet_seconds=0.2, limit_seconds=2.0)
        per_head = (proc_cpu_seconds(server.pid) - before) / count * 1e6
        report.figure("header-fields", "cpu_us_per_4000_field_head", round(per_head))
    finally:
        server.stop()


MEMORY_SCENARIOS = {
    "stuck-replies": scenario_stuck_replies,
    "stuck-replies-no-token": scenario_stuck_replies_no_token,
    "memory-budget": scenario_memory_budget,
    "slowloris": scenario_slowloris,
}

HTTP_EDGE_SCENARIOS = {
    "nagle": scenario_nagle,
    "port-taken": scenario_port_taken,
    "token-fifo": scenario_token_fifo,
    "rfc9112": scenario_rfc9112,
    "metrics-drain": scenario_metrics_drain,
    "header-fields": scenario_header_fields,
}


# Scenarios in files of their own under scenarios/, each `run(binary, report, quick)`.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "scenarios"))
import capacity  # noqa: E402

FILE_SCENARIOS = dict(capacity.SCENARIOS)

SCENARIOS = ["slow-clients", "sigterm", "malformed", "resets", "access", "soak", "framing", "pipelining", "uploads", "max-connections", "drain", "shutdown-delay",
             "rotation", "visibility", "reason-phrases"] + list(MEMORY_SCENARIOS) + list(HTTP_EDGE_SCENARIOS) \
    + list(FILE_SCENARIOS)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary")
    parser.add_argument("--framing-table", metavar="HOST:PORT",
                        help="print each framing case's answer from the server at HOST:PORT, and run nothing else")
    parser.add_argument("--quick", action="store_true", help="the short version run by `make test`")
    parser.add_argument("--soak-seconds", type=float,
                        default=float(os.environ.get("SOAK_SECONDS", "0") or 0) or None)
    parser.add_argument("--only", default=",".join(SCENARIOS))
    parser.add_argument("--json", help="write the figures to this file")
    arguments = parser.parse_args()
    if arguments.framing_table:
        print_framing_table(arguments.framing_table)
        return 0
    if not arguments.binary:
        parser.error("--binary is required")
    soak_seconds = arguments.soak_seconds or (10.0 if arguments.quick else 120.0)
    report = Report()
    for name in arguments.only.split(","):
        try:
            if name in FILE_SCENARIOS:
                FILE_SCENARIOS[name](arguments.binary, report, arguments.quick)
            elif name in MEMORY_SCENARIOS:
                MEMORY_SCENARIOS[name](arguments.binary, report, arguments.quick)
            elif name in HTTP_EDGE_SCENARIOS:
                HTTP_EDGE_SCENARIOS[name](arguments.binary, report, arguments.quick)
            elif name == "slow-clients":
                scenario_slow_clients(arguments.binary, report, arguments.quick)
            elif name == "sigterm":
                scenario_sigterm(arguments.binary, report, arguments.quick)
            elif name == "malformed":
                scenario_malformed(arguments.binary, report, arguments.quick)
            elif name == "resets":
                scenario_resets(arguments.binary, report, arguments.quick)
            elif name == "access":
                scenario_access(arguments.binary, report, arguments.quick)
            elif name == "soak":
                scenario_soak(arguments.binary, report, arguments.quick, soak_seconds)
            elif name == "pipelining":
                scenario_pipelining(arguments.binary, report, arguments.quick)
            elif name == "uploads":
                scenario_uploads(arguments.binary, report, arguments.quick)
            elif name == "max-connections":
                scenario_max_connections(arguments.binary, report, arguments.quick)
            elif name == "drain":
                scenario_drain(arguments.binary, report, arguments.quick)
            elif name == "shutdown-delay":
                scenario_shutdown_delay(arguments.binary, report, arguments.quick)
            elif name == "rotation":
                scenario_rotation(arguments.binary, report, arguments.quick)
            elif name == "visibility":
                scenario_visibility(arguments.binary, report, arguments.quick)
            elif name == "reason-phrases":
                scenario_reason_phrases(arguments.binary, report, arguments.quick)
            elif name == "framing":
                scenario_framing(arguments.binary, report, arguments.quick)
            else:
                raise Failure(f"unknown scenario {name}")
        except Failure as failure:
            report.check(False, f"{name}: {failure}")
    if arguments.json:
        with open(arguments.json, "w") as output:
            json.dump(report.figures, output, indent=1)
    print(f"resilience: {len(report.failures)} failed check(s)" if report.failures else "resilience: all checks passed")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
