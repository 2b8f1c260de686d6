"""The rules of docs/spec/compose.md, Part II, as checks/l10n/oracle.py reads them:
locale tags (sections 9 and 10), the catalogs and their choice, the message
syntax and its formatting (section 12), with babel==2.18.0 for CLDR's plural
categories, likely subtags and parent locales and unicodedata2==17.0.0 for
bidi classes. checks/push/oracle.py loads it too.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

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
