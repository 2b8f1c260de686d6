"""Builders for the cases of test-fixtures/compose.json: requests, expected
responses, the list of cases and the JSON layout. The expected responses are
written out by hand in the sections beside this file; Python only builds
repetitive inputs and applies C14 (the group key) to the thread identifier
each expected response already names."""
import base64
import hashlib
import json
import os
from datetime import datetime, timedelta, timezone

import yaml

NOW = "2026-11-29T12:00:00Z"
NOW_DT = datetime(2026, 11, 29, 12, 0, 0, tzinfo=timezone.utc)
ELLIPSIS = "\u2026"


def at(seconds):
    """NOW shifted by whole seconds, written in UTC with Z."""
    return (NOW_DT + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%SZ")


def note(id, timestamp, type="message", **fields):
    n = {"id": id, "type": type, "timestamp": timestamp}
    if "sender_id" in fields or "name" in fields:
        sender = {}
        if "sender_id" in fields:
            sender["id"] = fields.pop("sender_id")
        if "name" in fields:
            sender["name"] = fields.pop("name")
        n["sender"] = sender
    n.update(fields)
    return n


def group_key(source):
    """compose.md C14: the source itself when it is 1 to 64 bytes of U+0021..U+007E other than '"' and '\\',
    else the first 24 bytes of its SHA-256 in base64url without padding."""
    utf8 = source.encode("utf-8")
    if 1 <= len(utf8) <= 64 and all(0x21 <= b <= 0x7E and b not in (0x22, 0x5C) for b in utf8):
        return source
    return base64.urlsafe_b64encode(hashlib.sha256(utf8).digest()[:24]).decode("ascii").rstrip("=")


def entry(key, timestamp, group=None, with_group=True):
    """A displayed entry; key None is an entry of a group alone (no key member in a request)."""
    e = {} if key is None else {"key": key}
    e["timestamp"] = timestamp
    if group is not None:
        e["group"] = group
    return e


def req(notifications=None, displayed=None, now=NOW, **fields):
    r = {"now": now}
    if notifications is not None:
        r["notifications"] = notifications
    if displayed is not None:
        # (key, timestamp) is an entry without group, as stored before groups; (key, timestamp, group) one with.
        r["displayed"] = [entry(*d) for d in displayed]
    r.update(fields)
    return r


def out_entry(key, timestamp, group):
    """An entry of a response's displayed: all three members, always (compose.md C10)."""
    return {"key": key, "timestamp": timestamp, "group": group}


def answer_members():
    """The members of the answer's notification object, in wire order, as openapi.yaml's ComposeResponse lists
    them: a member the cases do not name is null (compose.json's requests have no push, so a member the push
    transition decides is null in every case)."""
    with open(os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                           "openapi.yaml"), encoding="utf-8") as f:
        schemas = yaml.safe_load(f)["components"]["schemas"]
    return list(schemas["ComposeResponse"]["properties"]["notification"]["properties"])


ANSWER_MEMBERS = answer_members()


def resp(kind, title, body, tid, subtitle=None, url=None, shown=(), dropped=(), displayed=(), reason=None,
         locale="en", **members):
    # compose.md C10 step 3: each kept key under the answer's group key, G of the thread identifier (C14).
    g = group_key(tid if tid is not None else "fallback")
    named = {"title": title, "subtitle": subtitle, "body": body, "threadIdentifier": tid, "url": url} | members
    assert set(named) <= set(ANSWER_MEMBERS), sorted(set(named) - set(ANSWER_MEMBERS))
    return {
        "kind": kind,
        "reason": reason,
        "notification": {member: named.get(member) for member in ANSWER_MEMBERS},
        "shown": list(shown),
        "dropped": [{"key": k, "reason": r} for k, r in dropped],
        "displayed": [out_entry(*d) if len(d) == 3 else out_entry(d[0], d[1], g) for d in displayed],
        "locale": locale,
        "direction": "rtl" if locale in ("ar", "he") else "ltr",  # compose.md C12: the catalog's direction
    }


def fallback(reason, app="Buzz", body=None, title=None, dropped=(), displayed=None, locale="en"):
    # displayed: (key, timestamp, group) triples, written as given (C10 steps 1 and 2); by default nothing for a
    # fallback empty, and the fallback entry at NOW for a failed or timed-out fetch without entries (C10 step 1).
    if displayed is None:
        displayed = [] if reason == "empty" else [(None, NOW, "fallback")]
    assert all(len(d) == 3 for d in displayed)
    return resp("fallback", title if title is not None else app,
                body if body is not None else f"There might be new activity on {app}.",
                None, dropped=dropped, displayed=displayed, reason=reason, locale=locale)


CASES = []


def case(id, description, request, response):
    assert all(c.islower() or c.isdigit() or c == "-" for c in id), id
    assert id not in [c["id"] for c in CASES], id
    CASES.append({"id": id, "description": description, "request": request, "response": response})


# A 300-unit app, longer than every cap of 256 units.
LONG_APP = "a" * 300

# ---------------------------------------------------------------- languages (compose.md, Part II)
# Bidi isolates around a filled-in value (compose.md section 12.3).
FSI, PDI = "\u2068", "\u2069"


def non_messages(count):
    """`count` fresh likes, l000 the newest; with `summary_response` below."""
    return [note(f"l{i:03d}", at(-1 - i), type="like") for i in range(count)]


def summary_response(title, body, count, locale):
    keys = [f"l{i:03d}" for i in range(count)]
    return resp("summary", title, body, "summary", shown=keys,
                displayed=[(key, at(-1 - i)) for i, key in enumerate(keys)], locale=locale)


def bundle_request(names, text=None, **fields):
    """One message per name (None: no sender), newest first in thread t; `text` on the newest only."""
    notes = []
    for i, name in enumerate(names):
        extra = {"thread": "t"}
        if name is not None:
            extra["name"] = name
        if i == 0 and text is not None:
            extra["text"] = text
        notes.append(note(f"b{i:03d}", at(-1 - i), **extra))
    return req(notes, **fields)


def bundle_response(body, subtitle, count, locale, title="Buzz"):
    keys = [f"b{i:03d}" for i in range(count)]
    return resp("bundle", title, body, "t", subtitle=subtitle, shown=keys,
                displayed=[(key, at(-1 - i)) for i, key in enumerate(keys)], locale=locale)


def dumps(value, indent=""):
    """JSON with every value that fits in 100 characters on one line; big ones expanded."""
    compact = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if len(compact) <= 100 or not isinstance(value, (dict, list)) or not value:
        return compact
    inner = indent + " "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {dumps(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    items = [inner + dumps(v, inner) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + indent + "]"
