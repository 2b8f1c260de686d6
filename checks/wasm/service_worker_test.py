"""examples/service-worker in headless Chromium: a Web Push data message in,
the notification the module composed out, equal to the native service's;
with --playground, the static playground (make playground-static) too: the
page's Body and Compose answers on load, made by the module in the page,
equal to the service's for the same requests.

The folder is served on 127.0.0.1 with the module and its host from `make
wasm`, the example's sw.js behind a test-only prefix (sw-reporting.mjs)
that tells the page when a push reached the worker and when its
showNotification() resolved; Chromium (Debian's, driven by Selenium)
registers it with the notification permission granted; each message is
delivered once with the DevTools protocol's ServiceWorker.deliverPushMessage,
as a push service would deliver it, and once the worker has shown it,
`registration.getNotifications()` is read back, once: a read while a
notification is being shown makes Chromium delete it (sw-reporting.mjs
says how). The
title and body must be the ones the live debug service answers for the same
request (POST /compose: the answer's notification; POST /body: its body),
and its `lang` and `dir` the answer's `locale` and `direction` (a body's:
no language, direction "auto"). Declarative Web Push messages (push.md P23)
the live service wrote, one in Arabic, go through the worker the same way:
what it shows is the message's title, body (the subtitle leading it),
`lang` and `dir`. The relay's payloads delivered out of order are checked in
both shapes: the worker applies the stamp rule with the stamp of a
declarative message's `data`.

Usage: service_worker_test.py --binary .build/debug/notification-text [--wasm-dir .build/wasm] [--seconds 90]
"""

import argparse
import functools
import http.client
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import websocket  # websocket-client, which Selenium depends on
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples/service-worker"

MESSAGES = [
    ("compose request.json", {"compose": json.loads((ROOT / "test-fixtures/request.json").read_text("utf-8"))}),
    ("compose in Arabic", {"compose": {
        "now": "2026-11-29T12:00:00Z", "recipient": "u1", "locale": "ar",
        "notifications": [
            {"id": "1", "source": "chat", "type": "message", "timestamp": "2026-11-29T11:58:00Z", "thread": "t9",
             "threadTitle": "Team", "sender": {"id": "u2", "name": "Ana"}, "text": "**Ship** it 🎉"},
            {"id": "2", "source": "chat", "type": "message", "timestamp": "2026-11-29T11:59:00Z", "thread": "t9",
             "sender": {"id": "u3", "name": "Bo"}, "text": "see `main` ~~now~~"}]}}),
    ("body", {"title": "Ana", "body": {"text": "**Hello** _world_, see [the docs](https://x.example) 👨‍👩‍👧", "maxUnits": 256}}),
]


# A relay's Web Push payloads delivered out of order (docs/spec/screen.md
# section 2): message 1's single (stamp 5) arrives after the summary (stamp 6)
# of the answer that replaced it. The worker must ignore it.
RELAY_T = "2026-11-29T11:59:00Z"
RELAY_ONE = {"id": "1", "type": "message", "timestamp": RELAY_T, "thread": "t1", "sender": {"name": "Ana"},
             "text": "first"}
RELAY_TWO = {"id": "2", "type": "message", "timestamp": RELAY_T, "thread": "t2", "sender": {"name": "Ben"},
             "text": "second"}
RELAY_REQUESTS = [
    {"now": "2026-11-29T12:00:00Z", "notifications": [RELAY_ONE], "push": {"stamp": 5}},
    {"now": "2026-11-29T12:00:01Z", "notifications": [RELAY_TWO, RELAY_ONE],
     "displayed": [{"key": "1", "timestamp": RELAY_T, "group": "t1"}], "push": {"stamp": 6}},
]


# Declarative Web Push messages (push.md P23) as the live service writes them,
# stamped so that each is newer than the last.
APP_URL = "https://chat.example/"
DECLARATIVE_REQUESTS = [
    ("declarative in Arabic", {**MESSAGES[1][1]["compose"],
                               "push": {"webPush": "declarative", "navigate": APP_URL, "stamp": 1, "badge": 2}}),
    ("declarative with a subtitle", {
        "now": "2026-11-29T12:00:00Z", "notifications": [
            {"id": "3", "type": "message", "timestamp": "2026-11-29T11:59:00Z", "thread": "t1", "threadTitle": "Design",
             "sender": {"name": "Ana"}, "text": "Secret **plan**", "url": "https://chat.example/t1/3"}],
        "push": {"webPush": "declarative", "navigate": APP_URL, "stamp": 2, "mutable": True}}),
]
DECLARATIVE_RELAY_REQUESTS = [
    {**request, "push": {"webPush": "declarative", "navigate": APP_URL, "stamp": stamp}}
    for request, stamp in zip(RELAY_REQUESTS, (7, 8))
]


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript",
                      ".wasm": "application/wasm", "": "application/octet-stream"}

    def log_message(self, *args):
        pass


def native_answers(binary):
    """What the live service shows for each message: {title, body, lang, dir}."""
    server = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", "0", "--access-log", "off"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = json.loads(server.stdout.readline())["port"]
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        answers = []
        for _, message in MESSAGES:
            route, request = ("/compose", message["compose"]) if "compose" in message else ("/body", message["body"])
            connection.request("POST", route, json.dumps(request).encode(), {"Content-Type": "application/json"})
            reply = connection.getresponse()
            answer = json.loads(reply.read())
            assert reply.status == 200, (route, reply.status, answer)
            if route == "/compose":
                answers.append({"title": answer["notification"]["title"], "body": answer["notification"]["body"],
                                "lang": answer["locale"], "dir": answer["direction"]})
            else:
                answers.append({"title": message["title"], "body": answer["body"], "lang": "", "dir": "auto"})
        for request in [r for _, r in DECLARATIVE_REQUESTS] + RELAY_REQUESTS + DECLARATIVE_RELAY_REQUESTS:
            connection.request("POST", "/compose", json.dumps(request).encode(), {"Content-Type": "application/json"})
            answers.append(json.loads(connection.getresponse().read())["push"]["webpush"]["payload"])
        return answers
    finally:
        server.terminate()
        server.wait(timeout=15)


def classic(payload):
    """A relay payload's tag, title and stamp, of either shape (push.md P12, P23)."""
    if "web_push" in payload:
        note = payload["notification"]
        return {"tag": note["tag"], "title": note["title"], "stamp": note["data"]["stamp"]}
    return {"tag": payload["tag"], "title": payload["title"], "stamp": payload["stamp"]}


def check_relay_order(driver, devtools, origin, registration_id, single, summary, label="relay payloads"):
    """The summary, then the single it replaced (an older stamp): the worker
    acknowledges both, posts the first and ignores the second, and only the summary shows."""
    older, newer = classic(single), classic(summary)
    # Only this check's stamps: an earlier payload's acknowledgement may arrive late.
    driver.execute_script("""
        const stamps = arguments[0];
        window.acks = [];
        navigator.serviceWorker.addEventListener("message", (event) => {
          if (event.data && stamps.includes(event.data.stamp)) window.acks.push(event.data);
        });
        navigator.serviceWorker.startMessages();""", [older["stamp"], newer["stamp"]])
    acks = []
    for payload in (summary, single):
        for seconds in (10, 20):
            devtools.send("ServiceWorker.deliverPushMessage",
                          {"origin": origin, "registrationId": registration_id, "data": json.dumps(payload)})
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline and len(driver.execute_script("return window.acks")) <= len(acks):
                time.sleep(0.05)
            got = driver.execute_script("return window.acks")
            if len(got) > len(acks):
                acks = got
                break
            print(f"note {label}: no answer {seconds} s after the push; delivering it again")
    shown = driver.execute_async_script("""
        const done = arguments[0];
        navigator.serviceWorker.ready.then((r) => r.getNotifications()).then(
          (list) => done(list.map((n) => ({tag: n.tag, title: n.title, stamp: n.data.stamp}))), (e) => done(String(e)));""")
    want_acks = [{"stamp": newer["stamp"], "posted": True}, {"stamp": older["stamp"], "posted": False}]
    want_shown = [newer]
    if acks == want_acks and shown == want_shown:
        return True, f"ok   {label} out of order: {json.dumps(shown, ensure_ascii=False)}"
    return False, (f"FAIL {label} out of order\n  want {want_acks} {want_shown}\n"
                   f"  got  {acks} {json.dumps(shown, ensure_ascii=False)}")


class DevTools:
    """A raw DevTools protocol session on the page (Selenium's execute_cdp_cmd gives no events)."""

    def __init__(self, address, page_url):
        targets = json.load(urllib.request.urlopen(f"http://{address}/json/list", timeout=10))
        page = next(t for t in targets if t["type"] == "page" and t["url"].startswith(page_url))
        self.socket = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=10, suppress_origin=True)
        self.next_id = 0
        self.events = []

    def send(self, method, params=None):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params or {}}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def wait_event(self, method, predicate, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for event in self.events:
                if event.get("method") == method and predicate(event["params"]):
                    return event["params"]
            self.events.append(json.loads(self.socket.recv()))
        raise TimeoutError(method)


def listen_to_worker(driver):
    """The page keeps what the worker reports (sw-reporting.mjs) in window.reports."""
    driver.execute_script("""
        window.reports = [];
        navigator.serviceWorker.addEventListener("message", (event) => window.reports.push(event.data));
        navigator.serviceWorker.startMessages();""")


def shown_notifications(driver, seconds):
    """What the worker reported (its push event, its shown notification) and,
    once it reported one shown or `seconds` passed, the notifications
    getNotifications() gives, read once and closed."""
    return driver.execute_async_script("""
        const [seconds, done] = arguments;
        const started = Date.now();
        (async () => {
          while (!window.reports.some((r) => r.event === "shown") && Date.now() - started < seconds * 1000) {
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          // The worker's acknowledgements of relay payloads ({stamp, posted}) are not reports.
          const reports = window.reports.splice(0).map((r) => r.event).filter((e) => e !== undefined);
          const list = await (await navigator.serviceWorker.ready).getNotifications();
          const shown = list.map((n) => ({title: n.title, body: n.body, lang: n.lang, dir: n.dir}));
          list.forEach((n) => n.close());
          return {reports, shown};
        })().then(done, (error) => done({reports: [String(error)], shown: []}));""", seconds)


def check_playground(driver, binary, folder):
    """The static playground (no server): once it has answered the Body and Compose
    panels on load, their texts are the service's for the same requests."""
    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(folder)))
    threading.Thread(target=site.serve_forever, daemon=True).start()
    try:
        driver.get(f"http://127.0.0.1:{site.server_address[1]}/index.html")
        deadline = time.monotonic() + 30
        answered = lambda panel: int(driver.find_element("id", panel).get_attribute("data-answers") or "0")
        while (answered("body-panel") < 1 or answered("compose-panel") < 1) and time.monotonic() < deadline:
            time.sleep(0.1)
        value = lambda id: driver.execute_script(f"return document.getElementById('{id}').value")
        text = lambda id: driver.execute_script(f"return document.getElementById('{id}').textContent")
        got = {"body": text("body"), "title": text("notification-title"), "notification": text("notification-body")}
        composed = service_answer(binary, "/compose", value("compose-request"))["notification"]
        native = {"body": service_answer(binary, "/body", json.dumps({"text": value("text")}))["body"],
                  "title": composed["title"], "notification": composed["body"]}
    finally:
        site.shutdown()
    served = json.loads((folder / "playground.json").read_text("utf-8"))
    settings = service_get(binary, "/playground.json")
    if served != settings:
        return False, f"FAIL static playground's playground.json\n  want {settings}\n  got  {served}"
    if got == native and got["body"]:
        return True, f"ok   static playground: {json.dumps(got, ensure_ascii=False)}, playground.json the service's"
    return False, f"FAIL static playground\n  want {json.dumps(native, ensure_ascii=False)}\n  got  {json.dumps(got, ensure_ascii=False)}"


def service_get(binary, path):
    """A live debug service's JSON at GET `path`."""
    server = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", "0", "--access-log", "off"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        connection = http.client.HTTPConnection("127.0.0.1", json.loads(server.stdout.readline())["port"], timeout=30)
        connection.request("GET", path)
        return json.loads(connection.getresponse().read())
    finally:
        server.terminate()
        server.wait(timeout=15)


def service_answer(binary, route, request):
    """One answer of a live debug service."""
    server = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", "0", "--access-log", "off"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        connection = http.client.HTTPConnection("127.0.0.1", json.loads(server.stdout.readline())["port"], timeout=30)
        connection.request("POST", route, request.encode(), {"Content-Type": "application/json"})
        return json.loads(connection.getresponse().read())
    finally:
        server.terminate()
        server.wait(timeout=15)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--wasm-dir", type=Path, default=ROOT / ".build/wasm")
    parser.add_argument("--seconds", type=int, default=90)
    parser.add_argument("--playground", type=Path, help="also check the static playground in this folder "
                        "(make playground-static): its answers on load equal the service's")
    args = parser.parse_args()
    watchdog = threading.Timer(args.seconds, lambda: (print("FAIL: the check took too long"), sys.stdout.flush(),
                                                      os._exit(1)))
    watchdog.daemon = True
    watchdog.start()
    expected = native_answers(args.binary)
    passed = failed = 0
    with tempfile.TemporaryDirectory() as site, tempfile.TemporaryDirectory() as profile:
        shutil.copy(EXAMPLE / "index.html", site)
        shutil.copy(EXAMPLE / "sw.js", Path(site) / "sw-example.js")
        shutil.copy(EXAMPLE / "device-screen.mjs", site)
        shutil.copy(ROOT / "checks/wasm/sw-reporting.mjs", Path(site) / "sw.js")
        for name in ("notification-text.mjs", "notification-text.wasm"):
            shutil.copy(args.wasm_dir / name, site)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=site))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        origin = f"http://127.0.0.1:{server.server_address[1]}"
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium")
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         f"--user-data-dir={profile}", "--no-first-run", "--disable-background-networking",
                         "--disable-component-update", "--disable-sync", "--disable-extensions",
                         "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]:
            options.add_argument(argument)
        driver = webdriver.Chrome(options=options, service=Service(executable_path=shutil.which("chromedriver")))
        try:
            driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": origin, "permissions": ["notifications"]})
            driver.get(f"{origin}/index.html")
            devtools = DevTools(driver.capabilities["goog:chromeOptions"]["debuggerAddress"], origin)
            devtools.send("ServiceWorker.enable")
            registration = devtools.wait_event(
                "ServiceWorker.workerRegistrationUpdated",
                lambda p: any(r["scopeURL"] == f"{origin}/" and not r["isDeleted"] for r in p["registrations"]), 30)
            registration_id = next(r["registrationId"] for r in registration["registrations"]
                                   if r["scopeURL"] == f"{origin}/")
            driver.set_script_timeout(30)
            # A push delivered before the worker is activated is dropped: wait for it.
            state = driver.execute_async_script("""
                const done = arguments[0];
                navigator.serviceWorker.ready.then((registration) => {
                  const worker = registration.active;
                  if (worker.state === "activated") return done(worker.state);
                  worker.addEventListener("statechange", () => worker.state === "activated" && done(worker.state));
                });""")
            # DevTools delivers a push to the version it knows as active and
            # running: wait until it says so as well as the page.
            devtools.wait_event(
                "ServiceWorker.workerVersionUpdated",
                lambda p: any(v["registrationId"] == registration_id and v["status"] == "activated"
                              and v["runningStatus"] == "running" for v in p["versions"]), 30)
            print(f"service worker {state} (registration {registration_id}) at {origin}")
            listen_to_worker(driver)
            driver.set_script_timeout(45)  # shown_notifications waits up to 30 s
            declared = expected[len(MESSAGES):len(MESSAGES) + len(DECLARATIVE_REQUESTS)]
            relay_single, relay_summary, declarative_single, declarative_summary = \
                expected[len(MESSAGES) + len(DECLARATIVE_REQUESTS):]
            # What a declarative message shows: its own title, body, lang and dir.
            shows = [{"title": p["notification"]["title"], "body": p["notification"]["body"],
                      "lang": p["notification"]["lang"], "dir": p["notification"]["dir"]} for p in declared]
            deliveries = list(zip(MESSAGES, expected[:len(MESSAGES)]))
            deliveries += [((label, payload), want) for (label, _), payload, want
                           in zip(DECLARATIVE_REQUESTS, declared, shows)]
            for (label, message), want in deliveries:
                devtools.send("ServiceWorker.deliverPushMessage",
                              {"origin": origin, "registrationId": registration_id, "data": json.dumps(message)})
                seen = shown_notifications(driver, 30)
                shown = seen["shown"]
                if sorted(seen["reports"]) != ["push", "shown"]:
                    failed += 1
                    print(f"FAIL {label}: the worker reported {seen['reports']}, not a push and a notification shown")
                elif shown == [want]:
                    passed += 1
                    print(f"ok   {label}: {json.dumps(shown[0], ensure_ascii=False)}")
                else:
                    failed += 1
                    print(f"FAIL {label}\n  want {json.dumps(want, ensure_ascii=False)}\n"
                          f"  got  {json.dumps(shown, ensure_ascii=False)}")
            ok, report = check_relay_order(driver, devtools, origin, registration_id, relay_single, relay_summary)
            passed, failed = passed + ok, failed + (not ok)
            print(report)
            ok, report = check_relay_order(driver, devtools, origin, registration_id, declarative_single,
                                           declarative_summary, "declarative relay payloads")
            passed, failed = passed + ok, failed + (not ok)
            print(report)
            if args.playground:
                ok, report = check_playground(driver, args.binary, args.playground)
                passed, failed = passed + ok, failed + (not ok)
                print(report)
        finally:
            driver.quit()
            server.shutdown()
    print(f"{passed} passed, {failed} failed")
    sys.stdout.flush()
    os._exit(1 if failed else 0)  # Selenium leaves threads behind


if __name__ == "__main__":
    main()
