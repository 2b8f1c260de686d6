"""The declarative Web Push message (docs/spec/push.md P23; the Push API's declarative push message and
WebKit's reading of it): a validator, written from the format and not from the service's writer, that
a payload's shape must pass, and the navigable URL rule both sides share.

  python3 checks/push/push_declarative.py --self-test   the validator passes a good message and fails
                                                        each broken one (no navigate, web_push not 8030,
                                                        app_badge not an integer, ...)
"""
from __future__ import annotations

import json
import sys
from urllib.parse import urlsplit

NAVIGATE_MAX_BYTES = 512
_FORBIDDEN = set('"\\<>`')


def navigable(url):
    """P23: https:// or http://, a host, no space, control (C0, DEL, C1), quote, backslash, angle bracket or
    backtick."""
    if not isinstance(url, str):
        return False
    for scheme in ("https://", "http://"):
        if url.startswith(scheme):
            rest = url[len(scheme):]
            break
    else:
        return False
    if not rest or rest[0] == "/":
        return False
    return not any(ord(c) <= 0x20 or 0x7F <= ord(c) <= 0x9F or c in _FORBIDDEN for c in rest)


def _integer(value):
    return isinstance(value, int) and not isinstance(value, bool)


def validate(message):
    """The problems of `message` (a parsed payload) as a declarative push message: [] when a browser
    that implements the format shows it. Checked as the format reads, not as the service writes."""
    problems = []
    if not isinstance(message, dict):
        return ["not a JSON object"]
    if not _integer(message.get("web_push")) or message.get("web_push") != 8030:
        problems.append(f"web_push is {message.get('web_push')!r}, not the integer 8030")
    note = message.get("notification")
    if not isinstance(note, dict):
        return problems + ["notification is not an object"]
    title = note.get("title")
    if not isinstance(title, str) or title == "":
        problems.append("notification.title missing or empty")
    if "navigate" not in note:
        problems.append("notification.navigate missing")
    else:
        url = note["navigate"]
        parts = urlsplit(url) if isinstance(url, str) else None
        if not navigable(url) or parts is None or parts.scheme not in ("http", "https") or not parts.netloc:
            problems.append(f"notification.navigate {str(url)[:60]!r} is not an absolute http(s) URL")
    for name in ("body", "lang", "tag"):
        if name in note and not isinstance(note[name], str):
            problems.append(f"notification.{name} is not a string")
    if "dir" in note and note["dir"] not in ("auto", "ltr", "rtl"):
        problems.append(f"notification.dir {note['dir']!r} is not auto, ltr or rtl")
    for owner, where in ((note, "notification."), (message, "")):
        if "app_badge" in owner and (not _integer(owner["app_badge"]) or owner["app_badge"] < 0):
            problems.append(f"{where}app_badge {owner['app_badge']!r} is not a non-negative integer")
        if "mutable" in owner and not isinstance(owner["mutable"], bool):
            problems.append(f"{where}mutable is not a boolean")
    if "silent" in note and not isinstance(note["silent"], bool):
        problems.append("notification.silent is not a boolean")
    if note.get("app_badge") != message.get("app_badge"):
        problems.append("app_badge differs between notification and the top level")
    if note.get("mutable") != message.get("mutable"):
        problems.append("mutable differs between notification and the top level")
    data = note.get("data")
    if not isinstance(data, dict) or not _integer(data.get("stamp")):
        problems.append("notification.data.stamp is not an integer (screen.md section 2 needs it)")
    return problems


GOOD = {"web_push": 8030,
        "notification": {"title": "Ana", "body": "Design\nSecret plan at noon", "navigate": "https://chat.example/t1/1",
                         "lang": "en", "dir": "ltr", "tag": "t1", "silent": False, "app_badge": 3, "mutable": True,
                         "data": {"kind": "single", "stamp": 1795953600000}},
        "app_badge": 3, "mutable": True}


def _broken():
    """(name, message) of shapes the validator must refuse."""
    def note_without(name):
        return GOOD | {"notification": {k: v for k, v in GOOD["notification"].items() if k != name}}

    def note_with(**members):
        return GOOD | {"notification": GOOD["notification"] | members}
    return [
        ("navigate missing", note_without("navigate")),
        ("web_push 8031", GOOD | {"web_push": 8031}),
        ("web_push as a string", GOOD | {"web_push": "8030"}),
        ("web_push missing", {k: v for k, v in GOOD.items() if k != "web_push"}),
        ("app_badge 3.5", note_with(app_badge=3.5) | {"app_badge": 3.5}),
        ("app_badge as a string", note_with(app_badge="3") | {"app_badge": "3"}),
        ("app_badge negative", note_with(app_badge=-1) | {"app_badge": -1}),
        ("navigate relative", note_with(navigate="/t1/1")),
        ("title empty", note_with(title="")),
        ("dir up", note_with(dir="up")),
        ("stamp missing", note_with(data={"kind": "single"})),
    ]


def self_test():
    failed = 0
    if validate(GOOD):
        failed += 1
        print(f"FAIL the good message is refused: {validate(GOOD)}")
    if validate(json.loads(json.dumps(GOOD))):
        failed += 1
    for name, message in _broken():
        if not validate(message):
            failed += 1
            print(f"FAIL the validator passes a broken message: {name}")
    print(f"declarative validator: {len(_broken()) - failed + 1} of {len(_broken()) + 1} shapes judged right")
    return failed == 0


if __name__ == "__main__":
    sys.exit(0 if "--self-test" in sys.argv and self_test() else 1)
