"""The module in Python (the notification_text package on wasmtime): how long
`NotificationText()` takes, first with nothing cached (wasmtime compiles the
module), then in a new process whose cache has it, then a second time in one
process; and the median time per answer of a typical `POST /body`
(bench/payloads/body-typical.json), with its rate against the native
engine's when notification-bench is given. bench/wasm.sh runs it.

usage: python bench/wasm_python.py [--bench PATH/notification-bench] [--package wasm/python]
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONSTRUCT = """
import sys, time
sys.path.insert(0, sys.argv[1])
from notification_text import NotificationText
started = time.perf_counter(); NotificationText(); first = time.perf_counter() - started
started = time.perf_counter(); NotificationText(); second = time.perf_counter() - started
print(first * 1000, second * 1000)
"""


def constructions(package, cache):
    """(first, second) milliseconds in a new process with `cache` as its cache folder."""
    environment = dict(os.environ, NOTIFICATION_TEXT_CACHE=str(cache))
    run = subprocess.run([sys.executable, "-c", CONSTRUCT, str(package)], env=environment, capture_output=True,
                         text=True, check=True)
    return tuple(map(float, run.stdout.split()))


def median_microseconds(run, batch=2000, rounds=15):
    for _ in range(batch):
        run()
    per_answer = []
    for _ in range(rounds):
        started = time.perf_counter()
        for _ in range(batch):
            run()
        per_answer.append((time.perf_counter() - started) / batch * 1e6)
    return statistics.median(per_answer)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--package", type=Path, default=ROOT / "wasm/python")
    parser.add_argument("--bench", help="the release notification-bench, for the native rate")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        cold, second = constructions(args.package, cache)
        warm, _ = min((constructions(args.package, cache) for _ in range(5)), key=lambda pair: pair[0])
    print(f"NotificationText(): {cold:.0f} ms with nothing cached (compiled), {warm:.1f} ms in a new process "
          f"from the cache (best of 5), {second:.1f} ms the second time in a process")

    sys.path.insert(0, str(args.package))
    from notification_text import NotificationText

    rules = NotificationText()
    body = (ROOT / "bench/payloads/body-typical.json").read_bytes()
    assert rules.answer_body(body).status == 200
    module = median_microseconds(lambda: rules.answer_body(body))
    print(f"typical POST /body in Python, answer_body: {module:.2f} µs per answer (median)")
    if args.bench:
        line = subprocess.run([args.bench, "engine RequestAnswers.body"], capture_output=True, text=True,
                              check=True).stdout.strip().splitlines()[-1]
        value, unit = re.search(r"(\d+) (ns|µs)$", line).groups()
        native = int(value) / (1 if unit == "µs" else 1000)
        print(f"native engine in process: {native:.2f} µs; Python answers at {native / module:.3f} of the native rate "
              f"(target: at least 0.1)")


if __name__ == "__main__":
    main()
