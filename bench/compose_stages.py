"""Instructions per /compose request by stage, from socket to reply (callgrind, user space).

Runs one build of the service as deployed (jemalloc, access log on, to a file)
under `valgrind --tool=callgrind`, loads it with wrk (8 connections,
INSTR_SECONDS, default 5) after a warm-up, and divides the inclusive
instruction count of each stage's function by the requests wrk counted.
Stages are matched by (demangled) function name; a stage whose function a
build does not have shows "-". Usage:

    .venv/bin/python bench/compose_stages.py [BINARY] [LABEL]

BINARY defaults to .build/release/notification-text. Writes
bench/out/compose-stages-LABEL.md and prints it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchlib import BENCH, OUT, REPO, Server, run_wrk, service_command  # noqa: E402
from instructions import callgrind, total_ir  # noqa: E402

COMPOSE = BENCH / "payloads" / "compose-20.json"
SECONDS = float(os.environ.get("INSTR_SECONDS", "5"))

# (stage, regular expression on the demangled name); the first function that
# matches gives the stage's inclusive count.
STAGES = [
    ("libevent loop (everything on the loop thread)", r"^event_base_loop$"),
    ("evhttp: request line and header fields", r"^evhttp_parse_(firstline|headers)_$"),
    ("socket reads into evbuffers", r"^evbuffer_read$"),
    ("the request callback (adapter + service)", r"WorkerLoop\.answer\(_:\)$|WorkerLoop\.configure|EventLoopWorker\.answer\(_:\)$"),
    ("adapter: request read (head, body copy)", r"RequestReader\.read|EventLoopWorker\.request\(from:"),
    ("service: handle (route, decode, compose, JSON)", r"HTTPHandler\.handle\(_:\) in conformance NotificationTextService"),
    # The first pass (and the validated one, when it runs): decode(_:serverApp:catalogs:now:validated:...).
    ("service: decode the compose request",
     r"ComposeDecoder\.decode\(_:serverApp:(catalogs:)?now:(kept:)?(validated:)?(readsShapes:keptShapes:shapedReads:)?\)"),
    ("— notifications read by shape (ADR 0019)", r"ComposeDecoder\.decodeShapedNotification\(\)$"),
    # The members' rules run inline in the shaped read (ADR 0055): no stage of their own.
    ("— escaped strings decoded and appended (either path)", r"ComposeDecoder\.appendUnescaped\(_:\)$"),
    ("— of which appending them: key, record (ADR 0046)", r"ComposeRequest\.appendNotification\(checked:_:moment:\)$"),
    ("service: compose", r"^static Composer\.compose\(_:(reusing:)?\)$"),
    ("service: reply JSON", r"ComposeResponse\.jsonBody|ComposeOutcome\.jsonBody|ComposeResponse\.write\(to:bytes:\)"),
    ("adapter: reply (head and body written, evhttp's bookkeeping; ADR 0020)", r"ReplyWriter\.write|ReplyWriter\.send|EventLoopWorker\.send\(_:for:"),
    ("— of which evhttp_send_reply (with the output buffer frozen)", r"^evhttp_send_reply$"),
    ("service: didRespond (metrics, access-log line)", r"HTTPHandler\.didRespond.* in conformance NotificationTextService"),
    ("socket writes from evbuffers", r"^evbuffer_write_atmost$"),
    ("malloc + free", r"^(malloc|free|calloc|realloc)$"),
]


def inclusive_counts(out_file: Path) -> dict[str, int]:
    # The dumps of the measured load (`.out.N`), not the one written at exit.
    files = sorted(out_file.parent.glob(out_file.name + ".*"))
    annotated = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", "--auto=no", "--threshold=100", *map(str, files)],
        capture_output=True, text=True, check=True).stdout
    demangler = os.environ.get("SWIFT_DEMANGLE", "swift-demangle")
    try:
        annotated = subprocess.run([demangler, "--simplified"], input=annotated, capture_output=True, text=True,
                                   check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pass
    counts: dict[str, int] = {}
    for line in annotated.splitlines():
        if "=>" in line:
            continue
        # The file before the name ends at its first ".swift:" (or "???:"): a
        # name such as `write(to:bytes:)` has colons of its own.
        match = re.match(
            r"\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(?:(?:\S*?\.(?:swift|c|S|h|cpp)|\?\?\?|//<compiler-generated>):)?"
            r"(.+?)(?: \[[^\]]*\])?$", line)
        if not match:
            continue
        name = match.group(2).strip()
        counts.setdefault(name, int(match.group(1).replace(",", "")))
    return counts


def main() -> int:
    binary = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / ".build" / "release" / "notification-text"
    label = sys.argv[2] if len(sys.argv) > 2 else "current"
    command = [str(binary) if part.endswith("/notification-text") else part
               for part in service_command(threads=1, access_log=True)]
    out_file = OUT / f"callgrind-compose-{label}.out"
    for stale in OUT.glob(out_file.name + "*"):
        stale.unlink()
    with Server(f"compose stages {label}", callgrind(command, out_file)).start(timeout_seconds=120) as server:
        run_wrk(server, COMPOSE, "/compose", 2, connections=8)
        subprocess.run(["callgrind_control", "-z", str(server.pid)], capture_output=True, timeout=60, check=True)
        for stale in OUT.glob(out_file.name + "*"):
            stale.unlink()
        result = run_wrk(server, COMPOSE, "/compose", SECONDS, connections=8)
        subprocess.run(["callgrind_control", "-d", str(server.pid)], capture_output=True, timeout=60, check=True)
        time.sleep(0.5)
    requests = result.requests
    counts = inclusive_counts(out_file)
    lines = [f"/compose (20 pending), {label} ({binary}), callgrind, wrk -c8 -d{SECONDS:.0f}s, {requests:,} requests:",
             "", "| stage | instructions/request |", "| --- | ---: |",
             f"| everything (user space) | {total_ir(out_file) / requests:,.0f} |"]
    for stage, pattern in STAGES:
        found = [count for name, count in counts.items() if re.search(pattern, name)]
        figure = f"{sum(found) / requests:,.0f}" if "malloc" in stage and found else (
            f"{max(found) / requests:,.0f}" if found else "-")
        lines.append(f"| {stage} | {figure} |")
    table = "\n".join(lines)
    print(table)
    (OUT / f"compose-stages-{label}.md").write_text(table + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
