"""HTTP benchmark: the service, the C evhttp reference and the Python peer, side by side.

Each run is wrk with one client thread and 64 keep-alive connections against
one server thread, on 127.0.0.1, bounded in time. Runs of the servers are
interleaved, in a new shuffled order each round, so a noisy neighbour on the
shared machine hits all of them alike and no server always follows the same
one; the median of the rounds is shown.

Environment knobs: BENCH_SECONDS (per run, default 5), BENCH_ROUNDS (default 5),
BENCH_SEED (the shuffles; default 1, so a rerun runs the same orders),
BENCH_MILLION (1: keep loading the service until it has served a million
requests, then read its RSS; default 1), BENCH_PEER (1: include the Python
peer; default 1), BENCH_ACCESS_LOG (1: also the service with its access log off,
beside the main comparison; default 1), SERVICE_CMD (the service's command line).

The main comparison (the `service` rows and every ratio) runs the service as
deployed: jemalloc preloaded, one thread, the access log on (to a file).

Three requests: /body (body-typical.json), /compose (compose-20.json) and
/compose with `"push":{}` (the relay's call); each /compose is compared with
a reference process sending the service's own reply to that request.

Writes bench/out/http.json and bench/out/http.md; prints the table.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchlib import (  # noqa: E402
    BENCH, OUT, Server, WrkResult, check_reply, machine_description, peer_command, reference_command,
    run_wrk, service_command, REPO,
)

BODY = BENCH / "payloads" / "body-typical.json"
COMPOSE = BENCH / "payloads" / "compose-20.json"
# The relay's real call: compose-20.json with `"push":{}` first, as the gate's
# `service-compose-20-push` case sends it (written to out/ at the start).
COMPOSE_PUSH = OUT / "compose-20-push.json"
SECONDS = float(os.environ.get("BENCH_SECONDS", "5"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
SEED = int(os.environ.get("BENCH_SEED", "1"))
MILLION = os.environ.get("BENCH_MILLION", "1") == "1"
WITH_PEER = os.environ.get("BENCH_PEER", "1") == "1"
WITH_ACCESS_LOG = os.environ.get("BENCH_ACCESS_LOG", "1") == "1"


def median_result(results: list[WrkResult]) -> WrkResult:
    """The run with the median throughput (its latency and CPU figures belong to it)."""
    ordered = sorted(results, key=lambda r: r.rps)
    return ordered[(len(ordered) - 1) // 2]


def main() -> int:
    OUT.mkdir(exist_ok=True)
    machine = machine_description()
    servers = {
        "reference": Server("reference (C evhttp, fixed reply)", reference_command()),
        "service": Server("service as deployed (Swift, --threads 1, jemalloc, access log on to a file)",
                          service_command(threads=1, access_log=True)),
        # The same service on glibc's malloc, to show what the allocator is worth.
        "service+glibc": Server("service on glibc malloc (not deployed; access log on)",
                                service_command(threads=1, access_log=True, allocator="glibc")),
    }
    if WITH_ACCESS_LOG:
        servers["service-log"] = Server("service, access log off (jemalloc)", service_command(1, access_log=False))
    if WITH_PEER:
        servers["peer"] = Server("peer (Python ThreadingHTTPServer)", peer_command())
    # /compose has a second yardstick: the reference answering the same
    # request with the service's own reply to it, byte for byte (~1.8 KB
    # against the /body reply's ~0.3 KB), so both sides make the same HTTP
    # exchange and the difference is the service's work alone.
    # The same for /compose with `push`, the relay's call: its own reference
    # process sends the service's reply with the payloads.
    COMPOSE_PUSH.write_bytes(b'{"push":{},' + COMPOSE.read_bytes().lstrip()[1:])
    for request, reply_name, key, label in (
            (COMPOSE, "compose-20-reply.json", "reference+reply", "the service's /compose reply"),
            (COMPOSE_PUSH, "compose-20-push-reply.json", "reference+push", "the service's /compose reply with push")):
        reply = OUT / reply_name
        reply.write_bytes(subprocess.run(
            [str(REPO / ".build" / "release" / "notification-text"), "compose"],
            stdin=request.open("rb"), capture_output=True, check=True).stdout.rstrip(b"\n"))
        servers[key] = Server(f"reference, {label}", reference_command(reply))
    served = {key: 0 for key in servers}
    try:
        for server in servers.values():
            server.start()
            print(f"started {server.name}: pid {server.pid}, {server.start_line}", flush=True)

        # Sanity: each server answers the typical message; service and peer agree on the body.
        replies = {}
        for key, server in servers.items():
            if key in ("reference+reply", "reference+push"):
                continue
            status, text = check_reply(server, BODY, "/body")
            replies[key] = text
            if status != 200:
                raise RuntimeError(f"{server.name}: POST /body answered {status}: {text[:300]}")
        if "peer" in replies and json.loads(replies["service"]).get("body") != json.loads(replies["peer"]).get("body"):
            print("WARNING: service and peer bodies differ for the typical message", flush=True)
        status, text = check_reply(servers["service"], COMPOSE, "/compose")
        if status != 200:
            raise RuntimeError(f"service: POST /compose answered {status}: {text[:300]}")
        if check_reply(servers["reference+reply"], COMPOSE, "/compose")[1] != text:
            raise RuntimeError("the reference's /compose reply differs from the service's")
        status, text = check_reply(servers["service"], COMPOSE_PUSH, "/compose")
        if status != 200 or '"push":{' not in text:
            raise RuntimeError(f"service: POST /compose with push answered {status}: {text[:300]}")
        if check_reply(servers["reference+push"], COMPOSE_PUSH, "/compose")[1] != text:
            raise RuntimeError("the reference's /compose reply with push differs from the service's")

        for key, server in servers.items():  # warm-up: caches, allocator, JIT-free but page faults
            served[key] += run_wrk(server, BODY, "/body", 2).requests

        compose_keys = ("reference", "reference+reply", "service") + (("service-log",) if WITH_ACCESS_LOG else ())
        push_keys = ("reference+push", "service")
        body_runs: dict[str, list[WrkResult]] = {
            key: [] for key in servers if key not in ("reference+reply", "reference+push")}
        compose_runs: dict[str, list[WrkResult]] = {key: [] for key in compose_keys}
        push_runs: dict[str, list[WrkResult]] = {key: [] for key in push_keys}
        shuffler = random.Random(SEED)

        def run_one(round_index: int, label: str, key: str, payload: Path, path: str,
                    runs: dict[str, list[WrkResult]]) -> None:
            """One wrk run of one server, kept in runs and counted as served."""
            result = run_wrk(servers[key], payload, path, SECONDS)
            runs[key].append(result)
            served[key] += result.requests
            print(f"round {round_index + 1} {label:13} {key:15} {result.rps:9.0f} req/s  p99 {result.p99_ms:6.2f} ms"
                  f"  cpu {result.cpu_us_per_request:6.1f} us/req", flush=True)

        for round_index in range(ROUNDS):
            body_order = shuffler.sample(list(body_runs), len(body_runs))
            compose_order = shuffler.sample(list(compose_keys), len(compose_keys))
            push_order = shuffler.sample(list(push_keys), len(push_keys))
            print(f"round {round_index + 1} order: /body {', '.join(body_order)}; /compose {', '.join(compose_order)}; "
                  f"/compose push {', '.join(push_order)}", flush=True)
            for key in body_order:
                run_one(round_index, "/body", key, BODY, "/body", body_runs)
            for key in compose_order:
                run_one(round_index, "/compose", key, COMPOSE, "/compose", compose_runs)
            for key in push_order:
                run_one(round_index, "/compose push", key, COMPOSE_PUSH, "/compose", push_runs)

        rss_after_million = None
        if MILLION:
            service = servers["service"]
            while served["service"] < 1_000_000:
                served["service"] += run_wrk(service, BODY, "/body", 10).requests
            rss_after_million = service.rss_kib() / 1024
            print(f"service served {served['service']} requests; RSS {rss_after_million:.1f} MiB", flush=True)

        rss = {key: server.rss_kib() / 1024 for key, server in servers.items()}
        threads = {key: server.threads() for key, server in servers.items()}
    finally:
        for server in servers.values():
            server.stop()

    body = {key: median_result(runs) for key, runs in body_runs.items()}
    compose = {key: median_result(runs) for key, runs in compose_runs.items()}
    push = {key: median_result(runs) for key, runs in push_runs.items()}
    reference_rps = body["reference"].rps

    rows = []
    for key, result in body.items():
        rows.append(("/body", servers[key].name, result, rss[key], threads[key]))
    for key, result in compose.items():
        label = servers[key].name + (" (6 KB request)" if key.startswith("reference") else "")
        rows.append(("/compose 20", label, result, rss[key], threads[key]))
    for key, result in push.items():
        rows.append(("/compose 20 push", servers[key].name, result, rss[key], threads[key]))

    lines = [
        f"Measured {machine['date']} on {machine['nproc']} × {machine['cpu']} (load average before: {machine['loadavg']}); "
        f"wrk -t1 -c64 -d{SECONDS:.0f}s, median of {ROUNDS} interleaved rounds (order shuffled each round, seed {SEED}).",
        "",
        "| route | server | req/s | vs reference | p50 ms | p99 ms | CPU µs/req | CPU vs reference | RSS MiB | errors |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for route, name, result, rss_mib, _ in rows:
        # Each route against the reference answering that route's request
        # (for /compose, with the same reply bytes).
        yardstick = (push["reference+push"] if route.endswith("push")
                     else compose["reference+reply"] if route.startswith("/compose") else body["reference"])
        lines.append(
            f"| {route} | {name} | {result.rps:,.0f} | {result.rps / yardstick.rps:.0%} | {result.p50_ms:.2f} | "
            f"{result.p99_ms:.2f} | {result.cpu_us_per_request:.1f} | "
            f"{result.cpu_us_per_request / yardstick.cpu_us_per_request:.2f}× | {rss_mib:.1f} | {result.errors + result.non_2xx} |"
        )
    lines.append("")

    service_body, service_compose = body["service"], compose["service"]

    def median_cpu(runs: list[WrkResult]) -> float:
        return statistics.median(r.cpu_us_per_request for r in runs)

    # Capacity from CPU per request: what req/s would be if each server had a
    # core to itself. On a shared machine req/s also measures who got the CPU.
    # /compose is compared with the reference making the same exchange: the
    # same 6 KB request read, the service's own reply sent. The ratios to the
    # reference sending the short /body reply (the yardstick until
    # 2026-11-29 evening) and to the /body reference are printed beside it.
    reference_cpu_median = median_cpu(body_runs["reference"])
    compose_reference_cpu_median = median_cpu(compose_runs["reference+reply"])
    body_capacity = reference_cpu_median / median_cpu(body_runs["service"])
    compose_capacity = compose_reference_cpu_median / median_cpu(compose_runs["service"])
    short_reply_capacity = median_cpu(compose_runs["reference"]) / median_cpu(compose_runs["service"])
    body_rps_ratio = service_body.rps / reference_rps
    compose_rps_ratio = service_compose.rps / compose["reference+reply"].rps
    short_reply_rps_ratio = service_compose.rps / compose["reference"].rps
    compose_vs_body_reference = service_compose.rps / reference_rps
    push_rps_ratio = push["service"].rps / push["reference+push"].rps
    push_capacity = median_cpu(push_runs["reference+push"]) / median_cpu(push_runs["service"])

    # One round's p99 moves by ±30% with the machine, so the row shows every
    # round, and the service's p99 over the reference's in the same round.
    def per_round_p99(key: str) -> str:
        return ", ".join(f"{r.p99_ms:.2f}" for r in body_runs[key])

    p99_ratios = [s.p99_ms / r.p99_ms for s, r in zip(body_runs["service"], body_runs["reference"]) if r.p99_ms > 0]
    p99_ratio = statistics.median(p99_ratios)

    def log_off(runs: dict[str, list[WrkResult]], yardstick: str) -> str:
        if "service-log" not in runs:
            return ""
        ratio = median_result(runs["service-log"]).rps / median_result(runs[yardstick]).rps
        return f"; access log off: {ratio:.0%}"

    targets = [
        ("/body ≥ 90% of reference req/s (as deployed)", body_rps_ratio >= 0.90,
         f"{body_rps_ratio:.0%} by req/s (median round); {body_capacity:.0%} by CPU per request (median of rounds)"
         f"{log_off(body_runs, 'reference')}"),
        ("/body p99 ≤ 1.2× the reference's in the same round", p99_ratio <= 1.2,
         f"median {p99_ratio:.2f}×, range {min(p99_ratios):.2f}–{max(p99_ratios):.2f}×; per round, service "
         f"{per_round_p99('service')} ms, reference {per_round_p99('reference')} ms"),
        ("/compose (20 pending) ≥ 75% of reference req/s (as deployed)", compose_rps_ratio >= 0.75,
         f"{compose_rps_ratio:.0%} by req/s; {compose_capacity:.0%} by CPU per request (reference answering the same "
         f"request with the same reply; against the short fixed reply {short_reply_rps_ratio:.0%} and "
         f"{short_reply_capacity:.0%}; {compose_vs_body_reference:.0%} of the /body reference's req/s)"
         f"{log_off(compose_runs, 'reference+reply')}"),
        ("/compose (20 pending) with push ≥ 80% of reference req/s (as deployed)", push_rps_ratio >= 0.80,
         f"{push_rps_ratio:.0%} by req/s; {push_capacity:.0%} by CPU per request (reference answering the same "
         f"request with the service's reply, payloads included)"),
    ]
    if rss_after_million is not None:
        targets.append(("RSS < 50 MB after 1,000,000 requests", rss_after_million < 50 * 1e6 / 2**20,
                        f"{rss_after_million:.1f} MiB after {served['service']:,} requests"))
    lines += ["| target | measured | met |", "| --- | --- | --- |"]
    for label, met, measured in targets:
        lines.append(f"| {label} | {measured} | {'yes' if met else 'NO'} |")
    table = "\n".join(lines)
    print()
    print(table)

    (OUT / "http.md").write_text(table + "\n", encoding="utf-8")
    (OUT / "http.json").write_text(json.dumps({
        "machine": machine,
        "seconds": SECONDS,
        "rounds": ROUNDS,
        "seed": SEED,
        "body": {key: [vars(r) | {"rps": r.rps, "cpu_us_per_request": r.cpu_us_per_request} for r in runs]
                 for key, runs in body_runs.items()},
        "compose": {key: [vars(r) | {"rps": r.rps, "cpu_us_per_request": r.cpu_us_per_request} for r in runs]
                    for key, runs in compose_runs.items()},
        "compose_push": {key: [vars(r) | {"rps": r.rps, "cpu_us_per_request": r.cpu_us_per_request} for r in runs]
                         for key, runs in push_runs.items()},
        "rss_mib": rss,
        "rss_after_million_mib": rss_after_million,
        "served": served,
        "targets": [{"target": t, "met": m, "measured": v} for t, m, v in targets],
    }, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
