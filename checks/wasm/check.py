"""The WebAssembly module against the native service, byte for byte.

Every case of the fixture files the service answers (notification-body.json,
compose.json, push.json with its `invalid` requests, l10n.json, reject.json)
goes through the module in both hosts (the Node one, notification-text.mjs
in .build/wasm, through checks/wasm/host.mjs; the Python package in
wasm/python on wasmtime, through wasmtime's C API as it calls by default and
through wasmtime-py's public API) and to the native debug build: the
route of a live `serve` on 127.0.0.1, or for l10n.json the `locale` command.
A case passes in a host when the module's status and bytes are the native
ones, and its answer is what the fixture says. The Python host's cache: a
second process compiles nothing, a damaged file is compiled again.
`configure` against the CLI: app names and default locales, each accepted
by the module exactly when `compose --app-name` or `--default-locale`
accepts it, and then composing as that command does. Then
requests that are not UTF-8 (1,000: ill-formed sequences inserted into
fixture-like requests), given to both hosts as bytes and answered as bytes,
each the service's bytes. Then the relay's core: played relay lives (every
op, every kind of push service answer), the problems and mutated requests,
each answer `relay --json-lines`' line (relay_check.py). Then the
differential run:
random `POST /body` and `POST /compose` requests (fixture requests mutated,
hostile texts) through the Node and the Python host and the command line's
`--json-lines`, every answer identical. One line per failure, a closing `N passed, M failed`.
The parts live beside it: hosts.py (the service, the hosts, the tally),
python_cache.py, configure.py, invalid_utf8.py, relay_requests.py, relay_check.py,
random_requests.py.

Usage: check.py --binary .build/debug/notification-text [--wasm-dir .build/wasm]
                [--bodies 5000] [--composes 2000] [--invalid-utf8 1000] [--seed 1]
                [--relay-lives 24] [--relay-mutations 400]
"""

import argparse
import concurrent.futures
import json
import random
import subprocess
import sys
import time
from pathlib import Path

from configure import run_configure
from hosts import FIXTURES, NOW, ROOT, Service, Tally, canonical, node_answers, python_answers, text
from invalid_utf8 import run_invalid_utf8
from python_cache import run_python_cache
from relay_check import run_relay
from random_requests import compose_fixture_requests, random_body, random_compose

PUSH_MEMBERS = ("kind", "reason", "notification", "locale", "direction", "displayed", "push")


def payload_size(value):  # push.md P20
    return len(text(value).encode())


def fixture_cases():
    """(id, route, request text, judge): judge(status, answer object) -> what is wrong, or None."""
    cases = []
    load = lambda name: json.loads((FIXTURES / name).read_text("utf-8"))

    for c in load("notification-body.json")["cases"]:
        request = {"text": c["text"]} | ({"maxUnits": c["maxUnits"]} if "maxUnits" in c else {})
        want = {k: c[k] for k in ("body", "units", "truncated", "inputCut")}
        cases.append((c["id"], "/body", text(request), expect(200, lambda got, want=want: got, want)))
    for c in load("compose.json")["cases"]:
        cases.append((c["id"], "/compose", text(c["request"]), expect(200, lambda got: got, c["response"])))
    push = load("push.json")
    for c in push["cases"]:
        def members(got, c=c):
            picked = {k: got[k] for k in PUSH_MEMBERS if k in got}
            if "push" in got:
                p = got["push"]
                w = p["withdrawal"]
                picked["sizes"] = {"apns": payload_size(p["apns"]["payload"]), "fcm": payload_size(p["fcm"]["message"]),
                                   "webpush": payload_size(p["webpush"]["payload"]),
                                   "withdrawal-apns": payload_size(w["apns"]["payload"]),
                                   "withdrawal-fcm": payload_size(w["fcm"]["message"]),
                                   "withdrawal-webpush": payload_size(w["webpush"]["payload"])}
            return picked
        want = dict(c["response"]) | ({"sizes": c["sizes"]} if "sizes" in c else {})
        cases.append((c["id"], "/compose", text(c["request"]), expect(200, members, want)))
    for c in push.get("invalid", []):
        cases.append((c["id"], "/compose", text(c["request"]),
                      expect(c.get("status", 400), lambda got: got["code"], c["code"])))
    for c in load("reject.json")["cases"]:
        want = {"code": c["code"], "pointer": c["pointer"]}
        cases.append((c["id"], c["route"], c["request"],
                      expect(c["status"], lambda got: {"code": got.get("code"), "pointer": got.get("pointer")}, want)))
    for c in load("l10n.json")["cases"]:
        kind = c["kind"]
        if kind == "tag":
            question = {"locale": c["tag"]}
            pick = lambda got: ({"valid": True, "normalized": got["normalized"], "maximized": got["maximized"]}
                                if got["valid"] else {"valid": False})
            want = {k: c[k] for k in ("valid", "normalized", "maximized") if k in c}
        elif kind == "choose":
            question = {"locale": c["locale"], "defaultLocale": c["defaultLocale"]}
            pick, want = (lambda got: got["catalog"]), c["catalog"]
        elif kind == "plural":
            question = {"locale": c["tag"], "count": c["count"]}
            pick, want = (lambda got: got["plural"]["category"]), c["category"]
        else:
            question = {"locale": c["locale"], "format": c["key"], "arguments": c["arguments"]}
            pick, want = (lambda got: got["formatted"]), c["expected"]
        cases.append((c["id"], "/locale", text(question), expect(200, pick, want)))
    return cases


def expect(status, pick, want):
    def judge(got_status, answer):
        if got_status != status:
            return f"status {got_status}, want {status}"
        try:
            got = pick(answer)
        except (KeyError, TypeError) as error:
            return f"answer lacks {error}"
        return None if canonical(got) == canonical(want) else f"want {canonical(want)}\n  got  {canonical(got)}"
    return judge


def run_fixtures(args, tally):
    cases = fixture_cases()
    calls = [{"route": route, "request": request} for _, route, request, _ in cases]
    service = Service(args.binary)
    try:
        native = [service.answer(call["route"], call["request"]) for call in calls]
    finally:
        service.close()
    hosts = {"node": node_answers(args.wasm_dir, calls)[0], "python": python_answers(calls),
             "python (wasmtime-py's API)": python_answers(calls, c_api=False)}
    for host, answers in hosts.items():
        passed = 0
        for (case_id, _, _, judge), (status, body), (native_status, native_body) in zip(cases, answers, native):
            problem = None
            if (status, body) != (native_status, native_body):
                problem = f"not the service's bytes\n  service {native_status} {native_body}\n  module  {status} {body}"
            else:
                problem = judge(status, json.loads(body))
            if problem:
                print(f"FAIL {host} {case_id}\n  {problem}")
            passed += problem is None
        tally.add(passed, len(cases) - passed)
        print(f"fixtures through the {host} host: {passed} of {len(cases)} cases identical to the service and as expected")


def run_differential(args, tally):
    rng = random.Random(args.seed)
    compose_requests = compose_fixture_requests()
    bodies = [random_body(rng) for _ in range(args.bodies)]
    composes = [random_compose(rng, compose_requests) for _ in range(args.composes)]
    started = time.monotonic()
    calls = [{"route": "/body", "request": line} for line in bodies] + \
            [{"route": "/compose", "request": line, "now": NOW} for line in composes]

    def cli(command, lines):
        run = subprocess.run([args.binary, command, "--json-lines"], input="".join(line + "\n" for line in lines).encode(),
                             capture_output=True, check=True)
        return run.stdout.decode().split("\n")[:-1]

    # The command line, Node and Python side by side: each is a process of
    # its own or (Python) wasm and ctypes calls, which release the GIL.
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        render, compose = pool.submit(cli, "render", bodies), pool.submit(cli, "compose", composes)
        node = pool.submit(node_answers, args.wasm_dir, calls)
        python = [body for _, body in python_answers(calls)]
        native = {"render": render.result(), "compose": compose.result()}
        answers, memory = node.result()
    hosts = {"node": [body for _, body in answers], "python": python}
    statuses = {}
    failed = 0
    for host, module in hosts.items():
        for kind, lines, wanted, got in (("body", bodies, native["render"], module[: len(bodies)]),
                                         ("compose", composes, native["compose"], module[len(bodies):])):
            for index, (line, want, answer) in enumerate(zip(lines, wanted, got)):
                status = json.loads(answer).get("status", 200) if answer.startswith('{"type"') else 200
                if host == "node":
                    statuses[(kind, status)] = statuses.get((kind, status), 0) + 1
                if want != answer:
                    failed += 1
                    if failed <= 10:
                        print(f"FAIL differential {host} {kind} {index}\n  request {line[:300]}\n  cli    {want[:300]}\n"
                              f"  module {answer[:300]}")
            if len(wanted) != len(lines):
                failed += 1
                print(f"FAIL differential {kind}: the CLI answered {len(wanted)} of {len(lines)} lines")
    total = (len(bodies) + len(composes)) * len(hosts)
    tally.add(total - failed, failed)
    summary = ", ".join(f"{kind} {status}: {count}" for (kind, status), count in sorted(statuses.items()))
    print(f"differential (seed {args.seed}): {total - failed} of {total} random answers identical to the CLI "
          f"({len(bodies)} bodies, {len(composes)} composes through the Node and the Python host; {summary}); "
          f"module memory in Node {memory['memoryBytes']} bytes; {time.monotonic() - started:.1f} s")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--wasm-dir", type=Path, default=ROOT / ".build/wasm")
    parser.add_argument("--bodies", type=int, default=5000)
    parser.add_argument("--composes", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--invalid-utf8", type=int, default=1000, help="requests that are not UTF-8, as bytes")
    parser.add_argument("--relay-lives", type=int, default=24, help="relay lives played through the core")
    parser.add_argument("--relay-mutations", type=int, default=400, help="relay requests mutated at random")
    parser.add_argument("--skip-fixtures", action="store_true")
    args = parser.parse_args()
    args.wasm_dir = args.wasm_dir.resolve()
    tally = Tally()
    if not args.skip_fixtures:
        run_fixtures(args, tally)
        run_python_cache(tally)
        run_configure(args, tally)
    if args.invalid_utf8:
        run_invalid_utf8(args, tally)
    if args.relay_lives:
        run_relay(args, tally)
    if args.bodies or args.composes:
        run_differential(args, tally)
    print(f"{tally.passed} passed, {tally.failed} failed")
    sys.exit(1 if tally.failed else 0)


if __name__ == "__main__":
    main()
