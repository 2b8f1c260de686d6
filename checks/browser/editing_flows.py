"""The playground's editors: Markdown typed into the Body panel and compose requests pasted into
the Compose panel, each answer checked against what POST /body or POST /compose gives for the
same input, problems as title and detail, and the screenshots of the page (desktop and phone)."""

import json

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from driver import DESKTOP, PHONE
from harness import post_json
from page_data import APP_NAME, CARDS, LOCALES, SINGLE


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
