"""What the edge scenarios share (tests/test_31 to test_33): a server at the deployed settings
(one thread, `--memory-limit-bytes 134217728`, jemalloc) beside an unattacked control server,
the kernel's socket memory of a server's port (`ss -tm`, skmem r + t summed), probes of
/healthz and /readyz timed against 1 s, and a normal client's latencies. Standard library only.
"""

import json
import re
import socket
import subprocess
import threading
import time
import urllib.request

from client import one_request
from defines import MIB, Server, body_request, jemalloc_env

POD_MEMORY_BYTES = 128 * MIB
DEPLOYED = ["--threads", "1", "--access-log", "off", "--memory-limit-bytes", str(POD_MEMORY_BYTES)]


def deployed_server(binary, extra=(), preexec_fn=None):
    """One `serve` at the deployed settings."""
    return Server(binary, [*DEPLOYED, *extra], env=jemalloc_env(), preexec_fn=preexec_fn)


def charged_bytes(port):
    """`notification_text_memory_charged_bytes` from the server's /metrics, or None."""
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    for line in text.splitlines():
        if line.startswith("notification_text_memory_charged_bytes "):
            return int(line.split()[1])
    return None


SKMEM = re.compile(r"skmem:\(r(\d+),rb\d+,t(\d+),")


def socket_memory_bytes(port):
    """The kernel's memory for the server side of `port`'s connections: skmem r + t of every
    socket whose local port is `port` (`ss -tmn`); None when ss cannot say."""
    try:
        text = subprocess.run(["ss", "-tmnH", "state", "all", f"( sport = :{port} )"], capture_output=True,
                              text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return sum(int(r) + int(t) for r, t in SKMEM.findall(text))


class MemorySampler:
    """Samples a server's resident memory plus its port's socket memory every `interval` seconds;
    the peak of the sum (and of each) after `stop`."""

    def __init__(self, server, interval=0.5):
        self.server = server
        self.peak_total = self.peak_rss = self.peak_socket = 0
        self._interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def sample(self):
        try:
            rss = self.server.rss_kib() * 1024
        except OSError:
            return
        kernel = socket_memory_bytes(self.server.port) or 0
        self.peak_rss = max(self.peak_rss, rss)
        self.peak_socket = max(self.peak_socket, kernel)
        self.peak_total = max(self.peak_total, rss + kernel)

    def _run(self):
        while not self._stop.wait(self._interval):
            self.sample()

    def stop(self):
        self._stop.set()
        self._thread.join(30)
        return self


class Probes:
    """/healthz and /readyz, each on a fresh connection every `pause` seconds: answered 200
    within 1 s, or a miss (its status or error, and seconds)."""

    def __init__(self, port, pause=0.2):
        self.answered = 0
        self.misses = []
        self._port = port
        self._pause = pause
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        paths = ["/healthz", "/readyz"]
        index = 0
        while not self._stop.is_set():
            path = paths[index % 2]
            index += 1
            started = time.monotonic()
            try:
                status = one_request(self._port, "GET", path, timeout=2.0)[0]
            except (OSError, ConnectionError) as error:
                status = str(error)[:30]
            seconds = time.monotonic() - started
            if status == 200 and seconds <= 1.0:
                self.answered += 1
            else:
                self.misses.append((path, status, round(seconds, 2)))
            self._stop.wait(self._pause)

    def stop(self):
        self._stop.set()
        self._thread.join(15)
        return self


def problem_detail(body):
    """A problem answer's detail, shortened (which limit a 503 names)."""
    try:
        return json.loads(body).get("detail", "")[:60]
    except ValueError:
        return ""


class Normal:
    """A normal client: POST /body on a fresh connection every 20 ms; refusals and latencies."""

    def __init__(self, port):
        self.ok = 0
        self.refused = []
        self.latencies = []
        self._port = port
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        index = 0
        while not self._stop.is_set():
            index += 1
            started = time.monotonic()
            try:
                status, _, body = one_request(self._port, "POST", "/body", body_request(index), timeout=5.0)
                if status != 200:
                    status = f"{status} {problem_detail(body)}"
            except (OSError, ConnectionError) as error:
                status = str(error)[:40]
            if status == 200:
                self.ok += 1
                self.latencies.append(time.monotonic() - started)
            else:
                self.refused.append(status)
            self._stop.wait(0.02)

    def stop(self):
        self._stop.set()
        self._thread.join(15)
        return self

    def p99_ms(self):
        ordered = sorted(self.latencies)
        return round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 1) if ordered else None


def raise_open_files():
    """This process's soft descriptor limit up to its hard one (the attacks open thousands)."""
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def close_all(sockets):
    for sock in sockets:
        try:
            sock.close()
        except OSError:
            pass


def nonblocking_connect(port):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.settimeout(5.0)
    sock.connect(("127.0.0.1", port))
    sock.setblocking(False)
    return sock
