"""The checks of docs/spec/screen.md section 4 on one device once settled:
I1 to I5, and the badge, the tier and the language."""
from __future__ import annotations

import functools
import json
import pathlib
import re

DIGITS = re.compile(r"[0-9]+")
CATALOGS = pathlib.Path(__file__).resolve().parents[2] / "l10n"


@functools.lru_cache(maxsize=None)
def count_words(locale, kind):
    """The branches of a catalog's count message that write no digits, by
    their selector (`two`: "שתי הודעות חדשות"): a count of 2 may be a word."""
    message = json.loads((CATALOGS / f"{locale}.json").read_text(encoding="utf-8"))["messages"][f"{kind}.count"]
    return {selector: text for selector, text in re.findall(r"(\w+|=\d+) \{([^{}#]*)\}", message)}


def count_of(note):
    """The count a bundle's or summary's header says (compose.md L11: ASCII
    digits), or 2 when it is the catalog's word for two."""
    header = note["body"].split("\n")[0]
    digits = DIGITS.findall(header)
    if len(digits) == 1:
        return int(digits[0])
    if not digits and count_words(note["locale"], note["kind"]).get("two") == header:
        return 2
    return None


def check_screen(device, backend, now_ms, max_age_seconds, fetched_ok, last_fetch_ok):
    """docs/spec/screen.md section 4, I1 to I5, on one device. Returns the
    violations as (rule, text, the key I1 finds uncovered)."""
    problems = []
    notes = list(device.shown.values())
    covered = {}
    for note in notes:
        for key in note["covers"]:
            covered[key] = covered.get(key, 0) + 1
    for key, n in backend.notifications.items():  # I1
        fresh = now_ms - backend.ms[key] <= max_age_seconds * 1000
        if not n.get("read") and fresh and not backend.own(n) and key in fetched_ok and covered.get(key, 0) != 1:
            problems.append(("I1", f"{device.id}: {key} is covered {covered.get(key, 0)} times", key))
    for note in notes:
        keys, kind = note["covers"], note["kind"]
        if kind == "single" and len(keys) != 1 or kind == "fallback" and keys:  # I2
            problems.append(("I2", f"{device.id}: a {kind} covers {len(keys)} keys", None))
        if kind in ("bundle", "summary") and count_of(note) != len(keys) or kind in ("bundle", "summary") and len(keys) < 2:
            problems.append(("I2", f"{device.id}: a {kind} says {note['body']!r} and covers {len(keys)} keys", None))
        # I3 (a deleted message is one that left, as a read one)
        if keys and all(backend.notifications.get(k, {"read": True}).get("read") for k in keys):
            problems.append(("I3", f"{device.id}: {note['group']} covers only read messages {keys}", note["group"]))
        if kind == "fallback" and last_fetch_ok:  # I5
            problems.append(("I5", f"{device.id}: a fallback while the last fetch succeeded", None))
    for key, count in covered.items():  # I4
        if count > 1:
            problems.append(("I4", f"{device.id}: {key} is covered {count} times", None))
    return problems


def rendered(text):
    """What the sender wrote, as a body shows it (near enough for a search)."""
    return re.sub(r"[*`_]", "", text).strip()


def check_settled(device, backend, settings, badge):
    """Beyond I1 to I5: the badge equals the unread count of the last
    successful fetch (`badge`, None when none has succeeded), and every
    notification is in the current tier and language (compose.md C11: with
    `sender` no text a sender wrote, with `none` no name or thread title
    either). Returns (rule, text, group)."""
    problems = []
    if badge is not None and device.badge != badge:
        problems.append(("BADGE", f"{device.id}: badge {device.badge}, the unread count is {badge}", None))
    texts = set()
    names = set()
    for n in backend.notifications.values():
        for text in (n.get("text"), n.get("defaultText")):
            if text and len(rendered(text)) >= 4:
                texts.add(rendered(text)[:40])
        name = (n.get("sender") or {}).get("name")
        if name and len(name) >= 3:
            names.add(name)
        if n.get("threadTitle"):
            names.add(n["threadTitle"])
    for note in device.shown.values():
        if note["requested"] != settings["locale"]:
            problems.append(("LANG", f"{device.id}: {note['group']} is in {note['requested']!r},"
                                     f" the recipient reads {settings['locale']!r}", note["group"]))
        if note["kind"] == "fallback":
            continue
        if note["preview"] != settings["preview"]:
            problems.append(("TIER", f"{device.id}: {note['group']} shows the tier {note['preview']!r},"
                                     f" the recipient chose {settings['preview']!r}", note["group"]))
        if settings["preview"] in ("sender", "none") and any(t in note["body"] for t in texts):
            problems.append(("TIER", f"{device.id}: {note['group']} shows a sender's text: {note['body'][:60]!r}",
                             note["group"]))
        if settings["preview"] == "none" and (note["subtitle"] is not None
                                             or any(name in note["title"] for name in names)):
            problems.append(("TIER", f"{device.id}: {note['group']} shows a name: {note['title']!r}", note["group"]))
    return problems


def check_text(device, latest):
    """screen.md I8: the notification under the last successful answer's group says what that answer
    says (an edit, a renamed sender or thread reached the device). A payload cut to fit (push.md P17)
    ends with an ellipsis and is a prefix of the answer's text. Returns (rule, text, group)."""
    if latest is None:
        return []
    group, kind, notification = latest
    note = device.shown.get(group)
    if note is None or kind == "fallback" or note["kind"] == "fallback":
        return []
    problems = []
    for member in ("title", "subtitle", "body"):
        shown, said = note.get(member), notification[member]
        cut = isinstance(shown, str) and shown.endswith("\u2026") and isinstance(said, str) \
            and said.startswith(shown[:-1].rstrip())
        if shown != said and not cut and not (member == "subtitle" and shown is None):
            problems.append(("I8", f"{device.id}: {group}'s {member} is {str(shown)[:40]!r}, the answer says "
                                   f"{str(said)[:40]!r}", group))
    return problems
