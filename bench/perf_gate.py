"""The performance gate: instructions per operation under callgrind against checked-in thresholds.

`make perf-gate` (part of `make test`) runs every case of CASES under
`valgrind --tool=callgrind` and compares its instructions per operation with
bench/perf-thresholds.json: more than TOLERANCE over fails with a table of
the figures; more than TOLERANCE under passes with a note that
`make perf-baseline` would lower the threshold. `make perf-baseline` (this
script with --baseline) writes the file anew from a fresh measurement.
`--self-test` runs the judging on doctored thresholds and checks that it fails.

Two kinds of case, both measured as whole operations (no function names, so
renaming the code inside does not move a case):
- in process: `notification-bench --iterations N CASE` and the same for 2N
  iterations; the difference over N is one operation, with the process start,
  the bench's set-up and every first-run cost cancelled out. Exact: the same
  build gives the same count every time.
- live: one `serve --threads 1` as deployed (jemalloc preloaded, access log
  on, to a file) under callgrind; per route, one kept-alive connection sends
  a warm-up, then windows of N requests one at a time, the counters dumped
  (and so reset) after each; the least window, less an idle one, over N is
  one request, user space (libevent, libc and jemalloc included; not the
  kernel). Within about 0.3% from run to run (measure_live says why not exact).

Every run has the same environment (env -i with a fixed PATH, no ASLR through
`setarch -R`, SWIFT_DETERMINISTIC_HASHING=1 so hash tables probe alike, the
binaries named by the same relative path).

Usage: python3 bench/perf_gate.py [--baseline] [--bin-path DIR] [--cases ID,ID] [--jobs N] [--json FILE]
       python3 bench/perf_gate.py --self-test          (the judging on doctored thresholds; no callgrind)
Standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchlib import BENCH, JEMALLOC, REPO, SERVICE_MALLOC_TUNABLES, Server  # noqa: E402

THRESHOLDS = BENCH / "perf-thresholds.json"
PAYLOADS = BENCH / "payloads"
# Over by more than this fails; under by more than this suggests a new baseline.
TOLERANCE = 0.03
# The environment of every measured process, and nothing else from ours.
FIXED_ENVIRONMENT = ["PATH=/usr/bin:/bin", "LANG=C", "SWIFT_DETERMINISTIC_HASHING=1"]


@dataclass(frozen=True)
class Case:
    id: str
    kind: str  # "in-process" or "live"
    what: str
    # in process: the notification-bench case (its filter is a substring: one no other case's name
    # contains; the run checks that exactly one case ran), and N, the iterations of the shorter run
    bench_case: str = ""
    # live: the request, the status every reply must have, and N, the requests of one window
    method: str = "GET"
    path: str = ""
    payload: str = ""
    status: int = 200
    count: int = 0


CASES = [
    Case("render-typical", "in-process",
         "BodyRenderer.render of the bench's 159-byte chat message (bold, a link, code, strikethrough, a mention)",
         bench_case="render typical chat message", count=200),
    Case("render-hostile-nested-links", "in-process",
         "BodyRenderer.render of 800 nested link openers, `a`, 800 `](u)` (deep nesting, 4001 bytes)",
         bench_case="render hostile: nested links 800 deep", count=4),
    Case("render-hostile-emphasis", "in-process",
         "BodyRenderer.render of 1365 × `**a` (many delimiters, none closing in order; 4095 bytes)",
         bench_case="render hostile: 1365 × **a", count=4),
    Case("service-body", "in-process",
         "NotificationTextService.handle and didRespond for POST /body with payloads/body-typical.json (access log off)",
         bench_case="service POST /body, typical message", count=100),
    Case("service-compose-20", "in-process",
         "the service's POST /compose with payloads/compose-20.json: decode, compose 20 pending, reply JSON",
         bench_case="service POST /compose, 20 pending", count=40),
    Case("service-compose-20-ar", "in-process",
         "POST /compose as service-compose-20, with \"locale\":\"ar\" (Arabic catalog, plural rules, isolation)",
         bench_case="service POST /compose (ar), 20 pending", count=40),
    Case("service-compose-20-push", "in-process",
         "POST /compose as service-compose-20, with \"push\":{} (the APNs, FCM and Web Push payloads, fitted)",
         bench_case="service POST /compose (push), 20 pending", count=40),
    # One live case per route of Sources/NotificationService/Route.swift, and
    # a refusal: what the adapter, evhttp and the service pay for one request.
    Case("live-body", "live", "POST /body with payloads/body-typical.json, one request",
         method="POST", path="/body", payload="body-typical.json", count=50),
    Case("live-compose", "live", "POST /compose with payloads/compose-20.json, one request",
         method="POST", path="/compose", payload="compose-20.json", count=30),
    Case("live-relay", "live",
         "POST /relay with payloads/relay-loop-20.json (a loop: compose 20 pending for three devices, plan, sends),"
         " one request",
         method="POST", path="/relay", payload="relay-loop-20.json", count=30),
    Case("live-healthz", "live", "GET /healthz, one request", path="/healthz", count=100),
    Case("live-readyz", "live", "GET /readyz, one request", path="/readyz", count=100),
    Case("live-metrics", "live", "GET /metrics (the Prometheus text of every route), one request",
         path="/metrics", count=10),
    Case("live-openapi", "live", "GET /openapi.yaml (59 KB, embedded), one request", path="/openapi.yaml", count=50),
    Case("live-playground-page", "live", "GET / (the playground page, 10 KB), one request", path="/", count=50),
    Case("live-playground-css", "live", "GET /playground.css, one request", path="/playground.css", count=50),
    Case("live-playground-js", "live", "GET /playground.js, one request", path="/playground.js", count=50),
    Case("live-playground-svg", "live", "GET /playground.svg, one request", path="/playground.svg", count=100),
    Case("live-playground-settings", "live", "GET /playground.json (this server's app name and catalogs), one request",
         path="/playground.json", count=100),
    Case("live-unmatched", "live", "GET /nowhere: the 404 problem reply, one request", path="/nowhere", status=404,
         count=100),
    Case("live-body-refused", "live", "POST /body with a body that is not JSON: the 400 problem reply, one request",
         method="POST", path="/body", status=400, count=50),
]
REFUSED_BODY = b"{\"text\": not json}"


def isolated(command: list[str], environment: list[str] = ()) -> list[str]:
    """`command` with the fixed environment and address layout."""
    return ["setarch", platform.machine(), "-R", "env", "-i", *FIXED_ENVIRONMENT, *environment, *command]


def callgrind(out_file: Path) -> list[str]:
    return ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}", "--dump-instr=no", "--dump-line=no"]


def total_ir(path: Path) -> int:
    """The instructions of one callgrind output file (its `summary:` or `totals:` line)."""
    total = None
    for line in path.read_text(errors="replace").splitlines():
        if line.startswith(("summary:", "totals:")):
            total = int(line.split()[1])
    if total is None:
        raise RuntimeError(f"{path}: no summary line")
    return total


def relative(path: Path) -> str:
    """The binary as the measured process names it: relative to the project, symbolic links resolved, so
    every clone, and `.build/release` as well as `swift build --show-bin-path`, passes the same argv (its
    length moves the stack, and with it a few instructions of every aligned copy)."""
    resolved = path.resolve()
    return str(resolved.relative_to(REPO)) if resolved.is_relative_to(REPO) else str(resolved)


def measure_in_process(case: Case, bench: Path, scratch: Path) -> dict:
    counts = []
    for iterations in (case.count, 2 * case.count):
        out_file = scratch / f"{case.id}-{iterations}.out"
        done = subprocess.run(
            isolated(callgrind(out_file) + [relative(bench), "--iterations", str(iterations), case.bench_case]),
            cwd=REPO, capture_output=True, text=True, timeout=600)
        ran = [line for line in done.stdout.splitlines() if line.endswith(f": {iterations} runs")]
        if done.returncode != 0 or len(ran) != 1:
            raise RuntimeError(f"{case.id}: notification-bench ran {len(ran)} cases named {case.bench_case!r} "
                               f"(exit {done.returncode}): {done.stderr[-600:]}")
        counts.append(total_ir(out_file))
    return {"instructions": (counts[1] - counts[0]) / case.count, "runs": counts}


class Connection:
    """One kept-alive HTTP/1.1 connection sending the same request again and again."""

    def __init__(self, port: int, request: bytes, status: int):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.request = request
        self.status = status
        self.pending = b""

    def exchange(self, times: int) -> None:
        for _ in range(times):
            self.socket.sendall(self.request)
            self.read_response()

    def read_response(self) -> None:
        while b"\r\n\r\n" not in self.pending:
            self.pending += self.receive()
        head, self.pending = self.pending.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        if status != self.status:
            raise RuntimeError(f"{lines[0]!r}, expected {self.status}")
        length = next(int(line.split(":", 1)[1]) for line in lines[1:] if line.lower().startswith("content-length:"))
        while len(self.pending) < length:
            self.pending += self.receive()
        self.pending = self.pending[length:]

    def receive(self) -> bytes:
        chunk = self.socket.recv(1 << 16)
        if not chunk:
            raise RuntimeError("the server closed the connection")
        return chunk

    def close(self) -> None:
        self.socket.close()


def request_bytes(case: Case) -> bytes:
    body = (PAYLOADS / case.payload).read_bytes() if case.payload else (REFUSED_BODY if case.method == "POST" else b"")
    head = f"{case.method} {case.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    if case.method == "POST":
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    return head.encode() + b"\r\n" + body


class Dumps:
    """Callgrind's `dump` monitor command sent to the server through vgdb (what
    `callgrind_control --dump` does, without its Perl start and its 100 ms wait
    before vgdb wakes a process blocked in epoll_wait): each dump holds the
    instructions since the one before."""

    def __init__(self, pid: int, out_file: Path):
        self.pid = pid
        self.out_file = out_file
        self.seen: set[Path] = set()

    def dump(self) -> int:
        subprocess.run(["vgdb", f"--pid={self.pid}", "--max-invoke-ms=10", "dump"],
                       capture_output=True, timeout=120, check=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            new = sorted(set(self.out_file.parent.glob(self.out_file.name + ".*")) - self.seen)
            if new:
                try:
                    total = total_ir(new[-1])  # written whole before vgdb returns; read again if not
                except RuntimeError:
                    time.sleep(0.05)
                    continue
                self.seen.update(new)
                return total
            time.sleep(0.02)
        raise RuntimeError(f"no new dump of {self.out_file}")


# Windows of N requests per live case; the least is kept (see measure_live).
LIVE_WINDOWS = 4
WARM_UP_REQUESTS = 20


def measure_live(cases: list[Case], binary: Path, scratch: Path) -> dict[str, dict]:
    """Instructions per request of each live case on one server under callgrind.

    Every dump holds the instructions since the one before, and takes
    0.1-0.2 s, in which the loop's timers tick
    (the 50 ms log flush, the 250 ms sweep). So: an idle window (a dump with
    no request) is measured twice and its lesser figure is the timers' share;
    then per case a warm-up, and LIVE_WINDOWS windows of N requests on one
    kept-alive connection, each less the idle share; the least window over N
    is the figure. The least, because the sweep returns freed memory to the
    allocator (`ConnectionTable.giveBackFreedMemory`, a jemalloc purge of
    every arena, 20k-240k instructions) once 8 MiB of request allowances
    have been given back, about every 127 POSTs and at the next 250 ms tick,
    whenever that falls; at most two of the windows hold one.
    """
    out_file = scratch / "serve.out"
    command = isolated(
        callgrind(out_file)
        + [relative(binary), "serve", "--host", "127.0.0.1", "--port", "0", "--threads", "1", "--access-log", "on"],
        [f"GLIBC_TUNABLES={SERVICE_MALLOC_TUNABLES}", f"LD_PRELOAD={JEMALLOC}"])
    results: dict[str, dict] = {}
    with Server("perf-gate serve", command).start(timeout_seconds=180) as server:
        dumps = Dumps(server.pid, out_file)
        dumps.dump()  # the start
        idle = min(dumps.dump(), dumps.dump())
        for case in cases:
            connection = Connection(server.port, request_bytes(case), case.status)
            try:
                connection.exchange(WARM_UP_REQUESTS)  # the connection, the kept buffers, the route's first replies
                dumps.dump()
                windows = []
                for _ in range(LIVE_WINDOWS):
                    connection.exchange(case.count)
                    windows.append(dumps.dump())
            finally:
                connection.close()
            results[case.id] = {"instructions": (min(windows) - idle) / case.count, "runs": windows, "idle": idle}
    return results


def versions(bin_path: Path) -> dict[str, str]:
    def first_line(command: list[str]) -> str:
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=60)
            return (done.stdout or done.stderr).strip().splitlines()[0]
        except (OSError, IndexError, subprocess.TimeoutExpired):
            return "unknown"

    return {
        "swift": first_line([os.environ.get("SWIFT", "swift"), "--version"]),
        "valgrind": first_line(["valgrind", "--version"]),
        "libevent": first_line(["pkg-config", "--modversion", "libevent"]),
        "jemalloc": first_line(["dpkg-query", "-W", "-f", "${Version}", "libjemalloc2"]),
        "machine": platform.machine(),
        "build": relative(bin_path),
        "swift_stdlib": stdlib_linkage(bin_path / "notification-text"),
    }


def stdlib_linkage(binary: Path) -> str:
    """"static" (swift build --static-swift-stdlib, as deployed and as `make perf-gate` builds) or "dynamic"."""
    done = subprocess.run(["ldd", str(binary)], capture_output=True, text=True, timeout=60)
    return "dynamic" if "libswiftCore.so" in done.stdout else "static"


# Budgets one case has against another measured in the same run, whatever
# the thresholds: (case, base case, at most this many times its instructions).
# A compose with `push` costs at most 1.5× the same compose without it: the
# three alert payloads and the three withdrawal payloads (push.md P10-P12, P21),
# and the screen's record (compose.md C10, C15: each entry's digest, alert and
# directness, the text digest, the alert window and the hold).
BUDGETS = [("service-compose-20-push", "service-compose-20", 1.5)]


def over_budget(figures: dict[str, float]) -> list[str]:
    """The BUDGETS broken by `figures`, each as a sentence; prints every budget it can judge."""
    broken = []
    for case_id, base_id, most in BUDGETS:
        if case_id in figures and base_id in figures:
            ratio = figures[case_id] / figures[base_id]
            verdict = "ok" if ratio <= most else "FAIL: over budget"
            print(f"budget: {case_id} / {base_id} = {ratio:.3f} (at most {most:.2f}): {verdict}")
            if ratio > most:
                broken.append(f"{case_id} costs {ratio:.3f}× {base_id}, more than {most:.2f}×")
    return broken


def ratio_verdict(measured: float, threshold: float | None, baseline: bool = False) -> str:
    if threshold is None:
        return "new case" if baseline else "FAIL: no threshold"
    ratio = measured / threshold
    if baseline:
        return "moved" if abs(ratio - 1) > TOLERANCE else "within the tolerance"
    if ratio > 1 + TOLERANCE:
        return "FAIL: over"
    if ratio < 1 - TOLERANCE:
        return "under: re-baseline?"
    return "ok"


def table(rows: list[tuple[str, float, float | None]], baseline: bool = False) -> str:
    """case, threshold, measured, ratio, verdict; with `baseline`, the threshold is the one being replaced."""
    lines = [f"{'case':<30} {'threshold':>12} {'measured':>12} {'ratio':>7}  verdict"]
    for case_id, measured, threshold in rows:
        verdict = ratio_verdict(measured, threshold, baseline)
        if threshold is None:
            lines.append(f"{case_id:<30} {'-':>12} {measured:>12,.0f} {'-':>7}  {verdict}")
        else:
            lines.append(f"{case_id:<30} {threshold:>12,.0f} {measured:>12,.0f} {measured / threshold:>7.3f}  {verdict}")
    return "\n".join(lines)


@dataclass
class Judgement:
    """What one comparison of figures with thresholds found; `failed` decides the exit status."""

    rows: list[tuple[str, float, float | None]]
    over: list[str]
    under: list[str]
    missing: list[str]
    broken_budgets: list[str]

    @property
    def failed(self) -> bool:
        return bool(self.over or self.missing or self.broken_budgets)


def judge(figures: dict[str, float], thresholds: dict[str, float]) -> Judgement:
    """Each measured case against its threshold: over by more than TOLERANCE (or no threshold) fails."""
    rows = [(case_id, measured, thresholds.get(case_id)) for case_id, measured in figures.items()]
    return Judgement(
        rows=rows,
        over=[c for c, m, t in rows if t is not None and m > t * (1 + TOLERANCE)],
        under=[c for c, m, t in rows if t is not None and m < t * (1 - TOLERANCE)],
        missing=[c for c, _, t in rows if t is None],
        broken_budgets=over_budget(figures),
    )


def report(judgement: Judgement, thresholds_path: Path) -> int:
    """Prints the verdict under the table; returns the exit status."""
    if judgement.under:
        print(f"perf-gate: note: {', '.join(judgement.under)} more than {TOLERANCE:.0%} under the threshold; "
              "`make perf-baseline` keeps the gain (commit it saying what made it)")
    if judgement.missing:
        print(f"perf-gate: FAIL: no threshold for {', '.join(judgement.missing)} in {relative(thresholds_path)}: "
              "run `make perf-baseline`", file=sys.stderr)
    if judgement.over:
        print(f"perf-gate: FAIL: {', '.join(judgement.over)} more than {TOLERANCE:.0%} over the threshold "
              f"({relative(thresholds_path)}). If the cost is meant, `make perf-baseline` and say why in the commit.",
              file=sys.stderr)
    for broken in judgement.broken_budgets:
        print(f"perf-gate: FAIL: {broken} (BUDGETS in bench/perf_gate.py)", file=sys.stderr)
    if judgement.failed:
        return 1
    print("perf-gate: ok")
    return 0


def read_thresholds(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"cases": {}}


def self_test(thresholds_path: Path) -> int:
    """The gate can fail: this script's own judging, run as a process on doctored thresholds files.

    First, every path of Route.swift has a live case, and the thresholds
    file has exactly the cases of CASES.

    The checked-in figures stand in for a measurement (--figures), so no
    callgrind run is needed; the thresholds are the same figures scaled.
    Lowered by 10% (every case 11% over) must fail with the table; the figures
    themselves, and thresholds 2.9% lower, must pass; raised by 10% (every case
    9% under) must pass with the note; a case missing from the file must fail."""
    routes = REPO / "Sources" / "NotificationService" / "Route.swift"
    paths = re.findall(r'case "(/[^"]*)": self = ', routes.read_text(encoding="utf-8"))
    measured_paths = {case.path for case in CASES if case.kind == "live"}
    if not paths or set(paths) - measured_paths:
        print(f"perf-gate self-test: FAIL: no live case for {sorted(set(paths) - measured_paths) or 'any path'} of "
              f"{relative(routes)}: add one to CASES in bench/perf_gate.py and run `make perf-baseline`",
              file=sys.stderr)
        return 1
    recorded = read_thresholds(thresholds_path)
    cases = recorded.get("cases", {})
    if set(cases) != {case.id for case in CASES}:
        print(f"perf-gate self-test: FAIL: {relative(thresholds_path)} does not hold exactly the cases of CASES "
              f"(missing: {sorted({c.id for c in CASES} - set(cases))}, extra: {sorted(set(cases) - {c.id for c in CASES})}); "
              "run `make perf-baseline`", file=sys.stderr)
        return 1
    failures = []
    with tempfile.TemporaryDirectory(prefix="perf-gate-self-test-") as directory:
        scratch = Path(directory)
        figures = scratch / "figures.json"
        figures.write_text(json.dumps({key: {"instructions": value["instructions"]} for key, value in cases.items()}))
        first = next(iter(cases))
        last = list(cases)[-1]
        trials = [
            # (what, threshold scale, the one case scaled (None: all), drop a case,
            #  exit status expected, text expected in the output)
            ("thresholds lowered by 10%", 0.90, None, False, 1, "FAIL: over"),
            ("thresholds as measured", 1.00, None, False, 0, "perf-gate: ok"),
            ("thresholds 2.9% lower (within the tolerance)", 0.971, None, False, 0, "perf-gate: ok"),
            ("thresholds raised by 10%", 1.10, None, False, 0, "make perf-baseline"),
            (f"{last} alone 4% over", 1 / 1.04, last, False, 1, f"FAIL: {last} more than 3% over"),
            (f"no threshold for {first}", 1.00, None, True, 1, "no threshold for " + first),
        ]
        for what, scale, only, drop, expected_status, expected_text in trials:
            doctored = json.loads(json.dumps(recorded))
            for key, value in doctored["cases"].items():
                if only is None or key == only:
                    value["instructions"] = value["instructions"] * scale
            if drop:
                del doctored["cases"][first]
            doctored_path = scratch / "thresholds.json"
            doctored_path.write_text(json.dumps(doctored))
            done = subprocess.run([sys.executable, __file__, "--figures", str(figures), "--thresholds", str(doctored_path)],
                                  capture_output=True, text=True, timeout=60)
            output = done.stdout + done.stderr
            good = done.returncode == expected_status and expected_text in output
            print(f"perf-gate self-test: {what}: exit {done.returncode}, expected {expected_status}: "
                  f"{'ok' if good else 'WRONG'}")
            if not good:
                failures.append(what)
                print(output)
            elif scale == 0.90:
                print("  its output, a failure as expected:")
                print("\n".join("    " + line for line in output.splitlines()))
        # A budget broken while every threshold holds: the figures and the
        # thresholds both with a case just over its budget.
        for case_id, base_id, most in BUDGETS:
            doctored = json.loads(json.dumps(recorded))
            doctored["cases"][case_id]["instructions"] = doctored["cases"][base_id]["instructions"] * (most + 0.01)
            over = scratch / "over-budget.json"
            over.write_text(json.dumps({key: {"instructions": value["instructions"]}
                                        for key, value in doctored["cases"].items()}))
            doctored_path = scratch / "thresholds.json"
            doctored_path.write_text(json.dumps(doctored))
            done = subprocess.run([sys.executable, __file__, "--figures", str(over), "--thresholds", str(doctored_path)],
                                  capture_output=True, text=True, timeout=60)
            good = done.returncode == 1 and "over budget" in done.stdout + done.stderr
            what = f"{case_id} {most + 0.01:.2f}× {base_id}"
            print(f"perf-gate self-test: {what}: exit {done.returncode}, expected 1: {'ok' if good else 'WRONG'}")
            if not good:
                failures.append(what)
    if failures:
        print(f"perf-gate self-test: FAIL: {', '.join(failures)}", file=sys.stderr)
        return 1
    print(f"perf-gate self-test: ok (every one of the {len(paths)} paths of Route.swift has a live case; the gate "
          "fails 10% over, one case 4% over and a budget broken, passes within 3%, notes 10% under)")
    return 0


def main() -> int:
    sys.stdout.reconfigure(line_buffering=True)  # the table before a FAIL line on stderr
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", action="store_true", help="write the thresholds file from this run")
    parser.add_argument("--bin-path", type=Path, default=REPO / ".build" / "release",
                        help="the bin directory of `swift build -c release --static-swift-stdlib` "
                             "(notification-text and notification-bench; default %(default)s)")
    parser.add_argument("--cases", help="comma-separated case ids (default: all; not with --baseline)")
    parser.add_argument("--jobs", type=int, default=2, help="in-process cases measured at once")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--thresholds", type=Path, default=THRESHOLDS, help="the thresholds file (default: %(default)s)")
    parser.add_argument("--figures", type=Path,
                        help="judge the figures of an earlier --json file instead of measuring (the self-test's way in)")
    parser.add_argument("--self-test", action="store_true",
                        help="show that the judging fails on doctored thresholds; measures nothing")
    arguments = parser.parse_args()
    if arguments.self_test:
        return self_test(arguments.thresholds)

    selected = CASES
    if arguments.cases:
        if arguments.baseline:
            parser.error("--baseline measures every case")
        wanted = arguments.cases.split(",")
        unknown = set(wanted) - {case.id for case in CASES}
        if unknown:
            parser.error(f"unknown cases: {', '.join(sorted(unknown))}")
        selected = [case for case in CASES if case.id in wanted]

    if arguments.figures:
        if arguments.baseline:
            parser.error("--baseline measures")
        earlier = json.loads(arguments.figures.read_text())
        figures = {case.id: earlier[case.id] for case in selected if case.id in earlier}
        seconds = 0.0
    else:
        for tool in ("valgrind", "vgdb", "setarch"):
            if shutil.which(tool) is None:
                print(f"perf-gate: {tool} is missing (make perf-gate installs valgrind)", file=sys.stderr)
                return 2
        bench = arguments.bin_path / "notification-bench"
        binary = arguments.bin_path / "notification-text"
        for needed in (bench, binary, JEMALLOC):
            if not needed.exists():
                print(f"perf-gate: {needed} is missing", file=sys.stderr)
                return 2
        started = time.monotonic()
        figures = {}
        with tempfile.TemporaryDirectory(prefix="perf-gate-") as directory:
            scratch = Path(directory)
            in_process = [case for case in selected if case.kind == "in-process"]
            with ThreadPoolExecutor(max_workers=max(1, arguments.jobs)) as pool:
                for case, result in zip(in_process, pool.map(lambda c: measure_in_process(c, bench, scratch), in_process)):
                    figures[case.id] = result
            # Alone, after the rest: its timers fire by wall time.
            live = [case for case in selected if case.kind == "live"]
            if live:
                figures.update(measure_live(live, binary, scratch))
        seconds = time.monotonic() - started

    recorded = read_thresholds(arguments.thresholds)
    thresholds = {key: value["instructions"] for key, value in recorded.get("cases", {}).items()}
    judgement = judge({case.id: figures[case.id]["instructions"] for case in selected if case.id in figures},
                      thresholds)
    source = f"from {relative(arguments.figures)}" if arguments.figures else f"measured in {seconds:.0f} s"
    print(f"perf-gate: instructions per operation (callgrind), {len(figures)} cases {source}, "
          f"tolerance {TOLERANCE:.0%}, thresholds {relative(arguments.thresholds)}")
    print(table(judgement.rows, baseline=arguments.baseline))
    if arguments.json:
        arguments.json.write_text(json.dumps({case.id: figures[case.id] for case in selected}, indent=1) + "\n")
    if arguments.figures:
        return report(judgement, arguments.thresholds)

    current = versions(arguments.bin_path)
    recorded_linkage = recorded.get("measured_with", {}).get("swift_stdlib")
    if not arguments.baseline and recorded_linkage and recorded_linkage != current["swift_stdlib"]:
        print(f"perf-gate: the thresholds were measured on a build with the {recorded_linkage} Swift standard "
              f"library, {relative(arguments.bin_path)} has the {current['swift_stdlib']} one: its counts are not "
              "comparable. `make perf-gate` builds and measures the static one.", file=sys.stderr)
        return 2
    if arguments.baseline:
        document = {
            "about": "Instructions per operation under valgrind --tool=callgrind (user space), written by "
                     "`make perf-baseline`; `make perf-gate` (in `make test`) fails a case more than 3% over. "
                     "A commit that changes a figure says why. See bench/README.md, 'The performance gate'.",
            "tolerance": TOLERANCE,
            "measured_with": current,
            "cases": {case.id: {"kind": case.kind, "what": case.what,
                                "how": how(case), "instructions": round(figures[case.id]["instructions"])}
                      for case in CASES},
        }
        arguments.thresholds.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"perf-baseline: wrote {relative(arguments.thresholds)}; commit it with the reason the figures moved")
        return 0

    for key, then in recorded.get("measured_with", {}).items():
        if then != current.get(key):
            print(f"perf-gate: note: the thresholds were measured with {key} {then!r}, this run has {current.get(key)!r}")
    return report(judgement, arguments.thresholds)


def how(case: Case) -> str:
    if case.kind == "in-process":
        return (f"notification-bench --iterations {case.count} and {2 * case.count} {case.bench_case!r}, "
                f"difference / {case.count}")
    return (f"serve --threads 1 --access-log on, jemalloc preloaded; one kept-alive connection, "
            f"{WARM_UP_REQUESTS} warm-up requests, then {LIVE_WINDOWS} windows of {case.count}; "
            f"(least window - idle window) / {case.count}")


if __name__ == "__main__":
    sys.exit(main())
