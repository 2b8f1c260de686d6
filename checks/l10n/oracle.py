#!/usr/bin/env python3
"""Independent check of compose-l10n.md: a Python reading of the spec, with
babel==2.18.0 as the oracle for plural categories, likely subtags and parent
locales, and unicodedata2==17.0.0 for bidi classes.

  --self-test      the catalogs of l10n/ against sections 4 and 5, and every
                   case of test-fixtures/l10n.json against this reading (the
                   Swift tests run the same cases against the engine).
  --cli PATH       random compose requests in every locale through
                   `PATH compose --default-locale TAG` (one request on stdin,
                   the response on stdout; exit 65 and `invalid-locale: …`
                   for a bad locale).
  --url URL        the same through POST URL/compose on a running server
                   (127.0.0.1 only).

For each request the oracle writes the expected title, subtitle, body and the
response's `locale`, and compares them by code points. Requests are built so
that docs/spec/compose.md decides nothing else: plain texts, short names, fresh
timestamps, no caps reached.

Usage: oracle.py --self-test
       oracle.py --cli .build/debug/notification-text [--count 300] [--seed 1] [--default-locale en]
Exit status: 0 when everything agrees, 1 otherwise.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import babel
import unicodedata2

sys.path.insert(0, str(Path(__file__).resolve().parent))
from l10n_rules import REPO, Catalogs, category, check_catalogs, format_message, maximize, parse  # noqa: E402


def self_test():
    catalogs = {"en": Catalogs("en")}
    problems = check_catalogs(catalogs["en"])
    fixture = json.loads((REPO / "test-fixtures/l10n.json").read_text(encoding="utf-8"))
    for case in fixture["cases"]:
        kind, cid = case["kind"], case["id"]
        if kind == "tag":
            tag = parse(case["tag"])
            if not case["valid"]:
                if tag is not None:
                    problems.append(f"{cid}: parsed {tag}, expected malformed")
                continue
            if tag is None or list(tag) != case["normalized"] or list(maximize(tag)) != case["maximized"]:
                problems.append(f"{cid}: {tag} -> {tag and maximize(tag)}, expected "
                                f"{case['normalized']} -> {case['maximized']}")
        elif kind == "choose":
            default = case["defaultLocale"]
            catalogs.setdefault(default, Catalogs(default))
            got = catalogs[default].choose(case["locale"])
            if got != case["catalog"]:
                problems.append(f"{cid}: chose {got}, expected {case['catalog']}")
        elif kind == "plural":
            got = category(case["tag"], case["count"])
            if got != case["category"]:
                problems.append(f"{cid}: {got}, expected {case['category']}")
        elif kind == "format":
            got = format_message(catalogs["en"].files[case["locale"]], case["key"], case["arguments"])
            if got != case["expected"]:
                problems.append(f"{cid}: {got!r}, expected {case['expected']!r}")
        else:
            problems.append(f"{cid}: unknown kind {kind}")
    for problem in problems:
        print(problem)
    print(f"self-test: {len(fixture['cases'])} fixture cases and {len(catalogs['en'].files)} catalogs, "
          f"{len(problems)} problems")
    return not problems


# MARK: --cli / --url

NOW = "2026-11-29T12:00:00Z"
NAMES_POOL = ["Ana", "Bo", "José", "Zoë", "Ola Nordmann", "محمد", "دانة", "יוסי", "דנה", "王芳", "李雷", "Иван",
              "Ана", "123", "\U0001F600 Fan", "Ana محمد", "\u200fBo", "Ли"]
APPS = [None, "Buzz", "Wiki", "ويكي", "ויקי", "微博", "App 2"]
TEXTS = ["Salut", "hello there", "مرحبا", "שלום", "你好", "ok 42"]


def locales(catalogs, rng):
    pool = list(catalogs.files) + ["en-GB", "pt-BR", "pt-AO", "pt_PT", "es-MX", "zh-HK", "zh-TW", "zh-SG", "sr",
                                   "de-CH-1996", "und", "iw", "EN-us", "ar-EG", "he-IL", "fr-CA", "xx-YY", "nb",
                                   "hi-Latn", "und-RU", "ru-UA", "", None, "e", "en_US_", "en-US\n"]
    return rng.choice(pool)


def stamp(seconds_ago):
    return f"2026-11-29T11:{59 - seconds_ago // 60:02d}:{59 - seconds_ago % 60:02d}Z"


def build(rng, catalogs, default):
    """A request and what its texts must be: (request, expected or None for invalid-locale)."""
    locale = locales(catalogs, rng)
    request = {"now": NOW}
    if locale is not None:
        request["locale"] = locale
    app = rng.choice(APPS)
    if app is not None:
        request["app"] = app
    app = app or "Buzz"
    chosen = catalogs.choose(locale)
    if chosen is None:
        return request, None
    catalog = catalogs.files[chosen]

    def text(key, **arguments):
        return format_message(catalog, key, arguments)

    scenario = rng.choice(["fallback", "single-message", "single-other", "bundle", "summary"])
    if scenario == "fallback":
        request["fetch"] = rng.choice(["failed", "timeout"])
        expected = (app, None, text("fallback.body", app=app))
    elif scenario == "single-message":
        name = rng.choice(NAMES_POOL)
        request["notifications"] = [{"id": "m", "type": "message", "timestamp": stamp(1), "sender": {"name": name}}]
        expected = (name, None, text("message.fallback"))
    elif scenario == "single-other":
        request["notifications"] = [{"id": "o", "type": "like", "timestamp": stamp(1)}]
        expected = (app, None, text("notification.fallback"))
    elif scenario == "bundle":
        count = rng.randint(2, 9)
        notes, names = [], []
        for index in range(count):
            note = {"id": f"b{index}", "type": "message", "timestamp": stamp(index), "thread": "t"}
            if rng.random() < 0.85:
                name = rng.choice(NAMES_POOL)
                note["sender"] = {"name": name}
                if name not in names:
                    names.append(name)
            notes.append(note)
        preview = rng.choice([None] + TEXTS)
        if preview is not None:
            notes[0]["text"] = preview
        request["notifications"] = notes
        if len(names) == 0:
            subtitle = None
        elif len(names) == 1:
            subtitle = names[0]
        elif len(names) == 2:
            subtitle = text("senders.two", a=names[0], b=names[1])
        elif len(names) == 3:
            subtitle = text("senders.three", a=names[0], b=names[1], c=names[2])
        else:
            subtitle = text("senders.more", a=names[0], b=names[1], others=len(names) - 2)
        body = text("bundle.count", count=count)
        if preview is not None:
            newest = notes[0].get("sender", {}).get("name")
            body += "\n" + (text("bundle.preview", name=newest, text=preview) if newest else preview)
        expected = (app, subtitle, body)
    else:
        count = rng.randint(2, 40)
        request["notifications"] = [{"id": f"s{i}", "type": "like", "timestamp": stamp(i)} for i in range(count)]
        expected = (text("summary.title", app=app), None, text("summary.count", count=count))
    return request, {"locale": chosen, "title": expected[0], "subtitle": expected[1], "body": expected[2]}


def via_cli(cli, request, default_locale):
    done = subprocess.run([cli, "compose", "--default-locale", default_locale], input=json.dumps(request).encode(),
                          capture_output=True, timeout=30)
    if done.returncode == 65:
        return None, done.stderr.decode("utf-8", "replace")
    if done.returncode != 0:
        raise RuntimeError(f"exit {done.returncode}: {done.stderr.decode('utf-8', 'replace')}")
    return json.loads(done.stdout), None


def via_url(url, request):
    http = urllib.request.Request(url.rstrip("/") + "/compose", data=json.dumps(request).encode(),
                                  headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(http, timeout=10) as reply:
            return json.loads(reply.read()), None
    except urllib.error.HTTPError as error:
        if error.code == 400:
            return None, error.read().decode("utf-8", "replace")
        raise


def compare(args):
    rng = random.Random(args.seed)
    catalogs = Catalogs(args.default_locale)
    send = (lambda r: via_cli(args.cli, r, args.default_locale)) if args.cli else (lambda r: via_url(args.url, r))
    failures = 0
    for number in range(args.count):
        request, expected = build(rng, catalogs, args.default_locale)
        response, problem = send(request)
        if expected is None:
            if problem is None or "invalid-locale" not in problem:
                failures += 1
                print(f"#{number} {json.dumps(request, ensure_ascii=False)}: expected invalid-locale, got "
                      f"{problem or json.dumps(response, ensure_ascii=False)}")
            continue
        if response is None:
            failures += 1
            print(f"#{number} {json.dumps(request, ensure_ascii=False)}: {problem}")
            continue
        got = {"locale": response.get("locale"), **{k: response["notification"][k] for k in ("title", "subtitle",
                                                                                             "body")}}
        if got != expected:
            failures += 1
            print(f"#{number} {json.dumps(request, ensure_ascii=False)}\n  expected "
                  f"{json.dumps(expected, ensure_ascii=False)}\n  got      {json.dumps(got, ensure_ascii=False)}")
    print(f"{args.count - failures} passed, {failures} failed")
    return failures == 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("--cli")
    parser.add_argument("--url")
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--default-locale", default="en")
    args = parser.parse_args()
    assert babel.__version__ == "2.18.0" and unicodedata2.unidata_version == "17.0.0"
    if args.url and not re.match(r"https?://(127\.0\.0\.1|localhost|\[::1\])[:/]", args.url):
        parser.error("--url must be a loopback address")
    if not (args.self_test or args.cli or args.url):
        parser.error("give --self-test, --cli or --url")
    ok = self_test() if args.self_test else True
    if args.cli or args.url:
        ok = compare(args) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
