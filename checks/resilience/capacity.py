"""Connection capacity (docs/adr/0036-connections-charged-for-bytes-held.md):
idle keep-alive connections and slow uploads cannot take the slots, probes
always answer, a connect storm leaves no refusals behind, RFC 9112's Host
rules. Each scenario is `run(binary, report, quick)`, called by its file in
tests/ (test_26 to test_29); the server, the requests and their parsing are
the suite's own (defines.py's `Server`, client.py)."""

import json
import socket
import threading
import time

from client import HOST, closed_by_peer, connect, exchange, one_request, problem_code, request_bytes
from defines import MIB, RSSSampler, Server, classify, jemalloc_env

POD_MEMORY_BYTES = 128 * MIB


def serve(binary, extra):
    """One `serve` on 127.0.0.1, port 0, access log off, with the allocator as deployed."""
    return Server(binary, ["--access-log", "off", *extra], env=jemalloc_env())


def timed_status(port, method, path, body=b"", timeout=5.0):
    """(status or None, seconds) of one request on a new connection."""
    started = time.monotonic()
    try:
        status = one_request(port, method, path, body, timeout=timeout)[0]
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
            status, seconds = timed_status(*self._arguments)
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
        if exchange(sock, "GET", "/healthz")[0] == 200:
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
                if exchange(sock, "GET", "/healthz")[0] == 200:
                    self.answered += 1
                    continue
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
            sock.sendall(request_bytes("POST", "/compose", headers={"Content-Type": "application/json",
                                                                    "Content-Length": "900000"}))
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
    server = serve(binary, ["--threads", "1", "--memory-limit-bytes", str(POD_MEMORY_BYTES)])
    idle = []
    slow = None
    try:
        rss = RSSSampler(server)
        report.figure(name, "max_connections", server.start_line.get("maxConnections"))
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
        still_open = sum(1 for sock in idle if sock is not None and not closed_by_peer(sock))
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


def scenario_connect_storm(binary, report, quick):
    """20,000 connect-and-close cycles from one client as fast as it can: a normal client beside it is
    never refused (a closed connection leaves the count at once)."""
    name = "connect-storm"
    print(name, flush=True)
    cycles = 20000
    server = serve(binary, ["--threads", "1", "--memory-limit-bytes", str(POD_MEMORY_BYTES)])
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
        status, _ = timed_status(server.port, "GET", "/healthz")
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
    server = serve(binary, ["--threads", "1", "--max-connections", str(slots), "--metrics-port", "0"])
    holders = None
    idle_scrapers = []
    try:
        # 2 KB every 0.2 s: above the minimum rate, so nothing makes room.
        holders = SlowUploaders(server.port, slots, piece=b" " * 2048, interval=0.2)
        time.sleep(0.5)
        probes = [timed_status(server.port, "GET", path)[0] for path in ["/healthz", "/readyz"] * 10]
        others = [timed_status(server.port, "POST", "/body", BODY)[0] for _ in range(5)]
        report.figure(name, "main_port_probes_others", [probes, others])
        report.check(probes == [200] * 20, f"{name}: probes past the limit answered 200 (got {probes})")
        report.check(others == [503] * 5, f"{name}: other requests past the limit get 503 (got {others})")
        metrics_port = server.start_line.get("metricsPort")
        idle_scrapers = open_idle(metrics_port, 70)
        scrape = [timed_status(metrics_port, "GET", path)[0] for path in ["/metrics", "/healthz"] * 5]
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
    server = serve(binary, ["--threads", "1"])
    try:
        met = 0
        for label, raw, expected in cases:
            kind, *answer = classify(server.port, raw, timeout=3.0)
            status = answer[0] if kind == "status" else None
            ok = status == expected and (expected == 200 or problem_code(answer) == "invalid-host")
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
