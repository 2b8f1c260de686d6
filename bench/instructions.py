"""Instructions per request under callgrind: the one figure a busy shared machine cannot blur.

Each server runs under `valgrind --tool=callgrind`; after a warm-up its counters
are zeroed (`callgrind_control -z`), wrk sends a bounded load (8 connections,
INSTR_SECONDS, default 5), the counters are dumped (`callgrind_control -d`), and
the instructions executed in user space (Ir, all threads, libevent and libc
included; not the kernel) are divided by the requests wrk counted.

Writes bench/out/instructions.md and .json; prints the table.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchlib import BENCH, OUT, Server, machine_description, reference_command, run_wrk, service_command  # noqa: E402

BODY = BENCH / "payloads" / "body-typical.json"
COMPOSE = BENCH / "payloads" / "compose-20.json"
SECONDS = float(os.environ.get("INSTR_SECONDS", "5"))


def callgrind(command: list[str], out_file: Path) -> list[str]:
    # `env VAR=value program …`: the variables go before valgrind, so the
    # program itself runs under it (callgrind does not follow an exec).
    prefix: list[str] = []
    if command and command[0] == "env":
        prefix = ["env"]
        command = command[1:]
        while command and "=" in command[0]:
            prefix.append(command.pop(0))
    return prefix + ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}", "--dump-instr=no"] + command


def total_ir(dump_prefix: Path) -> int:
    """Ir summed over the dump files callgrind_control -d wrote (one per thread with --separate-threads=no: one)."""
    total = 0
    for path in sorted(dump_prefix.parent.glob(dump_prefix.name + "*")):
        for line in path.read_text(errors="replace").splitlines():
            if line.startswith(("totals:", "summary:")):
                total = max(total, int(line.split()[1]))
    return total


def measure(name: str, command: list[str], payload: Path, path: str) -> dict:
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    out_file = OUT / f"callgrind-{slug}.out"
    for stale in OUT.glob(out_file.name + "*"):
        stale.unlink()
    with Server(name, callgrind(command, out_file)).start(timeout_seconds=120) as server:
        run_wrk(server, payload, path, 2, connections=8)  # warm-up
        subprocess.run(["callgrind_control", "-z", str(server.pid)], capture_output=True, timeout=60, check=True)
        for stale in OUT.glob(out_file.name + "*"):
            stale.unlink()
        result = run_wrk(server, payload, path, SECONDS, connections=8)
        subprocess.run(["callgrind_control", "-d", str(server.pid)], capture_output=True, timeout=60, check=True)
        time.sleep(0.5)
    ir = total_ir(out_file)
    return {"name": name, "route": path, "requests": result.requests, "ir": ir,
            "ir_per_request": ir / result.requests if result.requests else 0}


def main() -> int:
    OUT.mkdir(exist_ok=True)
    machine = machine_description()
    rows = [
        measure("reference /body", reference_command(), BODY, "/body"),
        measure("service /body", service_command(threads=1, access_log=True), BODY, "/body"),
        measure("reference /compose", reference_command(), COMPOSE, "/compose"),
        measure("service /compose", service_command(threads=1, access_log=True), COMPOSE, "/compose"),
    ]
    # Each route against the reference answering that route's request.
    yardstick = {row["route"]: row["ir_per_request"] for row in rows if row["name"].startswith("reference")}
    lines = [
        f"Instructions per request (valgrind --tool=callgrind, user space, wrk -t1 -c8 -d{SECONDS:.0f}s), "
        f"{machine['date']}:",
        "",
        "| server | route | requests | instructions/request | vs reference |",
        "| --- | --- | ---: | ---: | ---: |",
    ]
    for row in rows:
        lines.append(f"| {row['name'].split()[0]} | {row['route']} | {row['requests']:,} | "
                     f"{row['ir_per_request']:,.0f} | {row['ir_per_request'] / yardstick[row['route']]:.2f}× |")
    table = "\n".join(lines)
    print(table)
    (OUT / "instructions.md").write_text(table + "\n", encoding="utf-8")
    (OUT / "instructions.json").write_text(json.dumps({"machine": machine, "rows": rows}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
