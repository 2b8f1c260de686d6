"""What every scenario shares: the server under test (`Server`), the report
(`Report`), the requests they send (each carrying MARKER, which must never be
logged), traffic and memory samplers. Standard library only.
"""

import json
import os
import signal
import socket
import subprocess
import tempfile
import threading
import time

from client import HOST, read_response, request_bytes, connect, one_request


MARKER = "SECRET-7f3a-must-never-be-logged"


START_TIMEOUT_SECONDS = 20.0


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


def malformed_kinds():
    """(name, raw request bytes, expectation). Expectations:
    an int: exactly that status; "4xx": any 4xx; "4xx-or-close": a 4xx or the
    connection closed without a response (a head refused before it was sent
    whole: the client may see the close before it reads the answer);
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


def token_file(*tokens):
    """A temporary token file holding `tokens`, one a line; the caller unlinks it."""
    with tempfile.NamedTemporaryFile("w", suffix=".token", delete=False) as file:
        file.write("".join(token + "\n" for token in tokens))
        return file.name


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


def proc_cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


JEMALLOC = f"/usr/lib/{os.uname().machine}-linux-gnu/libjemalloc.so.2"


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
