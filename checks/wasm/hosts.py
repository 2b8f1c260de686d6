"""What the checks of checks/wasm share: the fixtures, the native service
(a live `serve`, the `locale` command), the module through each host (the
Node one by checks/wasm/host.mjs, the Python package in wasm/python) and
the tally that ends in `N passed, M failed`."""

import base64
import http.client
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "test-fixtures"
NOW = "2026-11-29T12:00:00Z"  # the module's clock for a request without `now` (every fixture request has one)


def canonical(value):
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def text(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


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
    core = notification_text.NotificationRelay() if any(call["route"] == "/relay" for call in calls) else rules
    for instance in (rules, core):
        edge = type(instance._edge).__name__
        if edge != ("_CEdge" if c_api else "_Edge"):
            raise SystemExit(f"FAIL the Python host called through {edge} where it was asked for c_api={c_api}")
    route = {"/body": rules.answer_body, "/locale": rules.answer_locale, "/relay": getattr(core, "relay", None),
             "/compose": lambda request: rules.answer_compose(request, now=NOW)}
    return [tuple(route[call["route"]](call["request"])) for call in calls]


class Tally:
    passed = failed = 0

    def add(self, passed, failed):
        self.passed += passed
        self.failed += failed
