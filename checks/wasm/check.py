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
each the service's bytes. Then the differential run:
random `POST /body` and `POST /compose` requests (fixture requests mutated,
hostile texts) through the Node and the Python host and the command line's
`--json-lines`, every answer identical. One line per failure, a closing `N passed, M failed`.

Usage: check.py --binary .build/debug/notification-text [--wasm-dir .build/wasm]
                [--bodies 5000] [--composes 2000] [--invalid-utf8 1000] [--seed 1]
"""

import argparse
import base64
import concurrent.futures
import http.client
import json
import os
import random
import subprocess
import sys
import tempfile
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
        status, body = self.answer_bytes(route, request.encode())
        return status, body.decode()

    def answer_bytes(self, route, request):
        self.connection.request("POST", route, request, {"Content-Type": "application/json"})
        reply = self.connection.getresponse()
        return reply.status, reply.read()

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
    return ([(a["status"], a["body"] if "body" in a else base64.b64decode(a["bodyBase64"])) for a in answers],
            json.loads(run.stderr.decode().splitlines()[-1]))


def python_answers(calls, c_api=True):
    """(status, body) of each call through the notification_text package
    (wasm/python, with the module `make wasm` put in it): through wasmtime's
    C API as it calls by default, or through wasmtime-py's public API."""
    sys.path.insert(0, str(ROOT / "wasm/python"))
    import notification_text

    notification_text.USE_C_API = c_api
    rules = notification_text.NotificationText()
    edge = type(rules._edge).__name__
    if edge != ("_CEdge" if c_api else "_Edge"):
        raise SystemExit(f"FAIL the Python host called through {edge} where it was asked for c_api={c_api}")
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


# nt_configure against the CLI's options: each value (one list, given to
# both) is accepted by the module exactly when `compose --app-name` or
# `--default-locale` accepts it, and then composes as that command does.

APP_NAMES = ["Zed", "A", "x" * 100, "x" * 101, "", "Bienen 🐝 Ünïcødé", "e\u0301" * 100, "e\u0301" * 101,
             "tab\there", "line\nbreak", "next\u0085line", "zero\u200bwidth", "  ", "\u05d1\u05d6"]
DEFAULT_LOCALES = ["en", "ar", "de-AT", "pt-BR", "zh-TW", "sr-Latn-RS", "EN-gb", "tlh", "x--", "", "en_US", "und",
                   "i-klingon", "zh-Hant-HK", "he-IL-u-nu-latn"]
CONFIGURE_REQUESTS = [
    {"now": NOW, "fetch": "failed"},
    {"now": NOW, "notifications": [
        {"id": "1", "type": "message", "timestamp": "2026-11-29T11:58:00Z", "thread": "t", "text": "**Hi**"},
        {"id": "2", "type": "message", "timestamp": "2026-11-29T11:59:00Z", "thread": "t", "text": "there"}]},
]


def run_configure(args, tally):
    sys.path.insert(0, str(ROOT / "wasm/python"))
    from notification_text import NotificationText

    lines = "".join(text(request) + "\n" for request in CONFIGURE_REQUESTS)
    settings = [("appName", "--app-name", value) for value in APP_NAMES] + \
               [("defaultLocale", "--default-locale", value) for value in DEFAULT_LOCALES]
    failed = accepted = 0
    for member, flag, value in settings:
        cli = subprocess.run([args.binary, "compose", "--json-lines", flag, value], input=lines.encode(),
                             capture_output=True)
        rules = NotificationText()
        status, answer = rules.configure({member: value})
        problem = None
        if (cli.returncode == 0) != (status == 200):
            problem = (f"the CLI {'accepts' if cli.returncode == 0 else 'refuses'} it "
                       f"({cli.stderr.decode().strip()}), the module answers {status} {answer}")
        elif status == 200:
            accepted += 1
            module = "".join(rules.answer_compose(request, now=NOW).body + "\n" for request in CONFIGURE_REQUESTS)
            if module != cli.stdout.decode():
                problem = f"composes otherwise\n  cli    {cli.stdout.decode()[:400]}\n  module {module[:400]}"
        elif json.loads(answer).get("pointer") != f"/{member}":
            problem = f"refused without the member's pointer: {answer}"
        if problem:
            failed += 1
            print(f"FAIL configure {member}={value!r}: {problem}")
    # null is absent (as in every request), and only the two members exist.
    rules = NotificationText()
    kept = '{"appName":"Zed","defaultLocale":"de"}'
    steps = [({"appName": "Zed", "defaultLocale": "de"}, 200, kept), ({"appName": None, "defaultLocale": None}, 200, kept),
             ({}, 200, kept), ({"app": "Zed"}, 400, "unknown-member"), ({"appName": 7}, 400, "invalid-type")]
    for request, want_status, want in steps:
        status, answer = rules.configure(request)
        got = answer if status == 200 else json.loads(answer).get("code")
        if (status, got) != (want_status, want):
            failed += 1
            print(f"FAIL configure {text(request)}: want {want_status} {want}, got {status} {answer}")
    total = len(settings) + len(steps)
    tally.add(total - failed, failed)
    print(f"configure against the CLI's --app-name and --default-locale: {total - failed} of {total} as expected "
          f"({accepted} of {len(settings)} values accepted by both, the rest refused by both)")


# The Python host compiles the module once per process and keeps the compiled
# code on disk: a new process with a cache that has it compiles nothing, and
# the cache keeps the 8 most recently used.
CACHE_PROBE = """
import sys, wasmtime
compiled = []
compile_module = wasmtime.Module.__init__
wasmtime.Module.__init__ = lambda self, *a, **k: compiled.append(1) or compile_module(self, *a, **k)
sys.path.insert(0, sys.argv[1])
from notification_text import NotificationText
first, second = NotificationText(), NotificationText()
assert first.answer_body('{"text":"**a**"}') == second.answer_body('{"text":"**a**"}') == (200, '{"body":"a","units":1,"truncated":false,"inputCut":false}')
print(len(compiled))
"""


def run_python_cache(tally):
    with tempfile.TemporaryDirectory() as cache:
        def compiles():
            run = subprocess.run([sys.executable, "-c", CACHE_PROBE, str(ROOT / "wasm/python")], capture_output=True,
                                 text=True, env=dict(os.environ, NOTIFICATION_TEXT_CACHE=cache))
            return int(run.stdout) if run.returncode == 0 else f"failed: {run.stderr.strip()[-300:]}"
        for index in range(10):  # an older engine's modules, which the new one's write prunes to 8 in all
            old = Path(cache) / f"old-{index}.cwasm"
            old.write_bytes(b"")
            os.utime(old, (1e9 + index, 1e9 + index))
        kept = lambda: sorted(path.name for path in Path(cache).iterdir())
        steps = [("a new cache: one compile for two instances", compiles(), 1),
                 ("8 compiled modules kept, the new one and the 7 newest old", kept(),
                  sorted([f"old-{index}.cwasm" for index in range(3, 10)] + [n for n in kept() if "wasmtime" in n])),
                 ("a new process: no compile", compiles(), 0)]
        for path in Path(cache).glob("*wasmtime*"):
            path.write_bytes(b"not a compiled module")
        steps += [("a damaged cache: compiled again", compiles(), 1), ("and replaced", compiles(), 0)]
    failed = [f"{name}: {got}, want {want}" for name, got, want in steps if got != want]
    for problem in failed:
        print(f"FAIL python cache: {problem}")
    tally.add(len(steps) - len(failed), len(failed))
    print(f"python cache: {len(steps) - len(failed)} of {len(steps)} steps as expected")


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


# Requests that are not UTF-8: a host given bytes must pass them on as they
# are (a host that decodes them first answers 200 where the service refuses).

BAD_UTF8 = [b"\x80", b"\xbf", b"\xc0\x80", b"\xc1\xbf", b"\xe0\x80\x80", b"\xed\xa0\x80", b"\xed\xbf\xbf",
            b"\xf0\x80\x80\x80", b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80", b"\xf8\x88\x80\x80\x80", b"\xfe",
            b"\xff", b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98", b"\xe2\x28\xa1", b"\xc3\x28"]


def invalid_utf8_request(rng, compose_requests):
    """A fixture-like request's UTF-8 with one to three ill-formed sequences,
    mostly inside its strings, or a well-formed character cut short."""
    route = rng.choice(["/body", "/body", "/compose"])
    text_value = random_body(rng) if route == "/body" else random_compose(rng, compose_requests)
    data = bytearray(text_value.encode("utf-8", "surrogatepass"))
    quotes = [index for index, byte in enumerate(data) if byte == 0x22]
    for _ in range(rng.choice([1, 1, 2, 3])):
        roll = rng.random()
        if roll < 0.1:
            starts = [index for index, byte in enumerate(data) if byte >= 0xC2]
            if starts:
                del data[rng.choice(starts) + 1]  # a lead byte without its last continuation
                continue
        at = rng.randrange(len(data) + 1) if roll < 0.25 or len(quotes) < 2 else rng.choice(quotes) + 1
        data[at:at] = rng.choice(BAD_UTF8)
    return route, bytes(data)


def run_invalid_utf8(args, tally):
    rng = random.Random(args.seed)
    compose_requests = [c["request"] for name in ("compose.json", "push.json")
                        for c in json.loads((FIXTURES / name).read_text("utf-8"))["cases"]]
    requests = [invalid_utf8_request(rng, compose_requests) for _ in range(args.invalid_utf8)]
    service = Service(args.binary)
    try:
        native = [service.answer_bytes(route, data) for route, data in requests]
    finally:
        service.close()
    calls = [{"route": route, "requestBase64": base64.b64encode(data).decode(),
              **({"now": NOW} if route == "/compose" else {})} for route, data in requests]
    hosts = {"node": node_answers(args.wasm_dir, calls)[0],
             "python": [(status, body.encode()) for status, body in python_answers(
                 [{"route": route, "request": data} for route, data in requests])]}
    codes = {}
    for status, body in native:
        code = json.loads(body).get("code", "200") if status != 200 else "200"
        codes[code] = codes.get(code, 0) + 1
    refused = codes.get("invalid-utf8", 0)
    for host, answers in hosts.items():
        failed = 0
        for index, ((route, data), want, got) in enumerate(zip(requests, native, answers)):
            if want != got:
                failed += 1
                if failed <= 5:
                    print(f"FAIL invalid-utf8 {host} {index} {route}\n  request {data[:200]!r}\n"
                          f"  service {want[0]} {want[1][:200]!r}\n  module  {got[0]} {got[1][:200]!r}")
        tally.add(len(requests) - failed, failed)
        given = "bytes in and out" if host == "node" else "bytes in"
        print(f"invalid UTF-8 through the {host} host, {given}: {len(requests) - failed} of {len(requests)} "
              f"answers the service's bytes")
    # The requests must mostly be refused for their bytes, or they test nothing.
    enough = refused >= len(requests) * 0.8
    tally.add(int(enough), int(not enough))
    print(f"{'' if enough else 'FAIL '}invalid UTF-8: the service answered "
          + ", ".join(f"{code} {count}" for code, count in sorted(codes.items()))
          + f" ({refused} invalid-utf8, at least 80% wanted)")


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
    parser.add_argument("--invalid-utf8", type=int, default=1000, help="requests that are not UTF-8, as bytes")
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
    if args.bodies or args.composes:
        run_differential(args, tally)
    print(f"{tally.passed} passed, {tally.failed} failed")
    sys.exit(1 if tally.failed else 0)


if __name__ == "__main__":
    main()
