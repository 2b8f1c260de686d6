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
from babel import Locale
from babel.core import get_global

REPO = Path(__file__).resolve().parents[2]
KEYS = {
    "message.fallback": [], "notification.fallback": [], "bundle.count": ["count"],
    "bundle.preview": ["name", "text"], "summary.title": ["app"], "summary.count": ["count"],
    "fallback.body": ["app"], "senders.two": ["a", "b"], "senders.three": ["a", "b", "c"],
    "senders.more": ["a", "b", "others"],
}
ISOLATED = {"app", "name", "a", "b", "c"}
COUNTS = {"count", "others"}
NAMES = {"count", "others", "name", "text", "app", "a", "b", "c"}
FSI, PDI = "\u2068", "\u2069"
ALIASES = {"iw": "he", "in": "id", "ji": "yi", "jw": "jv", "mo": "ro", "no": "nb", "tl": "fil", "sh": "sr"}
LIKELY = get_global("likely_subtags")
PARENTS = get_global("parent_exceptions")


# MARK: sections 1 and 2

def parse(text, aliases=True):
    """(language, script, region) of a tag, or None when section 1 rejects it."""
    text = text.replace("_", "-")
    if len(text) > 64 or not re.fullmatch(r"[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*", text):
        return None
    parts = text.split("-")
    language, script, region = parts[0].lower(), None, None
    rest = parts[1:]
    if rest and re.fullmatch(r"[A-Za-z]{4}", rest[0]):
        script = rest.pop(0).title()
    if rest and re.fullmatch(r"[A-Za-z]{2}|[0-9]{3}", rest[0]):
        region = rest.pop(0).upper()
    if aliases and language in ALIASES:
        if language == "sh" and script is None:
            script = "Latn"
        language = ALIASES[language]
    return language, script, region


def maximize(tag):
    language, script, region = tag
    keys = []
    if script and region:
        keys.append(f"{language}_{script}_{region}")
    if region:
        keys.append(f"{language}_{region}")
    if script:
        keys.append(f"{language}_{script}")
    keys.append(language)
    for key in keys:
        if key in LIKELY:
            value = parse(LIKELY[key], aliases=False)
            return (value[0] if language == "und" else language, script or value[1], region or value[2])
    return tag


# MARK: section 3

class Catalogs:
    def __init__(self, default="en"):
        self.files = {}
        for path in sorted((REPO / "l10n").glob("*.json")):
            catalog = json.loads(path.read_text(encoding="utf-8"))
            self.files[catalog["locale"]] = catalog
        self.maximized = {tag: maximize(parse(tag)) for tag in self.files}
        assert len(set(self.maximized.values())) == len(self.maximized), "two catalogs maximize alike"
        self.default = self.fitting(default)
        assert self.default, f"no catalog fits the default {default}"

    def fitting(self, text):
        tag = parse(text)
        if tag is None:
            return None
        requested = maximize(tag)
        by_triple = {triple: name for name, triple in self.maximized.items()}
        if requested in by_triple:
            return by_triple[requested]
        current = requested
        for _ in range(5):
            language, script, region = current
            keys = ([f"{language}_{script}_{region}"] if script and region else []) \
                + ([f"{language}_{region}"] if region else []) + ([f"{language}_{script}"] if script else [])
            parent = next((PARENTS[k] for k in keys if k in PARENTS), None)
            if parent is None:
                break
            current = maximize(parse(parent, aliases=False))
            if current in by_triple:
                return by_triple[current]
        for name, triple in self.maximized.items():
            if parse(name)[2] is None and triple[:2] == requested[:2]:
                return name
        return None

    def choose(self, locale):
        """The catalog tag for a request's locale; None when it is malformed."""
        if locale is None or locale == "":
            return self.default
        if parse(locale) is None:
            return None
        return self.fitting(locale) or self.default


# MARK: section 5

class SyntaxProblem(Exception):
    pass


def parse_message(text):
    """A list of nodes: str, ("arg", name), ("#",), ("plural", name, [(selector, nodes)])."""
    if "'" in text:
        raise SyntaxProblem("ASCII apostrophe")
    nodes, rest = _nodes(text, 0, None)
    if rest != len(text):
        raise SyntaxProblem(f"unexpected }} at {rest}")
    return nodes


def _nodes(text, i, plural):
    nodes, buffer = [], ""
    while i < len(text):
        c = text[i]
        if c == "}":
            break
        if c == "{":
            if buffer:
                nodes.append(buffer)
                buffer = ""
            node, i = _placeholder(text, i)
            nodes.append(node)
        elif c == "#" and plural:
            if buffer:
                nodes.append(buffer)
                buffer = ""
            nodes.append(("#",))
            i += 1
        else:
            buffer += c
            i += 1
    if plural and i >= len(text):
        raise SyntaxProblem("unclosed branch")
    if buffer:
        nodes.append(buffer)
    return nodes, i


def _placeholder(text, i):
    match = re.compile(r"\{ *([a-z]+) *(\}|, *plural *,)").match(text, i)
    if not match:
        raise SyntaxProblem(f"bad placeholder at {i}")
    name = match[1]
    if name not in NAMES:
        raise SyntaxProblem(f"unknown argument {name}")
    if match[2] == "}":
        return ("arg", name), match.end()
    if name not in COUNTS:
        raise SyntaxProblem(f"plural over {name}")
    i = match.end()
    branches = []
    selector_re = re.compile(r" *(=[0-9]+|zero|one|two|few|many|other) *\{")
    while True:
        end = re.compile(r" *\}").match(text, i)
        if end:
            i = end.end()
            break
        selector = selector_re.match(text, i)
        if not selector:
            raise SyntaxProblem(f"bad selector at {i}")
        if selector[1] in [s for s, _ in branches]:
            raise SyntaxProblem(f"selector {selector[1]} twice")
        body, i = _nodes(text, selector.end(), name)
        if i >= len(text) or text[i] != "}":
            raise SyntaxProblem("unclosed branch")
        branches.append((selector[1], body))
        i += 1
    if "other" not in [s for s, _ in branches]:
        raise SyntaxProblem("no other branch")
    return ("plural", name, branches), i


def walk(nodes):
    for node in nodes:
        yield node
        if isinstance(node, tuple) and node[0] == "plural":
            for _, body in node[2]:
                yield from walk(body)


def category(tag, n):
    return Locale.parse(tag.replace("-", "_")).plural_form(n)


def strong_opposite(value, direction):
    for c in value:
        bidi = unicodedata2.bidirectional(c)
        if not bidi:
            raise ValueError(f"U+{ord(c):04X} is unassigned: the oracle has no class for it")
        if direction == "ltr" and bidi in ("R", "AL") or direction == "rtl" and bidi == "L":
            return True
    return False


def format_message(catalog, key, arguments):
    tag, direction = catalog["locale"], catalog["direction"]

    def render(nodes, pound):
        out = ""
        for node in nodes:
            if isinstance(node, str):
                out += node
            elif node[0] == "#":
                out += str(pound)
            elif node[0] == "arg":
                value = arguments.get(node[1], 0 if node[1] in COUNTS else "")
                if node[1] in COUNTS:
                    out += str(value)
                elif node[1] in ISOLATED and strong_opposite(value, direction):
                    out += FSI + value + PDI
                else:
                    out += value
            else:
                n = arguments.get(node[1], 0)
                branches = dict(node[2])
                chosen = branches.get(f"={n}") or branches.get(category(tag, n)) or branches["other"]
                out += render(chosen, n)
        return out

    return render(parse_message(catalog["messages"][key]), 0)


# MARK: --self-test

def check_catalogs(catalogs):
    problems = []
    for tag, catalog in catalogs.files.items():
        path = f"l10n/{tag}.json"
        raw = (REPO / path).read_text(encoding="utf-8")
        if "'" in raw:
            problems.append(f"{path}: ASCII apostrophe")
        if parse(tag) is None or "-".join(p for p in parse(tag) if p) != tag:
            problems.append(f"{path}: tag {tag} is not language[-Script][-REGION]")
        if catalog["direction"] not in ("ltr", "rtl"):
            problems.append(f"{path}: direction {catalog['direction']}")
        if sorted(catalog["messages"]) != sorted(KEYS):
            problems.append(f"{path}: keys {list(catalog['messages'])}")
            continue
        needed = {category(tag, n) for n in range(1001)}
        for key, allowed in KEYS.items():
            try:
                nodes = parse_message(catalog["messages"][key])
            except SyntaxProblem as problem:
                problems.append(f"{path} {key}: {problem}")
                continue
            used = {n[1] for n in walk(nodes) if isinstance(n, tuple) and n[0] in ("arg", "plural")}
            if used != set(allowed):
                problems.append(f"{path} {key}: uses {sorted(used)}, lists {allowed}")
            for node in walk(nodes):
                if isinstance(node, tuple) and node[0] == "plural":
                    missing = needed - {s for s, _ in node[2]}
                    if missing:
                        problems.append(f"{path} {key}: no branch for {sorted(missing)}")
    return problems


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
