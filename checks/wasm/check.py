"""The WebAssembly module against the native service, byte for byte.

Every case of the fixture files the service answers (notification-body.json,
compose.json, push.json with its `invalid` requests, l10n.json, reject.json)
goes through the module in both hosts `make wasm` leaves in .build/wasm (the
Node one, notification-text.mjs, through checks/wasm/host.mjs; the Python
one, notification_text.py on wasmtime) and to the native debug build: the
route of a live `serve` on 127.0.0.1, or for l10n.json the `locale` command.
A case passes in a host when the module's status and bytes are the native
ones, and its answer is what the fixture says. Then the differential run:
random `POST /body` and `POST /compose` requests (fixture requests mutated,
hostile texts) through the Node host and the command line's `--json-lines`,
every answer identical. One line per failure, a closing `N passed, M failed`.

Usage: check.py --binary .build/debug/notification-text [--wasm-dir .build/wasm]
                [--bodies 5000] [--composes 2000] [--seed 1]
"""

import argparse
import http.client
import json
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "test-fixtures"
NOW = "2026-11-29T12:00:00Z"  # the module's clock for a request without `now` (every fixture request has one)
PUSH_MEMBERS = ("kind", "reason", "notification", "locale", "direction", "push")


def canonical(value):
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def text(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


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


class Service:
    """The native debug build: a live `serve` for the routes, the `locale` command for /locale."""

    def __init__(self, binary):
        self.binary = binary
        self.process = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", "0", "--access-log", "off"],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        start = json.loads(self.process.stdout.readline())
        self.connection = http.client.HTTPConnection("127.0.0.1", start["port"], timeout=30)

    def answer(self, route, request):
        if route == "/locale":
            return self.locale(json.loads(request))
        self.connection.request("POST", route, request.encode(), {"Content-Type": "application/json"})
        reply = self.connection.getresponse()
        return reply.status, reply.read().decode()

    def locale(self, question):
        arguments = [] if question.get("locale") is None else ["--", question["locale"]]
        for member, flag in (("defaultLocale", "--default-locale"), ("count", "--count"), ("format", "--format")):
            if member in question:
                arguments += [flag, str(question[member])]
        if "arguments" in question:
            arguments += ["--arguments", text(question["arguments"])]
        run = subprocess.run([self.binary, "locale", *arguments], capture_output=True, check=True)
        return 200, run.stdout.decode().rstrip("\n")

    def close(self):
        self.connection.close()
        self.process.terminate()
        self.process.wait(timeout=15)


def node_answers(wasm_dir, calls):
    """(status, body) of each call through notification-text.mjs, and the module's memory after."""
    lines = "".join(json.dumps(call) + "\n" for call in calls)
    run = subprocess.run(["node", str(ROOT / "checks/wasm/host.mjs"), str(wasm_dir)], input=lines.encode(),
                         capture_output=True, check=True)
    answers = [json.loads(line) for line in run.stdout.decode().split("\n")[:-1]]  # not splitlines: U+2028
    return [(a["status"], a["body"]) for a in answers], json.loads(run.stderr.decode().splitlines()[-1])


def python_answers(wasm_dir, calls):
    sys.path.insert(0, str(wasm_dir))
    from notification_text import NotificationText

    rules = NotificationText()
    route = {"/body": rules.answer_body, "/locale": rules.answer_locale,
             "/compose": lambda request: rules.answer_compose(request, now=NOW)}
    return [tuple(route[call["route"]](call["request"])) for call in calls]


def run_fixtures(args, tally):
    cases = fixture_cases()
    calls = [{"route": route, "request": request} for _, route, request, _ in cases]
    service = Service(args.binary)
    try:
        native = [service.answer(call["route"], call["request"]) for call in calls]
    finally:
        service.close()
    hosts = {"node": node_answers(args.wasm_dir, calls)[0], "python": python_answers(args.wasm_dir, calls)}
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


# The differential run's requests.

PIECES = ["**", "*", "_", "__", "~~", "`", "```", "[", "](", ")", "<", ">", "#", "- ", "1. ", "> ", "\\", "|", "\n",
          "\n\n", "\r\n", " ", "\t", "&amp;", "&#x1F600;", "http://x.example/a_b", "![i](u)", "e\u0301", "\u200d",
          "\U0001F468\u200d\U0001F469\u200d\U0001F467", "\U0001F1EB\U0001F1F7", "\U0001F44D\U0001F3FD", "\u2028",
          "\u00a0", "\u0627\u0644", "\u05e9\u05dc\u05d5\u05dd", "\u4f60\u597d", "\x00", "\x1b", "\x7f", "\ufeff",
          "word", "Hello", "a", "1", "\u2068", "\u202e", "||spoiler||", "@ana", ":smile:"]


def hostile_text(rng, count):
    return "".join(rng.choice(PIECES) if rng.random() < 0.7 else chr(rng.choice(
        [rng.randrange(0x20, 0x7f), rng.randrange(0xa0, 0x3000), rng.randrange(0x1F300, 0x1FAFF)]))
        for _ in range(count))


def random_body(rng):
    roll = rng.random()
    request = {"text": hostile_text(rng, rng.choice([0, 1, 3, 10, 40, 200, 1500, 5000]))}
    if roll < 0.6:
        request["maxUnits"] = rng.choice([256, 257, 300, 512, 1000, 2048, 4095, 4096])
    elif roll < 0.65:
        request["maxUnits"] = rng.choice([0, 255, -1, 4097, 1.5, "300", None, 2 ** 31, 2 ** 53])
    elif roll < 0.7:
        request = rng.choice([{"text": 1}, {}, {"text": "a", "extra": True}, [], {"text": None}])
    line = text(request)
    if rng.random() < 0.02:
        line = line[: rng.randrange(len(line) + 1)]  # cut: invalid JSON
    return line


def mutate(rng, value, depth=0):
    if isinstance(value, dict):
        result = {}
        for key, item in value.items():
            roll = rng.random()
            if roll < 0.03 and key != "now":
                continue
            result[key] = mutate(rng, item, depth + 1) if roll < 0.5 else item
        if rng.random() < 0.02:
            result["unexpected"] = 1
        return result
    if isinstance(value, list):
        items = [mutate(rng, item, depth + 1) for item in value]
        if items and rng.random() < 0.2:
            items += [mutate(rng, rng.choice(items), depth + 1) for _ in range(rng.randrange(1, 6))]
        if items and rng.random() < 0.1:
            rng.shuffle(items)
        return items
    if isinstance(value, str):
        roll = rng.random()
        if roll < 0.25:
            return hostile_text(rng, rng.choice([0, 1, 5, 30, 300]))
        if roll < 0.3:
            return rng.choice([1, None, True, [], {}])
        return value
    if isinstance(value, bool) or value is None:
        return rng.choice([True, False, None, 0]) if rng.random() < 0.1 else value
    if isinstance(value, (int, float)):
        return rng.choice([0, -1, 1, 7, 99_999, 100_000, 2 ** 31, 2 ** 53, 0.5, "1"]) if rng.random() < 0.2 else value
    return value


def random_compose(rng, requests):
    request = mutate(rng, rng.choice(requests))
    if not isinstance(request, dict) or not isinstance(request.get("now"), str):
        request = {"now": NOW, "notifications": []} if not isinstance(request, dict) else request | {"now": NOW}
    return text(request)


def run_differential(args, tally):
    rng = random.Random(args.seed)
    compose_requests = [c["request"] for name in ("compose.json", "push.json")
                        for c in json.loads((FIXTURES / name).read_text("utf-8"))["cases"]]
    bodies = [random_body(rng) for _ in range(args.bodies)]
    composes = [random_compose(rng, compose_requests) for _ in range(args.composes)]
    started = time.monotonic()
    native = {}
    for command, lines in (("render", bodies), ("compose", composes)):
        run = subprocess.run([args.binary, command, "--json-lines"], input="".join(line + "\n" for line in lines).encode(),
                             capture_output=True, check=True)
        native[command] = run.stdout.decode().split("\n")[:-1]
    calls = [{"route": "/body", "request": line} for line in bodies] + \
            [{"route": "/compose", "request": line, "now": NOW} for line in composes]
    answers, memory = node_answers(args.wasm_dir, calls)
    module = [body for _, body in answers]
    statuses = {}
    failed = 0
    for kind, lines, wanted, got in (("body", bodies, native["render"], module[: len(bodies)]),
                                     ("compose", composes, native["compose"], module[len(bodies):])):
        for index, (line, want, answer) in enumerate(zip(lines, wanted, got)):
            status = json.loads(answer).get("status", 200) if answer.startswith('{"type"') else 200
            statuses[(kind, status)] = statuses.get((kind, status), 0) + 1
            if want != answer:
                failed += 1
                if failed <= 10:
                    print(f"FAIL differential {kind} {index}\n  request {line[:300]}\n  cli    {want[:300]}\n"
                          f"  module {answer[:300]}")
        if len(wanted) != len(lines):
            failed += 1
            print(f"FAIL differential {kind}: the CLI answered {len(wanted)} of {len(lines)} lines")
    total = len(bodies) + len(composes)
    tally.add(total - failed, failed)
    summary = ", ".join(f"{kind} {status}: {count}" for (kind, status), count in sorted(statuses.items()))
    print(f"differential (seed {args.seed}): {total - failed} of {total} random requests identical to the CLI "
          f"({len(bodies)} bodies, {len(composes)} composes; {summary}); module memory {memory['memoryBytes']} bytes; "
          f"{time.monotonic() - started:.1f} s")


class Tally:
    passed = failed = 0

    def add(self, passed, failed):
        self.passed += passed
        self.failed += failed


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--wasm-dir", type=Path, default=ROOT / ".build/wasm")
    parser.add_argument("--bodies", type=int, default=5000)
    parser.add_argument("--composes", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-fixtures", action="store_true")
    args = parser.parse_args()
    args.wasm_dir = args.wasm_dir.resolve()
    tally = Tally()
    if not args.skip_fixtures:
        run_fixtures(args, tally)
    if args.bodies or args.composes:
        run_differential(args, tally)
    print(f"{tally.passed} passed, {tally.failed} failed")
    sys.exit(1 if tally.failed else 0)


if __name__ == "__main__":
    main()
