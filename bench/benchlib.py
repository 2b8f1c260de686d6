"""What the benchmark scripts share: starting servers, running wrk, reading /proc.

Standard library only. Every server is started on 127.0.0.1 with port 0 (or
the port it is given) and must print a JSON start line on stdout that names
its port; every load run is bounded by wrk's own duration.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
OUT = BENCH / "out"
WRK_SCRIPT = BENCH / "wrk" / "post.lua"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


SERVICE_MALLOC_TUNABLES = "glibc.malloc.tcache_count=64"
# jemalloc, as deployed (docs/adr/0009); bench/setup.sh installs libjemalloc2.
JEMALLOC = Path("/usr/lib") / f"{os.uname().machine}-linux-gnu" / "libjemalloc.so.2"


def service_command(threads: int = 1, access_log: bool = False, allocator: str = "jemalloc") -> list[str]:
    """The Swift service, kernel-chosen port, access log off unless asked; SERVICE_CMD overrides.

    allocator "jemalloc" (as deployed) preloads jemalloc; "glibc" runs on glibc's malloc."""
    override = os.environ.get("SERVICE_CMD")
    if override:
        return shlex.split(override)
    binary = REPO / ".build" / "release" / "notification-text"
    # As deployed (deploy/Dockerfile, the systemd unit): jemalloc preloaded, and
    # glibc malloc's deeper per-thread cache for when it is not. `env` execs
    # the service, so the pid is the service's.
    environment = [f"GLIBC_TUNABLES={SERVICE_MALLOC_TUNABLES}"]
    if allocator == "jemalloc":
        if not JEMALLOC.exists():
            raise RuntimeError(f"{JEMALLOC} is missing: run bench/setup.sh (it installs libjemalloc2)")
        environment.append(f"LD_PRELOAD={JEMALLOC}")
    return ["env", *environment, str(binary), "serve", "--host", "127.0.0.1",
            "--port", "0", "--threads", str(threads), "--access-log", "on" if access_log else "off"]


def reference_command(reply_file: Path | None = None) -> list[str]:
    """The C evhttp reference; with reply_file, it answers with that file's bytes."""
    return [str(OUT / "reference-server"), "--port", "0"] + (["--reply-file", str(reply_file)] if reply_file else [])


def peer_command() -> list[str]:
    python = REPO / ".venv" / "bin" / "python"
    return [str(python if python.exists() else "python3"), str(BENCH / "peer" / "server.py"), "--port", "0"]


def _port_from_start_line(line: str) -> int | None:
    """The bound port from a JSON start line: a `port` member, or an `address` like `127.0.0.1:8080`."""
    try:
        start = json.loads(line)
    except ValueError:
        return None
    if not isinstance(start, dict):
        return None
    candidates = [start] + [v for v in start.values() if isinstance(v, dict)]
    for item in candidates:
        port = item.get("port")
        if isinstance(port, int) and port > 0:
            return port
        for key in ("address", "listening", "bound", "url"):
            value = item.get(key)
            if isinstance(value, str):
                found = re.search(r":(\d+)/?$", value)
                if found:
                    return int(found.group(1))
            if isinstance(value, list) and value and isinstance(value[0], str):
                found = re.search(r":(\d+)/?$", value[0])
                if found:
                    return int(found.group(1))
    return None


@dataclass
class Server:
    """A server process under test, started and stopped by this script only."""

    name: str
    command: list[str]
    process: subprocess.Popen | None = None
    port: int = 0
    start_line: str = ""
    log_path: Path | None = None

    def start(self, timeout_seconds: float = 20.0) -> "Server":
        # stdout goes to a file, not a pipe: no reader thread competes with the
        # load generator for the 2 cores, and a chatty server never blocks.
        OUT.mkdir(exist_ok=True)
        self.log_path = OUT / f"server-{re.sub(r'[^a-z0-9]+', '-', self.name.lower()).strip('-')[:40]}.log"
        with open(self.log_path, "wb") as log:
            # Its own process group: a wrapper such as valgrind may run the
            # server as a child, and stop() must reach that child too.
            self.process = subprocess.Popen(
                self.command, stdout=log, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, cwd=REPO,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout_seconds
        while time.monotonic() < deadline:
            with open(self.log_path, "rb") as log:
                for raw in log.read(1 << 20).splitlines():
                    port = _port_from_start_line(raw.decode("utf-8", "replace"))
                    if port:
                        self.port = port
                        self.start_line = raw.decode("utf-8", "replace")
                        return self
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"{self.name}: no JSON start line with a port from {shlex.join(self.command)}")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def cpu_seconds(self) -> float:
        """User plus system CPU time of the process, all threads, from /proc/<pid>/stat."""
        with open(f"/proc/{self.pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        # After the command name: state is field 3, utime 14, stime 15 (1-based in proc(5)).
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS

    def rss_kib(self) -> int:
        with open(f"/proc/{self.pid}/status") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def threads(self) -> int:
        with open(f"/proc/{self.pid}/status") as handle:
            for line in handle:
                if line.startswith("Threads:"):
                    return int(line.split()[1])
        return 0

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self._signal_group(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self._signal_group(signal.SIGKILL)
                self.process.wait(timeout=5)
        if self.process is not None:
            # Whatever the group still holds (a wrapper's child) goes too.
            self._signal_group(signal.SIGKILL)
        if self.log_path is not None and self.log_path.exists() and self.log_path.stat().st_size > (8 << 20):
            self.log_path.unlink()  # an access log of the load: only its size matters

    def _signal_group(self, signum: int) -> None:
        try:
            os.killpg(self.process.pid, signum)
        except ProcessLookupError:
            pass

    def __enter__(self) -> "Server":
        # `with Server(...).start(timeout_seconds=…) as server` must not start a second one.
        return self if self.process is not None else self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


@dataclass
class WrkResult:
    requests: int
    seconds: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    errors: int
    non_2xx: int
    cpu_seconds: float | None = None

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    @property
    def cpu_us_per_request(self) -> float | None:
        if self.cpu_seconds is None or not self.requests:
            return None
        return self.cpu_seconds / self.requests * 1e6


def run_wrk(
    server: Server,
    payload: Path,
    path: str,
    seconds: float,
    connections: int = 64,
    threads: int = 1,
    delay_ms: float | None = None,
) -> WrkResult:
    """One bounded wrk run against `server`, with the server's CPU time over the run."""
    env = dict(os.environ, BENCH_PAYLOAD=str(payload), BENCH_PATH=path)
    if delay_ms is not None:
        env["BENCH_DELAY_MS"] = f"{delay_ms:.3f}"
    command = [
        "wrk", f"-t{threads}", f"-c{connections}", f"-d{max(1, round(seconds))}s", "--latency", "--timeout", "5s",
        "-s", str(WRK_SCRIPT), server.url,
    ]
    cpu_before = server.cpu_seconds()
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=seconds + 60)
    cpu_after = server.cpu_seconds()
    line = next((l for l in done.stdout.splitlines() if l.startswith("WRK_JSON ")), None)
    if done.returncode != 0 or line is None:
        raise RuntimeError(f"wrk failed ({done.returncode}): {done.stderr.strip() or done.stdout[-500:]}")
    data = json.loads(line[len("WRK_JSON "):])
    errors = data["errors_connect"] + data["errors_read"] + data["errors_write"] + data["errors_timeout"]
    return WrkResult(
        requests=data["requests"],
        seconds=data["duration_us"] / 1e6,
        p50_ms=data["p50_us"] / 1e3,
        p99_ms=data["p99_us"] / 1e3,
        max_ms=data["max_us"] / 1e3,
        errors=errors,
        non_2xx=data["errors_status"],
        cpu_seconds=cpu_after - cpu_before,
    )


def check_reply(server: Server, payload: Path, path: str) -> tuple[int, str]:
    """One request with the payload, for a sanity check before load: (status, body)."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request("POST", path, body=payload.read_bytes(), headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        return response.status, response.read().decode("utf-8", "replace")
    finally:
        connection.close()


def machine_description() -> dict:
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = os.getloadavg()
    return {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "nproc": os.cpu_count(),
        "cpu": model,
        "loadavg": f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}",
    }
