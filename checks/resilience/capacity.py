"""Connection capacity (docs/adr/0036-connections-charged-for-bytes-held.md):
idle keep-alive connections and slow uploads cannot take the slots, probes
always answer, a connect storm leaves no refusals behind, RFC 9112's Host
rules. Self-contained: each scenario is `run(binary, report, quick)`, where
`report` has `check(condition, what)` and `figure(scenario, name, value)`
(checks/resilience/resilience.py's `Report`)."""

import json
import os
import socket
import subprocess
import threading
import time

from defines import RSSSampler

HOST = "127.0.0.1"
MIB = 1 << 20
POD_MEMORY_BYTES = 128 * MIB
JEMALLOC = f"/usr/lib/{os.uname().machine}-linux-gnu/libjemalloc.so.2"


class ServeProcess:
    """One `serve` on 127.0.0.1, port 0 (and --metrics-port 0 when asked)."""

    def __init__(self, binary, extra=()):
        env = dict(os.environ)
        if os.path.exists(JEMALLOC):
            env["LD_PRELOAD"] = JEMALLOC
        self.process = subprocess.Popen(
            [binary, "serve", "--host", HOST, "--port", "0", "--access-log", "off", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        self.start = None
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if event.get("event") == "start":
                self.start = event
                break
        if self.start is None:
            self.stop()
            raise RuntimeError("serve printed no start line")
        threading.Thread(target=self._drain_stdout, daemon=True).start()
        self.port = self.start["port"]
        self.metrics_port = self.start.get("metricsPort")

    def _drain_stdout(self):
        for _ in self.process.stdout:
            pass

    def rss_kib(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return -1

    def alive(self):
        return self.process.poll() is None

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)


def connect(port, timeout=5.0):
    sock = socket.create_connection((HOST, port), timeout=timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def read_status(sock, timeout=5.0):
    """The status of one response (its body read by Content-Length); None if closed first."""
    deadline = time.monotonic() + timeout
    buffer = b""
    while b"\r\n\r\n" not in buffer:
        sock.settimeout(max(0.05, deadline - time.monotonic()))
        chunk = sock.recv(65536)
        if not chunk:
            return None
        buffer += chunk
    head, _, rest = buffer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
    while len(rest) < length:
        sock.settimeout(max(0.05, deadline - time.monotonic()))
        chunk = sock.recv(65536)
        if not chunk:
            break
        rest += chunk
    return int(lines[0].split(" ")[1])


def request(method, path, body=b"", close=True):
    fields = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
    if body or method == "POST":
        fields += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    if close:
        fields.append("Connection: close")
    return ("\r\n".join(fields) + "\r\n\r\n").encode() + body


def one_request(port, method, path, body=b"", timeout=5.0):
    """(status or None, seconds) on a new connection."""
    started = time.monotonic()
    try:
        with connect(port, timeout) as sock:
            sock.sendall(request(method, path, body))
            status = read_status(sock, timeout)
    except OSError:
        status = None
    return status, time.monotonic() - started


class Client:
    """One client on new connections every `pause` seconds: statuses and latencies."""

    def __init__(self, port, method, path, body=b"", pause=0.02):
        self.statuses = {}
        self.latencies = []
        self._arguments = (port, method, path, body)
        self._pause = pause
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.is_set():
            status, seconds = one_request(*self._arguments)
            self.statuses[status] = self.statuses.get(status, 0) + 1
            if status == 200:
                self.latencies.append(seconds)
            self._stop.wait(self._pause)

    def stop(self):
        self._stop.set()
        self._thread.join(15)
        return self

    @property
    def count(self):
        return sum(self.statuses.values())

    @property
    def refused(self):
        return self.count - self.statuses.get(200, 0)

    def p99_ms(self):
        ordered = sorted(self.latencies)
        return round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 1) if ordered else None


BODY = json.dumps({"text": "**capacity** check with [a link](https://x.io/1)"}).encode()


def open_idle(port, count):
    """`count` keep-alive connections, each answered once and then left idle."""
    idle = []
    for _ in range(count):
        sock = connect(port)
        sock.sendall(request("GET", "/healthz", close=False))
        if read_status(sock) == 200:
            idle.append(sock)
        else:
            sock.close()
    return idle


class KeptAlivePool:
    """Idle keep-alive connections used as a relay's pool uses them: each sends
    one /healthz every `interval` seconds and is idle in between. Counts the
    answers and the connections the server closed."""

    def __init__(self, sockets, interval=3.0):
        self.sockets = sockets
        self.interval = interval
        self.answered = 0
        self.lost = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.wait(self.interval):
            for index, sock in enumerate(self.sockets):
                if sock is None or self._stop.is_set():
                    continue
                try:
                    sock.setblocking(True)
                    sock.sendall(request("GET", "/healthz", close=False))
                    if read_status(sock) == 200:
                        self.answered += 1
                        continue
                except OSError:
                    pass
                self.lost += 1
                sock.close()
                self.sockets[index] = None

    def stop(self):
        self._stop.set()
        self._thread.join(30)
        return self


class SlowUploaders:
    """`count` uploads of a /compose head declaring 0.9 MB, then 8 bytes every
    0.2 s; each reconnects when closed. Counts the connections closed."""

    def __init__(self, port, count, piece=b"        ", interval=0.2):
        self.port = port
        self.closed = 0
        self.piece = piece
        self.interval = interval
        self.sockets = [self._open() for _ in range(count)]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _open(self):
        try:
            sock = connect(self.port, timeout=2.0)
            sock.sendall(b"POST /compose HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 900000\r\n\r\n")
            sock.setblocking(False)
            return sock
        except OSError:
            return None

    def _run(self):
        while not self._stop.wait(self.interval):
            for index, sock in enumerate(self.sockets):
                try:
                    if sock is None:
                        raise ConnectionError
                    try:
                        if sock.recv(65536) == b"":
                            raise ConnectionError
                    except BlockingIOError:
                        pass
                    sock.send(self.piece)
                except (OSError, ConnectionError):
                    if sock is not None:
                        self.closed += 1
                        sock.close()
                    self.sockets[index] = self._open()

    def stop(self):
        self._stop.set()
        self._thread.join(5)
        for sock in self.sockets:
            if sock is not None:
                sock.close()


def scenario_idle_and_slow_uploads(binary, report, quick):
    """1,000 idle keep-alive connections and 100 slow uploaders at once in a 128 MiB pod: a normal client on
    new connections is never refused (p99 < 50 ms), /healthz always 200, peak RSS < 100 MiB."""
    name = "idle-and-slow-uploads"
    print(name, flush=True)
    idle_count, slow_count, seconds = (200, 30, 4.0) if quick else (1000, 100, 20.0)
    server = ServeProcess(binary, ["--threads", "1", "--memory-limit-bytes", str(POD_MEMORY_BYTES)])
    idle = []
    slow = None
    try:
        rss = RSSSampler(server)
        report.figure(name, "max_connections", server.start.get("maxConnections"))
        rest_kib = server.rss_kib()
        idle = open_idle(server.port, idle_count)
        idle_kib = server.rss_kib()
        report.figure(name, "rss_kib_per_idle_connection", round((idle_kib - rest_kib) / max(1, len(idle)), 1))
        pool = KeptAlivePool(idle)
        slow = SlowUploaders(server.port, slow_count)
        normal = Client(server.port, "POST", "/body", BODY)
        probe = Client(server.port, "GET", "/healthz", pause=0.1)
        time.sleep(seconds)
        normal.stop()
        probe.stop()
        slow.stop()
        pool.stop()
        peak_kib = rss.stop()
        still_open = sum(1 for sock in idle if sock is not None and _still_open(sock))
        report.figure(name, "normal_requests_refused_p99_ms", [normal.count, normal.refused, normal.p99_ms()])
        report.figure(name, "healthz_statuses", probe.statuses)
        report.figure(name, "slow_uploads_closed", slow.closed)
        report.figure(name, "idle_open_after_pool_answers_lost", [f"{still_open} of {len(idle)}", pool.answered,
                                                                 pool.lost])
        report.figure(name, "rss_mib_rest_peak", [round(rest_kib / 1024, 1), round(peak_kib / 1024, 1)])
        report.check(len(idle) == idle_count, f"{name}: {idle_count} idle keep-alive connections all admitted "
                                              f"(got {len(idle)})")
        report.check(normal.count >= seconds * 10 and normal.refused == 0 and (normal.p99_ms() or 1e9) < 50,
                     f"{name}: a normal client never refused, p99 < 50 ms ({normal.count} requests, "
                     f"{normal.refused} refused, p99 {normal.p99_ms()} ms)")
        report.check(probe.count > 0 and probe.statuses.get(200, 0) == probe.count,
                     f"{name}: /healthz 100% 200 (got {probe.statuses})")
        report.check(still_open == len(idle) and pool.lost == 0,
                     f"{name}: the kept-alive pool keeps its connections ({still_open} open, {pool.lost} lost)")
        report.check(slow.closed >= slow_count, f"{name}: slow uploads closed for their rate ({slow.closed})")
        report.check(peak_kib < 100 * 1024, f"{name}: peak RSS {round(peak_kib / 1024, 1)} MiB < 100 MiB")
    finally:
        if slow is not None:
            slow.stop()
        for sock in idle:
            if sock is not None:
                sock.close()
        server.stop()


def _still_open(sock):
    sock.setblocking(False)
    try:
        return sock.recv(1) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


def scenario_connect_storm(binary, report, quick):
    """20,000 connect-and-close cycles from one client as fast as it can: a normal client beside it is
    never refused (a closed connection leaves the count at once)."""
    name = "connect-storm"
    print(name, flush=True)
    cycles = 20000
    server = ServeProcess(binary, ["--threads", "1", "--memory-limit-bytes", str(POD_MEMORY_BYTES)])
    try:
        normal = Client(server.port, "POST", "/body", BODY)
        started = time.monotonic()
        failed_connects = 0
        for _ in range(cycles):
            try:
                sock = socket.create_connection((HOST, server.port), timeout=2.0)
                sock.close()
            except OSError:
                failed_connects += 1
        storm_seconds = time.monotonic() - started
        normal.stop()
        report.figure(name, "cycles_seconds", [cycles, round(storm_seconds, 1)])
        report.figure(name, "normal_requests_refused_p99_ms", [normal.count, normal.refused, normal.p99_ms()])
        report.check(normal.count > 0 and normal.refused == 0,
                     f"{name}: a normal client never refused during {cycles} cycles "
                     f"({normal.count} requests, {normal.refused} refused: {normal.statuses})")
        report.check(failed_connects == 0, f"{name}: every storm connect accepted ({failed_connects} failed)")
        status, _ = one_request(server.port, "GET", "/healthz")
        report.check(status == 200 and server.alive(), f"{name}: serving afterwards ({status})")
    finally:
        server.stop()


def scenario_probes_at_capacity(binary, report, quick):
    """Every slot held by uploads that keep their rate: /healthz and /readyz still answer 200 (on the main
    port and on --metrics-port, its 64 slots held by idle scrapers that another scraper displaces),
    anything else gets 503."""
    name = "probes-at-capacity"
    print(name, flush=True)
    slots = 20
    server = ServeProcess(binary, ["--threads", "1", "--max-connections", str(slots), "--metrics-port", "0"])
    holders = None
    idle_scrapers = []
    try:
        # 2 KB every 0.2 s: above the minimum rate, so nothing makes room.
        holders = SlowUploaders(server.port, slots, piece=b" " * 2048, interval=0.2)
        time.sleep(0.5)
        probes = [one_request(server.port, "GET", path)[0] for path in ["/healthz", "/readyz"] * 10]
        others = [one_request(server.port, "POST", "/body", BODY)[0] for _ in range(5)]
        report.figure(name, "main_port_probes_others", [probes, others])
        report.check(probes == [200] * 20, f"{name}: probes past the limit answered 200 (got {probes})")
        report.check(others == [503] * 5, f"{name}: other requests past the limit get 503 (got {others})")
        idle_scrapers = open_idle(server.metrics_port, 70)
        scrape = [one_request(server.metrics_port, "GET", path)[0] for path in ["/metrics", "/healthz"] * 5]
        report.figure(name, "metrics_port_idle_then_scrapes", [len(idle_scrapers), scrape])
        report.check(scrape == [200] * 10,
                     f"{name}: 70 idle connections on --metrics-port leave room for the scraper (got {scrape})")
    finally:
        if holders is not None:
            holders.stop()
        for sock in idle_scrapers:
            sock.close()
        server.stop()


def scenario_rfc9112_hosts(binary, report, quick):
    """RFC 9112 section 3.2: an invalid Host is 400 invalid-host; absolute-form targets are accepted when
    their authority is the Host."""
    name = "rfc9112-hosts"
    print(name, flush=True)
    cases = [
        ("Host: a b", b"GET /healthz HTTP/1.1\r\nHost: a b\r\n\r\n", 400),
        ("Host: a@b", b"GET /healthz HTTP/1.1\r\nHost: a@b\r\n\r\n", 400),
        ("absolute form, same Host", b"GET http://x/healthz HTTP/1.1\r\nHost: x\r\n\r\n", 200),
        ("absolute form, Host differs", b"GET http://x/healthz HTTP/1.1\r\nHost: y\r\n\r\n", 400),
        ("Host: [::1]:8080", b"GET /healthz HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n", 200),
    ]
    server = ServeProcess(binary, ["--threads", "1"])
    try:
        met = 0
        for label, raw, expected in cases:
            with connect(server.port) as sock:
                sock.sendall(raw)
                deadline = time.monotonic() + 3
                data = b""
                while time.monotonic() < deadline:
                    sock.settimeout(max(0.05, deadline - time.monotonic()))
                    try:
                        chunk = sock.recv(65536)
                    except socket.timeout:
                        break
                    if not chunk:
                        break
                    data += chunk
                    if expected == 200 and b"\r\n\r\n" in data:
                        break
            status = int(data.split(b" ")[1]) if data.startswith(b"HTTP/1.1 ") else None
            code_ok = expected == 200 or b'"code":"invalid-host"' in data
            ok = status == expected and code_ok
            met += ok
            report.check(ok, f"{name}: {label}: {expected}{'' if expected == 200 else ' invalid-host'} "
                             f"(got {status})")
        report.figure(name, "cases_on_target", f"{met} of {len(cases)}")
    finally:
        server.stop()


SCENARIOS = {
    "idle-and-slow-uploads": scenario_idle_and_slow_uploads,
    "connect-storm": scenario_connect_storm,
    "probes-at-capacity": scenario_probes_at_capacity,
    "rfc9112-hosts": scenario_rfc9112_hosts,
}
