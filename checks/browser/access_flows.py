"""Who may load the playground and where it may reach: the static files' security headers, the
page behind --auth-token-file (a bearer token asked for, sent, and kept out of storage), and every
request of the page going to 127.0.0.1 only."""

from selenium.webdriver.common.by import By

from harness import http
from page_data import TOKEN


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
