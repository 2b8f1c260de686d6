"""A notification drawn as a phone in its language does: each card's chrome in the answer's
direction (also with /playground.json blocked), each line in its own direction (line_layout.py),
the Android header on one line with a long subtitle, the date and "now" in the chosen locale, each
collapsed view before its expanded one, and the line counts and heights at maxUnits 4096."""

import json

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from harness import http, post_json
from line_layout import check_lines
from page_data import (APP_NAME, ARABIC_SUBTITLE, BIDI, CARDS, HEBREW_TITLE, L10N, LONG_SUBTITLE, SINGLE,
                       single_with_subtitle)


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
