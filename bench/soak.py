"""Soak: the service under 80% of its peak /body load for SOAK_MINUTES, RSS sampled throughout.

1. Three short peak runs (wrk -t1 -c64, no pause); the best is the service's peak req/s.
2. A few 3-second calibration runs set wrk's pause between a response and the
   next request on each connection so that the load is about 80% of peak
   (wrk cannot pace requests itself; see bench/wrk/post.lua).
3. One wrk run of SOAK_MINUTES (default 1) at that load, RSS read from
   /proc/<pid>/status every SOAK_SAMPLE_SECONDS (default 10).

Growth is RSS at the last sample under load minus RSS at the baseline mark:
minute 2 when the soak is at least 4 minutes long (the target compares minute 2
with minute 10), else the first quarter. RSS once the load has stopped is read
too and shown beside the first sample (taken as the load starts), so idle is
compared with idle: with jemalloc, idle RSS sits ~0.25 MiB above RSS under load.
Bounded: wrk stops itself after the duration.

Writes bench/out/soak.json and bench/out/soak.md; prints the table.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchlib import BENCH, OUT, Server, machine_description, run_wrk, service_command  # noqa: E402

BODY = BENCH / "payloads" / "body-typical.json"
MINUTES = float(os.environ.get("SOAK_MINUTES", "1"))
SAMPLE_SECONDS = float(os.environ.get("SOAK_SAMPLE_SECONDS", "10"))
LOAD_FRACTION = float(os.environ.get("SOAK_LOAD", "0.8"))
CONNECTIONS = 64


def main() -> int:
    if not 0 < MINUTES <= 120:
        print("SOAK_MINUTES must be in (0, 120]", file=sys.stderr)
        return 64
    OUT.mkdir(exist_ok=True)
    machine = machine_description()
    duration = MINUTES * 60
    baseline_seconds = 120.0 if duration >= 240 else duration / 4
    samples: list[tuple[float, int]] = []

    with Server("service (Swift, --threads 1)", service_command(threads=1)) as service:
        run_wrk(service, BODY, "/body", 2)  # warm-up
        # The best of three short runs: on a shared machine a single run often
        # catches a busy moment and would set the soak's load too low.
        peak = max(run_wrk(service, BODY, "/body", 3).rps for _ in range(3))
        target = LOAD_FRACTION * peak
        # Closed loop: rate ≈ connections / (pause + latency). Start from the
        # latency seen at peak, then correct from 3 s runs; each correction is
        # bounded so that one noisy run on a shared machine cannot derail it.
        cycle_at_peak_ms = CONNECTIONS * 1000 / peak
        delay_ms = CONNECTIONS * 1000 / target - cycle_at_peak_ms
        achieved = peak
        for _ in range(3):
            achieved = run_wrk(service, BODY, "/body", 3, delay_ms=delay_ms).rps
            if abs(achieved - target) / target < 0.05:
                break
            delay_ms = min(max(delay_ms * achieved / target, delay_ms / 2, 0.0), delay_ms * 2 + 0.1)
        print(f"peak {peak:,.0f} req/s; soak at ~{achieved:,.0f} req/s "
              f"({achieved / peak:.0%} of peak, pause {delay_ms:.3f} ms) for {MINUTES:g} min", flush=True)

        stop = threading.Event()
        started = time.monotonic()

        def sample() -> None:
            while not stop.is_set():
                samples.append((time.monotonic() - started, service.rss_kib()))
                stop.wait(SAMPLE_SECONDS)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        try:
            soak = run_wrk(service, BODY, "/body", duration, delay_ms=delay_ms)
        finally:
            stop.set()
            sampler.join()
        after_load = (time.monotonic() - started, service.rss_kib())

    baseline = min(samples, key=lambda s: abs(s[0] - baseline_seconds))
    final = samples[-1]
    growth_kib = final[1] - baseline[1]
    peak_rss = max(kib for _, kib in samples + [after_load])
    lines = [
        f"Soak measured {machine['date']} on {machine['nproc']} × {machine['cpu']}: {MINUTES:g} min of "
        f"/body at {soak.rps:,.0f} req/s ({soak.rps / peak:.0%} of the {peak:,.0f} req/s peak), "
        f"{soak.requests:,} requests, p99 {soak.p99_ms:.2f} ms, {soak.errors + soak.non_2xx} errors.",
        "",
        "| minute | RSS MiB |",
        "| ---: | ---: |",
    ]
    step = max(1, len(samples) // 12)
    shown = samples[::step] + ([samples[-1]] if (len(samples) - 1) % step else [])
    for seconds, kib in shown:
        lines.append(f"| {seconds / 60:.1f} | {kib / 1024:.1f} |")
    lines += [
        "",
        f"RSS under load at minute {baseline[0] / 60:.1f}: {baseline[1] / 1024:.1f} MiB; at the last sample under load "
        f"(minute {final[0] / 60:.1f}): {final[1] / 1024:.1f} MiB; growth {growth_kib / 1024:+.2f} MiB; "
        f"highest {peak_rss / 1024:.1f} MiB. Once the load stopped (minute {after_load[0] / 60:.1f}): "
        f"{after_load[1] / 1024:.1f} MiB, against {samples[0][1] / 1024:.1f} MiB as it started.",
    ]
    table = "\n".join(lines)
    print()
    print(table)
    (OUT / "soak.md").write_text(table + "\n", encoding="utf-8")
    (OUT / "soak.json").write_text(json.dumps({
        "machine": machine, "minutes": MINUTES, "peak_rps": peak, "soak_rps": soak.rps, "requests": soak.requests,
        "p99_ms": soak.p99_ms, "errors": soak.errors + soak.non_2xx, "pause_ms": delay_ms,
        "samples": [{"seconds": s, "rss_kib": k} for s, k in samples],
        "baseline": {"seconds": baseline[0], "rss_kib": baseline[1]},
        "final": {"seconds": final[0], "rss_kib": final[1]}, "growth_kib": growth_kib,
        "after_load": {"seconds": after_load[0], "rss_kib": after_load[1]},
    }, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
