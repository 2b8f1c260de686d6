#!/usr/bin/env python3
"""The relay of examples/relay/relay.py on the core (`POST /relay` of the
live service, or with `--core host` the relay's WebAssembly module in
process through the Python host), given the fakes of relay.py, and the device model (model.py,
devices.py, services.py, invariants.py): the scenarios of
test-fixtures/scenarios.json, and seeded random sequences of events with the
invariant of docs/spec/screen.md section 4 (I1 to I5, the badge, the tier and
the language) checked after every settled step, in the realistic model
(latency, reordering, offline periods, crashes, duplicates, the platforms'
limits; the limits no rule can mend are counted apart).

usage: check.py (--binary PATH | --url URL | --core host) [--scenarios] [--random N] [--seed S] [--self-test]

  --core host   the core through the relay's module (wasm/python's package,
                `make wasm` first; wasmtime importable): no service at all
                (default: http, the service of --binary or --url;
                $RELAY_CORE sets the default)
  --scenarios   every case of test-fixtures/scenarios.json: after each step,
                what each device shows must be the case's, and I1 to I5 hold
  --random N    N random sequences of events; every settled step is checked
  --self-test   the same checker against deliberately broken relays and apps
                (each must be caught), before anything else

One recipient's world is in world.py, the random sequences in random_runs.py,
the broken relays and apps of the self-test in self_test.py.

Standard library only (and wasmtime with --core host). Exit status 0 when everything holds, 1 otherwise.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from random_runs import print_first, print_limits, run_random  # noqa: E402
from relay import core_for  # noqa: E402
from self_test import self_test  # noqa: E402
from world import ROOT, World  # noqa: E402


def run_scenarios(core, path):
    cases = json.loads(path.read_text(encoding="utf-8"))["cases"]
    failed = 0
    for case in cases:
        world = World(case, core, seed=case.get("seed", 1))
        problems = []
        for index, step in enumerate(case["steps"], 1):
            world.apply(step["event"])
            if step.get("settle", True):
                world.settle()
                world.check()
            for device_id, device in world.devices.items():
                want = step.get("screens", {}).get(device_id, step.get("screen"))
                if want is not None and device.screen() != want:
                    problems.append(f"step {index}: {device_id} shows {json.dumps(device.screen(), ensure_ascii=False)}"
                                    f", expected {json.dumps(want, ensure_ascii=False)}")
                badge = step.get("badges", {}).get(device_id, step.get("badge"))
                if badge is not None and device.badge != badge:
                    problems.append(f"step {index}: {device_id} badge {device.badge}, expected {badge}")
            problems += [f"step {index}: {rule} {text}" for rule, text in world.violations]
            world.violations.clear()
            want_limits = step.get("limits", {})
            got_limits = {device_id: sorted(label for d, label in world.limited if d == device_id)
                          for device_id in world.devices}
            for device_id in world.devices:
                if sorted(want_limits.get(device_id, [])) != got_limits[device_id]:
                    problems.append(f"step {index}: {device_id} measured limits {got_limits[device_id]},"
                                    f" expected {sorted(want_limits.get(device_id, []))}")
            if "silent" in step and world.silent_pushes() != step["silent"]:
                problems.append(f"step {index}: {world.silent_pushes()} silent Web pushes, expected {step['silent']}")
        if problems:
            failed += 1
            print(f"FAIL {case['id']}")
            for problem in problems[:6]:
                print(f"     {problem}")
        else:
            print(f"ok   {case['id']}")
    print(f"{len(cases) - failed} passed, {failed} failed")
    return failed == 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary")
    parser.add_argument("--url", help="a running service, http://127.0.0.1:PORT")
    parser.add_argument("--core", choices=("http", "host"), default=os.environ.get("RELAY_CORE") or "http",
                        help="the door to the core: the service over HTTP, or the relay's module in process")
    parser.add_argument("--scenarios", action="store_true")
    parser.add_argument("--random", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("--jobs", type=int, default=2, help="processes for --random and --self-test (the service is shared)")
    args = parser.parse_args()
    server = None
    if args.core == "host":
        door = "host"
    elif args.binary:
        server = subprocess.Popen([args.binary, "serve", "--host", "127.0.0.1", "--port", "0", "--access-log", "off"],
                                  stdout=subprocess.PIPE, text=True)
        door = "http://127.0.0.1:%d" % json.loads(server.stdout.readline())["port"]
    else:
        door = args.url
    ok = True
    core = core_for(door)
    print(f"core: {'the relay module through the Python host' if door == 'host' else 'POST /relay at ' + door}")
    try:
        if args.self_test:
            ok &= self_test(door, args.seed, args.jobs)
        if args.scenarios:
            ok &= run_scenarios(core, ROOT / "test-fixtures" / "scenarios.json")
        if args.random:
            began = time.monotonic()
            totals = run_random(door, args.random, args.seed, args.jobs, core)
            print_first(totals)
            rules = ", ".join(f"{rule} {n}" for rule, n in sorted(totals["rules"].items()))
            print(f"random: {totals['sequences']} sequences (seed {args.seed}), {totals['steps']} steps,"
                  f" {totals['checked']} settled steps checked, {totals['violations']} violations"
                  f"{' (' + rules + ')' if rules else ''}, {time.monotonic() - began:.1f} s")
            print_limits(totals)
            ok &= totals["violations"] == 0
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=15)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
