#!/usr/bin/env python3
"""The playground page (GET /) in a real browser: headless Chromium with
chromedriver (Debian's chromium and chromium-driver), driven by Selenium.

Against the built binary on 127.0.0.1 (any free port), it
  - types Markdown and checks the body, `units / cap`, truncated and inputCut
    the page shows against what POST /body answers for the same input;
  - pastes compose requests and checks the notification, kind, shown, dropped;
    the locale selector sets `locale` in the request, the server default none;
  - checks that problems appear as title and detail;
  - draws a notification as a phone in its language does: every card's chrome
    in the answer's `direction` (ar, he: rtl; en: ltr, as l10n/*.json has it;
    also with /playground.json blocked, so no catalog list can set it), each
    line of its title, subtitle and body in the direction of its own first
    strong character, aligned to its own start on Android and to the
    interface's on iOS (line_layout.py, which cites the platforms' documents),
    the Android header on one line with a long subtitle (cut at its end),
    the app name of `serve --app-name`, the date and "now" in the chosen
    locale (de, ar, he), each collapsed view before its expanded one,
    the collapsed views' line counts and the expanded views bounded in height
    at maxUnits 4096;
  - with --auth-token-file: the page loads without a token, asks for one (one
    line of the file, which holds one token a line),
    sends it as a bearer header, and keeps it out of storage and the page;
  - with --playground off: GET / is 404;
  - checks that every request the page made went to the server on 127.0.0.1
    (Chrome's performance log: Network events) and that the console has no
    error other than the HTTP statuses the checks provoke on purpose;
  - saves screenshots (desktop, a 390 px wide phone viewport, the phones in ar).

Usage: playground_test.py --binary PATH [--screenshots DIR] [--seconds N]
Prints one line per check and, at the end, "browser: N passed, N failed";
exits 1 if any check failed or the time ran out. Nothing is skipped: without
chromium or chromedriver the run fails (`make check-browser` installs them).
"""

import argparse
import base64
import json
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

# Selenium Manager must not look for drivers online: both paths are given below.
os.environ["SE_OFFLINE"] = "true"

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from line_layout import check_lines  # noqa: E402

CHROMIUM_CANDIDATES = ["/usr/lib/chromium/chromium", "/usr/bin/chromium"]
WAIT_SECONDS = 10
DESKTOP = (1280, 900)
PHONE = (390, 844)
TOKEN = "browser-Token_42"
APP_NAME = "Ünïcorn Chat"  # the open server's --app-name
# The lock screens: each collapsed card, then each expanded one.
CARDS = ["ios-card", "ios-expanded", "android-card", "android-expanded"]
L10N = pathlib.Path(__file__).resolve().parents[2] / "l10n"

LOCALES = ["en", "ar", "de", "es", "fr", "he", "hi", "it", "ja", "ko", "pl", "pt", "pt-PT", "ru", "tr", "uk",
           "zh-Hans", "zh-Hant"]

SINGLE = {
    "now": "2026-11-29T12:00:00Z",
    "notifications": [{
        "id": "42", "source": "chat", "type": "message", "timestamp": "2026-11-29T11:59:30Z",
        "thread": "general", "threadTitle": "General", "sender": {"id": "u7", "name": "Ana"},
        "text": "Lunch at **noon**?", "url": "https://chat.example/m/42",
    }],
}


# Two messages in thread "Release" from Ben and Cleo: in ar and he the title is a
# Latin word (a left-to-right line), the subtitle starts with an isolated Latin
# name (U+2068 Cleo U+2069), which the first strong character skips (a
# right-to-left line), and the body's last line is U+2068 Cleo U+2069: Ship it
# (left to right). In en, with a Hebrew thread title (HEBREW_TITLE), the title
# is a right-to-left line.
BIDI = {
    "now": "2026-11-29T12:00:00Z",
    "notifications": [
        {"id": "1", "type": "message", "timestamp": "2026-11-29T11:58:00Z", "thread": "t1", "threadTitle": "Release",
         "sender": {"id": "u2", "name": "Ben"}, "text": "Ready?"},
        {"id": "2", "type": "reply", "timestamp": "2026-11-29T11:59:00Z", "thread": "t1",
         "sender": {"id": "u3", "name": "Cleo"}, "text": "Ship it"},
    ],
}
HEBREW_TITLE = "גרסה v2"
LONG_SUBTITLE = "Quarterly planning for the infrastructure migration and the on-call rotation"
# Arabic with a Latin word inside: a right-to-left line, cut at its logical end,
# the left, so the Arabic's last letters are the ones cut, not its first ones.
ARABIC_SUBTITLE = "خطة الإصدار v2 والنشر للفريق بأكمله في هذا الأسبوع قبل العطلة"


def single_with_subtitle(subtitle):
    request = json.loads(json.dumps(SINGLE))
    request["notifications"][0]["threadTitle"] = subtitle
    return request


class OutOfTime(Exception):
    pass


class Report:
    def __init__(self):
        self.passed = 0
        self.failures = []

    def check(self, condition, message):
        if condition:
            self.passed += 1
            print(f"ok: {message}", flush=True)
        else:
            self.failures.append(message)
            print(f"FAIL: {message}", flush=True)
        return condition


class Server:
    """`notification-text serve` on 127.0.0.1, any free port, access log kept."""

    def __init__(self, binary, *arguments):
        self.process = subprocess.Popen(
            [binary, "serve", "--host", "127.0.0.1", "--port", "0", "--threads", "1", *arguments],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={k: v for k, v in os.environ.items()
                                                                 if not k.startswith("NOTIFICATION_TEXT_")})
        line = self.process.stdout.readline().decode()
        if not line.startswith('{"event":"start"'):
            self.process.kill()
            raise RuntimeError(f"no start line from serve: {line!r} {self.process.stderr.read().decode()!r}")
        self.port = json.loads(line)["port"]
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.process.stdout:
            try:
                self.log.append(json.loads(line))
            except ValueError:
                pass

    def routes(self):
        """(method, route, status) of every request answered so far."""
        return [(entry.get("method"), entry.get("route"), entry.get("status")) for entry in self.log
                if "route" in entry]

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def http(base, method, path, body=None, headers=None):
    """(status, headers, body) of one request, straight to the server."""
    request = urllib.request.Request(base + path, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def post_json(base, path, text, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    status, _, body = http(base, "POST", path, text.encode(), headers)
    return status, json.loads(body)


class Browser:
    """One headless Chromium; collects its performance (Network) and console logs."""

    def __init__(self, profile_dir):
        chromium = next((path for path in CHROMIUM_CANDIDATES if os.access(path, os.X_OK)), None)
        chromedriver = shutil.which("chromedriver")
        if chromium is None or chromedriver is None:
            raise RuntimeError("chromium or chromedriver is missing (make check-browser installs them)")
        options = webdriver.ChromeOptions()
        options.binary_location = chromium
        for argument in [
            "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
            f"--window-size={DESKTOP[0]},{DESKTOP[1]}", f"--user-data-dir={profile_dir}",
            "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-extensions", "--disable-default-apps",
            "--disable-features=Translate,OptimizationHints,MediaRouter",
            # Belt and braces: even a request the checks would catch cannot reach another host.
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        ]:
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
        self.driver = webdriver.Chrome(options=options, service=Service(executable_path=chromedriver))
        self.driver.set_page_load_timeout(WAIT_SECONDS)
        self.network = []
        self.console = []

    def drain_logs(self):
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message["method"].startswith("Network."):
                self.network.append(message)
        self.console.extend(self.driver.get_log("browser"))

    def requests(self):
        self.drain_logs()
        return [m["params"]["request"] | {"requestId": m["params"]["requestId"],
                                          "documentURL": m["params"].get("documentURL", "")}
                for m in self.network if m["method"] == "Network.requestWillBeSent"]

    def take_console(self):
        self.drain_logs()
        entries, self.console = self.console, []
        return entries

    # ---- the page

    def element(self, element_id):
        return self.driver.find_element(By.ID, element_id)

    def text(self, element_id):
        return self.element(element_id).get_property("textContent")

    def answers(self, panel):
        return int(self.element(panel).get_attribute("data-answers") or "0")

    def wait(self, condition, what):
        try:
            return WebDriverWait(self.driver, WAIT_SECONDS, poll_frequency=0.05).until(lambda _: condition())
        except Exception:
            raise AssertionError(f"timed out after {WAIT_SECONDS} s waiting for {what}")

    def wait_for_answer(self, panel, before):
        self.wait(lambda: self.answers(panel) > before, f"a new answer in #{panel}")

    def paste(self, element_id, value):
        """Sets a field's value as a paste does and fires its input event."""
        self.driver.execute_script(
            "const field = document.getElementById(arguments[0]); field.value = arguments[1];"
            "field.dispatchEvent(new Event('input', {bubbles: true}));", element_id, value)

    def type_into(self, element_id, keys):
        field = self.element(element_id)
        field.clear()
        field.send_keys(keys)

    def emulate(self, size, mobile):
        """A viewport of exactly `size` CSS pixels (a phone's with `mobile`), through DevTools."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": mobile})

    def screenshot(self, path, element=None):
        """The whole page at the current viewport's width (or one element of it), as a PNG."""
        x, y, width, height = self.driver.execute_script(
            "if (arguments[0]) { const box = arguments[0].getBoundingClientRect();"
            " return [box.left + scrollX, box.top + scrollY, box.width, box.height]; }"
            "return [0, 0, window.innerWidth, document.documentElement.scrollHeight]", element)
        shot = self.driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": x, "y": y, "width": width, "height": height, "scale": 1}})
        path.write_bytes(base64.b64decode(shot["data"]))

    def quit(self):
        self.driver.quit()


def check_headers(report, server):
    for path, media in [("/", "text/html"), ("/playground.css", "text/css"), ("/playground.js", "text/javascript"),
                        ("/playground.svg", "image/svg+xml")]:
        status, headers, _ = http(server.base, "GET", path)
        report.check(status == 200 and headers.get("Content-Type", "").startswith(media)
                     and headers.get("Content-Security-Policy", "").startswith("default-src 'self'")
                     and headers.get("X-Content-Type-Options") == "nosniff"
                     and headers.get("Referrer-Policy") == "no-referrer",
                     f"GET {path}: 200 {media} with CSP default-src 'self', nosniff, no-referrer "
                     f"(got {status} {headers.get('Content-Type')!r}, CSP {headers.get('Content-Security-Policy')!r})")


def body_flow(report, browser, server, shots):
    driver = browser.driver
    driver.get(server.base + "/")
    browser.wait(lambda: browser.answers("body-panel") >= 1 and browser.answers("compose-panel") >= 1
                 and browser.element("android-card").find_element(By.CLASS_NAME, "app-name").get_property(
                     "textContent") != "", "the first answers and the app name")

    sample = browser.element("text").get_property("value")
    status, expected = post_json(server.base, "/body", json.dumps({"text": sample}))
    report.check(status == 200 and browser.text("body") == expected["body"]
                 and browser.text("units") == f"{expected['units']} / 256",
                 f"on load, the sample Markdown's body and units are POST /body's ({expected['units']} / 256)")
    report.check(browser.text("kind") == "bundle" and browser.text("notification-title") == "Release"
                 and browser.text("notification-subtitle") == "Cleo, Ben and Dan"
                 and browser.text("notification-body") == "3 new messages\nCleo: Ship it v2"
                 and browser.text("shown") == "2, 1, 3" and browser.text("dropped") == "4 (own)",
                 "on load, the sample compose request shows the bundle of openapi.yaml's example "
                 f"(got {browser.text('kind')!r}, {browser.text('notification-title')!r}, "
                 f"{browser.text('notification-body')!r})")
    # The sample asks for push: the three payloads beside the lock screens, each with its size in bytes.
    status, composed = post_json(server.base, "/compose", browser.element("compose-request").get_property("value"))
    sizes = {name: len(json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode())
             for name, payload in (("apns", composed["push"]["apns"]["payload"]),
                                   ("fcm", composed["push"]["fcm"]["message"]),
                                   ("webpush", composed["push"]["webpush"]["payload"]))}
    shown_sizes = {name: browser.element("payload-" + name).find_element(By.CLASS_NAME, "size").text
                   for name in sizes}
    report.check(status == 200 and browser.element("push-payloads").is_displayed()
                 and shown_sizes == {"apns": f"{sizes['apns']} / 4096 bytes", "fcm": f"{sizes['fcm']} / 4096 bytes",
                                     "webpush": f"{sizes['webpush']} / 3993 bytes"}
                 and json.loads(browser.element("payload-apns").find_element(By.TAG_NAME, "pre").text)
                 == composed["push"]["apns"]["payload"],
                 f"the sample's push payloads and their sizes beside the lock screens ({shown_sizes}, want {sizes})")
    ios_card = browser.element("ios-card").get_property("textContent")
    android_card = browser.element("android-card").get_property("textContent")
    report.check(all(part in ios_card for part in [APP_NAME.upper(), "Release", "Cleo, Ben and Dan",
                                                   "3 new messages\nCleo: Ship it v2"])
                 and all(part in android_card for part in [APP_NAME, "Release", "Cleo, Ben and Dan",
                                                           "Cleo: Ship it v2"]),
                 "the iOS and Android lock screens show app name, title, subtitle and body")
    names = driver.execute_script(
        "return arguments[0].map((id) => (document.querySelector('#' + id + ' .app-name') || {}).textContent)", CARDS)
    report.check(names == [APP_NAME.upper(), APP_NAME.upper(), APP_NAME, APP_NAME],
                 f"the app name on every card is the server's --app-name {APP_NAME!r} (got {names})")

    browser.emulate(DESKTOP, mobile=False)
    report.check(driver.execute_script("return window.innerWidth") == DESKTOP[0], "desktop viewport is 1280 px wide")
    browser.screenshot(shots / "desktop.png")
    browser.emulate(PHONE, mobile=True)
    widths = driver.execute_script("return [window.innerWidth, document.documentElement.scrollWidth]")
    report.check(widths[0] == PHONE[0] and widths[1] <= PHONE[0],
                 f"phone viewport {PHONE[0]} px: nothing wider than the screen (scrollWidth {widths[1]})")
    browser.screenshot(shots / "phone.png")
    browser.emulate(DESKTOP, mobile=False)
    report.check((shots / "desktop.png").stat().st_size > 10_000 and (shots / "phone.png").stat().st_size > 10_000,
                 f"screenshots saved: {shots / 'desktop.png'}, {shots / 'phone.png'}")

    # Typed, key by key, with line breaks.
    before = browser.answers("body-panel")
    browser.type_into("text", "Hello **world**")
    browser.wait(lambda: browser.text("body") == "Hello world", "the body of 'Hello **world**'")
    browser.wait_for_answer("body-panel", before)
    report.check(browser.text("body") == "Hello world" and browser.text("units") == "11 / 256"
                 and browser.text("truncated") == "no" and browser.text("input-cut") == "no",
                 f"typed 'Hello **world**': body 'Hello world', 11 / 256, not truncated, no input cut "
                 f"(got {browser.text('units')!r})")
    report.check(browser.element("preview-body").is_selected()
                 and browser.element("ios-card").find_element(By.CLASS_NAME, "card-body").get_property(
                     "textContent") == "Hello world",
                 "typing switches the lock screen to the body alone")

    typed = "Line **one**\n\n\n\nLine `two`   spaced\n* item"
    browser.type_into("text", typed)
    _, expected = post_json(server.base, "/body", json.dumps({"text": typed}))
    browser.wait(lambda: browser.text("body") == expected["body"], "the multi-line body")
    report.check(browser.text("body") == expected["body"] == "Line one\n\nLine two spaced\n* item",
                 f"typed lines: the body keeps its line breaks exactly ({expected['body']!r})")

    # The cap: a longer text with maxUnits 300.
    long_text = " ".join(f"word{n}" for n in range(120))
    browser.paste("max-units", "300")
    browser.paste("text", long_text)
    _, expected = post_json(server.base, "/body", json.dumps({"text": long_text, "maxUnits": 300}))
    browser.wait(lambda: browser.text("body") == expected["body"], "the capped body")
    report.check(expected["truncated"] and browser.text("truncated") == "yes"
                 and browser.text("units") == f"{expected['units']} / 300" and browser.text("body").endswith("…"),
                 f"maxUnits 300: truncated yes, {expected['units']} / 300, the body ends with …")
    mark = browser.element("ios-card").find_elements(By.CSS_SELECTOR, ".card-body mark.cap")
    report.check(len(mark) == 1 and mark[0].get_property("textContent") == "…",
                 "the lock screen marks the … where the cap fell")

    # The input cut: more than 4096 UTF-16 units.
    huge = "ab " * 2000
    browser.paste("text", huge)
    _, expected = post_json(server.base, "/body", json.dumps({"text": huge, "maxUnits": 300}))
    browser.wait(lambda: browser.text("input-cut") == "yes", "inputCut yes")
    report.check(expected["inputCut"] and browser.text("body") == expected["body"],
                 "a 6000-unit text: inputCut yes, the body as POST /body gives it")

    console = browser.take_console()
    report.check(console == [], f"no console message while the answers were good ({console})")

    # A problem: maxUnits out of range.
    browser.type_into("max-units", "100")
    browser.wait(lambda: browser.element("body-problem").is_displayed(), "the body problem")
    report.check(browser.element("body-problem").find_element(By.CLASS_NAME, "problem-title").text
                 == "A value is out of range"
                 and "maxUnits must be an integer in 256…4096, got 100" in browser.text("body-problem")
                 and not browser.element("body-result").is_displayed(),
                 "maxUnits 100: the problem's title and detail replace the result")
    console = browser.take_console()
    report.check(len(console) == 1 and console[0]["source"] == "network"
                 and console[0]["message"].startswith(server.base + "/body - Failed to load resource: "
                                                      "the server responded with a status of 400"),
                 f"the only console error is the 400 provoked here ({[entry['message'] for entry in console]})")
    browser.paste("max-units", "")
    browser.wait(lambda: not browser.element("body-problem").is_displayed(), "the problem to clear")
    _, expected = post_json(server.base, "/body", json.dumps({"text": huge}))
    browser.wait(lambda: browser.text("units") == f"{expected['units']} / 256", "the default cap")
    report.check(browser.text("body") == expected["body"], "maxUnits emptied: none is sent, the cap is 256 again")


def compose_flow(report, browser, server):
    before = browser.answers("compose-panel")
    browser.paste("compose-request", json.dumps(SINGLE, indent=2))
    browser.wait(lambda: browser.text("kind") == "single", "kind single")
    report.check(browser.text("notification-title") == "Ana" and browser.text("notification-subtitle") == "General"
                 and browser.text("notification-body") == "Lunch at noon?" and browser.text("shown") == "chat:42"
                 and browser.text("dropped") == "none" and browser.answers("compose-panel") > before,
                 "a pasted single message: title Ana, subtitle General, body 'Lunch at noon?', shown chat:42")
    report.check(browser.element("preview-compose").is_selected()
                 and "Lunch at noon?" in browser.element("android-card").get_property("textContent"),
                 "pasting switches the lock screen to the compose result")
    report.check(not browser.element("push-payloads").is_displayed(),
                 "a request without push: no payloads beside the lock screens")

    # The locale selector: a tag sets `locale`; the server default sends none.
    options = [option.get_attribute("value") for option in Select(browser.element("locale")).options]
    report.check(options == [""] + LOCALES, f"the locale selector offers the server default and {len(LOCALES)} tags")
    seen = len(browser.requests())
    Select(browser.element("locale")).select_by_value("de")
    browser.wait(lambda: any(r["url"].endswith("/compose") for r in browser.requests()[seen:]), "a /compose with de")
    sent = [r for r in browser.requests()[seen:] if r["url"].endswith("/compose")][-1]
    report.check(json.loads(sent.get("postData", "{}")).get("locale") == "de"
                 and json.loads(sent["postData"])["notifications"] == SINGLE["notifications"],
                 "locale de: the request carries \"locale\": \"de\" and the rest as typed")
    status, direct = post_json(server.base, "/compose", sent["postData"])
    browser.wait(lambda: browser.text("kind") == direct.get("kind"), "the answer with de")
    row_shown = browser.element("response-locale-row").is_displayed()
    report.check(status == 200 and ((("locale" in direct) and row_shown
                                     and browser.text("response-locale") == direct["locale"])
                                    or ("locale" not in direct and not row_shown)),
                 "the service accepts the locale member; the page shows the response's locale exactly when "
                 f"it has one ({direct.get('locale', 'none yet')})")
    seen = len(browser.requests())
    Select(browser.element("locale")).select_by_value("")
    browser.wait(lambda: any(r["url"].endswith("/compose") for r in browser.requests()[seen:]), "a /compose again")
    sent = [r for r in browser.requests()[seen:] if r["url"].endswith("/compose")][-1]
    report.check("locale" not in json.loads(sent.get("postData", "{}"))
                 and sent.get("postData") == json.dumps(SINGLE, indent=2),
                 "server default: the request goes as typed, without locale")

    console = browser.take_console()
    report.check(console == [], f"no console message while composing ({console})")

    # A problem: invalid JSON.
    broken = '{"notifications": [}'
    browser.paste("compose-request", broken)
    browser.wait(lambda: browser.element("compose-problem").is_displayed(), "the compose problem")
    _, problem = post_json(server.base, "/compose", broken)
    report.check(browser.element("compose-problem").find_element(By.CLASS_NAME, "problem-title").text
                 == problem["title"] == "The body is not valid JSON"
                 and problem["detail"] in browser.text("compose-problem")
                 and not browser.element("compose-result").is_displayed(),
                 f"invalid JSON: the problem's title and detail ({problem['detail']!r})")

    console = browser.take_console()
    report.check(len(console) == 1 and console[0]["source"] == "network"
                 and console[0]["message"].startswith(server.base + "/compose - Failed to load resource: "
                                                      "the server responded with a status of 400"),
                 f"the only console error is the 400 provoked here ({[entry['message'] for entry in console]})")


# ---- Drawn as a phone in that language does

# The chrome of each card: the card, its head, the app name and the time.
CHROME_SCRIPT = """
return arguments[0].flatMap((id) => {
  const card = document.getElementById(id) || document.createElement('p');
  return [card, ...card.querySelectorAll('.card-head, .app-name, .when')]
    .map((part) => [id, part.className, getComputedStyle(part).direction]);
});
"""


def choose_locale(browser, server, locale, request):
    """Pastes `request`, picks `locale` and waits for the answer in it; returns POST /compose's answer."""
    Select(browser.element("locale")).select_by_value("")
    browser.paste("compose-request", json.dumps(request, indent=2))
    Select(browser.element("locale")).select_by_value(locale)
    _, direct = post_json(server.base, "/compose", json.dumps(request | {"locale": locale}))
    browser.wait(lambda: browser.text("response-locale") == direct["locale"]
                 and browser.text("notification-title") == direct["notification"]["title"]
                 and browser.text("notification-subtitle") == (direct["notification"]["subtitle"] or "null"),
                 f"the answer in {locale}")
    return direct


def direction_flow(report, browser, server, shots):
    status, _, raw = http(server.base, "GET", "/playground.json")
    settings = json.loads(raw)
    files = {path.stem: json.loads(path.read_text())["direction"] for path in sorted(L10N.glob("*.json"))}
    served = {catalog["locale"]: catalog["direction"] for catalog in settings["catalogs"]}
    report.check(status == 200 and served == files and settings["appName"] == APP_NAME
                 and settings["defaultLocale"] == "en",
                 f"GET /playground.json: the --app-name and each catalog's direction as l10n/*.json has it "
                 f"({sorted(tag for tag, way in served.items() if way == 'rtl')} rtl)")
    for locale, expected in [("ar", "rtl"), ("he", "rtl"), ("en", "ltr")]:
        direct = choose_locale(browser, server, locale, BIDI)
        chrome = browser.driver.execute_script(CHROME_SCRIPT, CARDS)
        wrong = [part for part in chrome if part[2] != expected]
        isolated = direct["notification"]["subtitle"].startswith("\u2068") if expected == "rtl" else True
        report.check(direct.get("direction") == expected,
                     f"{locale}: POST /compose answers direction {expected} (got {direct.get('direction')!r})")
        report.check(isolated and not wrong and len(chrome) == 4 * len(CARDS),
                     f"{locale}: the chrome of the four cards (card, head, app name, time: {len(chrome)}) is "
                     f"{expected} (wrong: {wrong[:3]})")
        others = check_lines(report, browser.driver, CARDS, locale, expected)
        report.check(others == (7 if expected == "rtl" else 0),
                     f"{locale}: {others} lines run against the interface's direction (ar, he: each card's Latin "
                     f"title, and the body's last line in each card but Android's collapsed one, a single line)")
        if locale == "en":
            hebrew = json.loads(json.dumps(BIDI))
            hebrew["notifications"][0]["threadTitle"] = HEBREW_TITLE
            choose_locale(browser, server, locale, hebrew)
            others = check_lines(report, browser.driver, CARDS, "en, a Hebrew thread title", expected)
            report.check(others == len(CARDS), f"en: the Hebrew title of each card runs right to left ({others})")
        screens = browser.driver.execute_script(
            "return Array.from(document.querySelectorAll('.phone .screen, .phone .status'))"
            ".map((part) => getComputedStyle(part).direction)")
        report.check(len(screens) == 6 and set(screens) == {expected},
                     f"{locale}: the four screens and the expanded views' status lines are {expected} ({screens})")
        panel = [browser.driver.execute_script("return getComputedStyle(arguments[0]).direction",
                                               browser.element(line))
                 for line in ("notification-title", "notification-subtitle", "notification-body")]
        report.check(panel == [expected] * 3, f"{locale}: the Compose panel's title, subtitle and body are {expected}")
        if locale == "ar":
            browser.screenshot(shots / "phones-ar.png", browser.driver.find_element(By.CLASS_NAME, "phones"))


def answer_direction_flow(report, browser, server):
    """The cards take the compose answer's `direction`, not a catalog list: with GET /playground.json
    blocked (the page then knows no catalog at all), ar and he still draw the cards' chrome right to left."""
    driver = browser.driver
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/playground.json"]})
    try:
        driver.get(server.base + "/")
        browser.wait(lambda: browser.answers("compose-panel") >= 1, "the first compose answer")
        for locale, expected in [("ar", "rtl"), ("he", "rtl"), ("en", "ltr")]:
            choose_locale(browser, server, locale, BIDI)
            chrome = driver.execute_script(CHROME_SCRIPT, CARDS)
            wrong = [part for part in chrome if part[2] != expected]
            report.check(chrome and not wrong,
                         f"{locale}, /playground.json blocked: the chrome of the four cards ({len(chrome)}) is "
                         f"{expected}, from the answer's direction (wrong: {wrong[:3]})")
    finally:
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    console = browser.take_console()
    unexpected = [entry for entry in console if "/playground.json" not in entry["message"]]
    report.check(not unexpected, f"the only console errors are the blocked /playground.json ({unexpected})")
    driver.get(server.base + "/")
    browser.wait(lambda: browser.answers("compose-panel") >= 1
                 and browser.element("android-card").find_element(By.CLASS_NAME, "app-name").get_property(
                     "textContent") == APP_NAME, "the page again, with its settings")


HEADER_SCRIPT = """
const card = document.getElementById(arguments[0]);
const head = card.querySelector('.card-head');
const box = (element) => {
  const rect = element.getBoundingClientRect();
  return {top: element.offsetTop, left: rect.left, right: rect.right, height: rect.height,
          rects: element.getClientRects().length, scroll: element.scrollWidth, client: element.clientWidth};
};
const style = getComputedStyle(card);
return {head: box(head), lineHeight: parseFloat(getComputedStyle(head).lineHeight),
        inner: [card.getBoundingClientRect().left + parseFloat(style.paddingLeft),
                card.getBoundingClientRect().right - parseFloat(style.paddingRight)],
        parts: ['.app-name', '.card-subtitle', '.when'].map((part) => box(head.querySelector(part)))};
"""

# Whether the subtitle's character at each index lies inside the subtitle's box.
SHOWN_SCRIPT = """
const line = document.querySelector('#' + arguments[0] + ' .card-head .card-subtitle');
const text = line.firstChild;
const box = line.getBoundingClientRect();
return [getComputedStyle(line).direction, line.scrollWidth > line.clientWidth].concat(arguments[1].map((index) => {
  const range = document.createRange();
  range.setStart(text, index);
  range.setEnd(text, index + 1);
  const glyph = range.getBoundingClientRect();
  return glyph.left >= box.left - 0.5 && glyph.right <= box.right + 0.5;
}));
"""


def present(report, browser, card):
    """Whether the page has this card; a failed check when not."""
    return bool(browser.driver.find_elements(By.ID, card)) or report.check(False, f"the page has no #{card}")


def header_flow(report, browser, server):
    choose_locale(browser, server, "en", single_with_subtitle(LONG_SUBTITLE))
    for card in [card for card in ("android-card", "android-expanded") if present(report, browser, card)]:
        header = browser.driver.execute_script(HEADER_SCRIPT, card)
        line = header["lineHeight"]
        name, subtitle, when = header["parts"]
        report.check(header["head"]["height"] < 1.5 * max(line, 18)
                     and all(part["rects"] == 1 and part["height"] < 1.5 * line for part in header["parts"])
                     and max(part["top"] for part in header["parts"]) - min(part["top"] for part in header["parts"]) <= 2
                     and name["scroll"] <= name["client"] and subtitle["scroll"] > subtitle["client"]
                     and header["inner"][0] - 0.5 <= name["left"] and when["right"] <= header["inner"][1] + 0.5,
                     f"{card}, a long subtitle: the header is one line ({header['head']['height']:.0f} px, line "
                     f"{line:.0f} px), app name whole, subtitle cut with …, '• now' inside the card")
    subtitle = browser.driver.execute_script(
        "return document.querySelector('#ios-card .card-subtitle').getBoundingClientRect().height")
    report.check(subtitle < 1.5 * 20, f"ios-card, a long subtitle: one line ({subtitle:.0f} px)")

    choose_locale(browser, server, "ar", single_with_subtitle(ARABIC_SUBTITLE))
    arabic = ARABIC_SUBTITLE.index("خ")
    for card in [card for card in ("android-card", "android-expanded") if present(report, browser, card)]:
        shown = browser.driver.execute_script(SHOWN_SCRIPT, card, [arabic, len(ARABIC_SUBTITLE) - 1])
        report.check(shown == ["rtl", True, True, False],
                     f"{card}, ar: the long subtitle is rtl and cut at its logical end: the Arabic's first letter "
                     f"in view, its last one not (direction, cut, shown: {shown})")
    header = browser.driver.execute_script(HEADER_SCRIPT, "android-card")
    name, _, when = header["parts"]
    report.check(name["left"] > when["right"] and header["head"]["height"] < 1.5 * max(header["lineHeight"], 18),
                 "android-card, ar: the header is mirrored (app name right, time left) and on one line")

    # The date and "now" in the chosen locale (the request's now: Sunday 29 November 2026).
    choose_locale(browser, server, "de", SINGLE)
    texts = browser.driver.execute_script(
        "return ['#ios-lock .date', '#android-lock .date', '#ios-card .when', '#android-card .when']"
        ".map((selector) => document.querySelector(selector).textContent)")
    report.check(texts == ["Sonntag, 29. November", "So., 29. Nov.", "jetzt", "jetzt"],
                 f"de: the lock screens' date and the cards' time in German ({texts})")
    # Right to left too: the month's name in the locale (its digits and order are ICU's).
    for locale, month in [("ar", "نوفمبر"), ("he", "נובמבר")]:
        choose_locale(browser, server, locale, SINGLE)
        dates = browser.driver.execute_script(
            "return ['#ios-lock .date', '#android-lock .date'].map((s) => document.querySelector(s).textContent)")
        report.check(month in dates[0] and "November" not in dates[0] and "Sun" not in "".join(dates)
                     and browser.element("ios-lock").get_attribute("lang") == locale,
                     f"{locale}: the lock screens' date in {locale} ({dates})")


LINE_COUNT_SCRIPT = """
const body = document.querySelector('#' + arguments[0] + ' .card-body');
const line = parseFloat(getComputedStyle(body).lineHeight);
return [Math.round(body.clientHeight / line), body.scrollHeight > body.clientHeight + 1,
        body.scrollWidth > body.clientWidth + 1, body.clientHeight];
"""


ORDER_SCRIPT = """
return Array.from(document.querySelectorAll('.phone')).map((phone) => {
  const box = phone.getBoundingClientRect();
  return [phone.id, Math.round(box.left), Math.round(box.top), phone.querySelector('.card').classList.contains('collapsed')];
});
"""


def collapsed_flow(report, browser, server, shots):
    driver = browser.driver
    # Collapsed first: each platform's lock screen, then its expanded view beside it (to its right) or below.
    phones = driver.execute_script(ORDER_SCRIPT)
    ids = [phone[0] for phone in phones]
    boxes = {phone[0]: phone for phone in phones}
    after = lambda first, second: (boxes[second][2] > boxes[first][2] + 10  # noqa: E731
                                   or (abs(boxes[second][2] - boxes[first][2]) <= 10
                                       and boxes[second][1] > boxes[first][1]))
    report.check(ids == ["ios-lock", "ios-open", "android-lock", "android-open"]
                 and [phone[3] for phone in phones] == [True, False, True, False]
                 and after("ios-lock", "ios-open") and after("android-lock", "android-open"),
                 f"each platform's collapsed view comes first, its expanded one after it ({phones})")
    browser.paste("max-units", "4096")
    huge = "ab " * 2000
    browser.paste("text", huge)
    _, expected = post_json(server.base, "/body", json.dumps({"text": huge, "maxUnits": 4096}))
    browser.wait(lambda: browser.text("units") == f"{expected['units']} / 4096", "the body at maxUnits 4096")
    counts = {card: driver.execute_script(LINE_COUNT_SCRIPT, card) if present(report, browser, card) else [0] * 4
              for card in CARDS}
    report.check(counts["ios-card"][:2] == [4, True],
                 f"iOS collapsed: the body on 4 lines, the rest hidden ({counts['ios-card']})")
    report.check(counts["android-card"][0] == 1 and counts["android-card"][2],
                 f"Android collapsed: the body on 1 line, cut ({counts['android-card']})")
    report.check(counts["ios-expanded"][0] > 4 and counts["ios-expanded"][1],
                 f"iOS expanded: more lines than collapsed, the rest by scrolling ({counts['ios-expanded']})")
    report.check(counts["android-expanded"][:2] == [13, True],
                 f"Android expanded: the body on 13 lines, the rest hidden ({counts['android-expanded']})")
    heights = driver.execute_script(
        "return Array.from(document.querySelectorAll('.phone')).map((phone) => phone.getBoundingClientRect().height)")
    report.check(len(heights) == 4 and max(heights) < 700,
                 f"maxUnits 4096: no phone grows with the body ({[round(h) for h in heights]} px)")
    console = browser.take_console()
    report.check(console == [], f"no console message while drawing ({console})")
    browser.paste("max-units", "")


def token_flow(report, browser, server):
    driver = browser.driver
    seen = len(browser.requests())
    driver.get(server.base + "/")
    browser.wait(lambda: browser.element("token-panel").is_displayed(), "the token form")
    report.check("Authentication required" in browser.text("body-problem")
                 and "this resource needs an Authorization: Bearer token" in browser.text("body-problem")
                 and "Authentication required" in browser.text("compose-problem"),
                 "with --auth-token-file the page loads, asks for the token and shows the 401 problem")
    label = driver.find_element(By.CSS_SELECTOR, "label[for=token]").text
    report.check("one token a line" in label and "the contents of" not in label,
                 f"the token field asks for one line of --auth-token-file, which holds one token a line ({label!r})")
    loaded = [r for r in browser.requests()[seen:] if not r["url"].endswith(("/body", "/compose"))]
    report.check(len(loaded) >= 4 and all("Authorization" not in r["headers"] for r in loaded),
                 f"the page and its {len(loaded) - 1} files load without a token")

    before = browser.answers("body-panel")
    browser.element("token").send_keys("wrong-token")
    browser.element("token-form").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    browser.wait(lambda: browser.answers("body-panel") > before, "the answer with a wrong token")
    report.check("the bearer token is not valid" in browser.text("body-problem")
                 and "refused" in browser.text("token-state"),
                 "a wrong token: the problem says it is not valid")

    seen = len(browser.requests())
    browser.element("token").send_keys(TOKEN)
    browser.element("token-form").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    browser.wait(lambda: browser.text("kind") == "bundle" and browser.element("body-result").is_displayed(),
                 "the answers with the token")
    calls = [r for r in browser.requests()[seen:] if r["url"].endswith(("/body", "/compose"))]
    report.check(len(calls) >= 2 and all(r["headers"].get("Authorization") == "Bearer " + TOKEN for r in calls),
                 "with the token: both calls carry Authorization: Bearer <token> and are answered")
    browser.wait(lambda: browser.element("android-card").find_element(By.CLASS_NAME, "app-name").get_property(
        "textContent") == "Buzz", "the settings with the token")
    settings = [r for r in browser.requests()[seen:] if r["url"].endswith("/playground.json")]
    report.check(settings and settings[-1]["headers"].get("Authorization") == "Bearer " + TOKEN,
                 "with the token: the page asks for /playground.json with it and shows the default app name Buzz")
    stored = driver.execute_script(
        "return [localStorage.length, sessionStorage.length, document.cookie, location.href,"
        " document.getElementById('token').value, document.documentElement.outerHTML.includes(arguments[0])]", TOKEN)
    report.check(stored[:2] == [0, 0] and stored[2] == "" and TOKEN not in stored[3] and stored[4] == ""
                 and stored[5] is False,
                 "the token is in no storage, cookie, address, field or markup")
    driver.refresh()
    browser.wait(lambda: browser.answers("body-panel") >= 1, "the first answer after a reload")
    report.check(browser.element("token-panel").is_displayed()
                 and "Authentication required" in browser.text("body-problem"),
                 "after a reload the token is gone: the page asks again")

    console = browser.take_console()
    unexpected = [entry for entry in console if not (
        entry["source"] == "network" and "the server responded with a status of 401" in entry["message"]
        and entry["message"].startswith((server.base + "/body", server.base + "/compose",
                                         server.base + "/playground.json")))]
    report.check(console and not unexpected, f"the only console errors are the provoked 401s ({unexpected})")


def check_requests_stayed_local(report, browser, bases):
    """Every request of the playground's documents, and every request on the network at all (http, https,
    ws, wss), went to one of the servers on 127.0.0.1; the browser's own chrome:// pages load from inside it."""
    requests = browser.requests()
    ours = lambda url: any(url.startswith(base + "/") for base in bases)  # noqa: E731
    page = [r for r in requests if ours(r.get("documentURL", ""))]
    outside = [r["url"] for r in page if not ours(r["url"])]
    outside += [r["url"] for r in requests
                if r["url"].split(":", 1)[0] in ("http", "https", "ws", "wss") and not ours(r["url"])]
    sockets = [m for m in browser.network if m["method"] == "Network.webSocketCreated"]
    report.check(len(page) >= 20 and not outside and not sockets,
                 f"all {len(page)} requests the page made went to 127.0.0.1, and no other request went "
                 f"anywhere else (outside: {outside[:5]})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--screenshots", default=".build/playground-screenshots")
    parser.add_argument("--seconds", type=int, default=120)
    arguments = parser.parse_args()

    def out_of_time(*_):
        raise OutOfTime(f"the browser check took longer than {arguments.seconds} s")

    signal.signal(signal.SIGALRM, out_of_time)
    signal.alarm(arguments.seconds)
    started = time.monotonic()
    shots = pathlib.Path(arguments.screenshots)
    shots.mkdir(parents=True, exist_ok=True)
    report = Report()
    servers = []
    browser = None
    workdir = tempfile.mkdtemp(prefix="playground-test-")
    try:
        token_file = pathlib.Path(workdir, "token")
        token_file.write_text(TOKEN + "\n")
        open_server = Server(arguments.binary, "--app-name", APP_NAME)
        servers.append(open_server)
        guarded = Server(arguments.binary, "--auth-token-file", str(token_file))
        servers.append(guarded)
        off = Server(arguments.binary, "--playground", "off")
        servers.append(off)

        check_headers(report, open_server)
        status, _, body = http(off.base, "GET", "/")
        report.check(status == 404 and json.loads(body)["code"] == "not-found", "--playground off: GET / is 404")

        browser = Browser(pathlib.Path(workdir, "profile"))
        flows = [
            ("body", lambda: body_flow(report, browser, open_server, shots)),
            ("compose", lambda: compose_flow(report, browser, open_server)),
            ("direction", lambda: direction_flow(report, browser, open_server, shots)),
            ("answer direction", lambda: answer_direction_flow(report, browser, open_server)),
            ("header", lambda: header_flow(report, browser, open_server)),
            ("collapsed", lambda: collapsed_flow(report, browser, open_server, shots)),
            ("token", lambda: token_flow(report, browser, guarded)),
        ]
        for name, flow in flows:
            try:
                flow()
            except OutOfTime:
                raise
            except Exception as failure:  # a flow that cannot go on fails, and the next one still runs
                first_line = str(failure).strip().splitlines()[0] if str(failure).strip() else ""
                report.check(False, f"{name}: {type(failure).__name__}: {first_line}")
        check_requests_stayed_local(report, browser, [open_server.base, guarded.base])
        page_routes = [route for _, route, _ in open_server.routes() + guarded.routes()]
        report.check("unmatched" not in page_routes,
                     "the browser asked for no path the server does not have (no /favicon.ico)")
    except OutOfTime as failure:
        report.check(False, str(failure))
    except Exception as failure:  # a broken setup is a failure, never a skip
        report.check(False, f"{type(failure).__name__}: {failure}")
    finally:
        signal.alarm(0)
        if browser is not None:
            browser.quit()
        for server in servers:
            server.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"browser: {time.monotonic() - started:.1f} s; screenshots in {shots}")
    print(f"browser: {report.passed} passed, {len(report.failures)} failed")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
