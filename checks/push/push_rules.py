"""The rules of docs/spec/push.md (and compose.md's `preview`, `direction` and
`push` members), as checks/push/oracle.py reads them: the preview tiers, the
problems, the payloads and their fit. The catalogs and their messages come
from checks/l10n/l10n_rules.py.
"""
from __future__ import annotations

import base64
import hashlib
import importlib.util
import json
import re
from fractions import Fraction
from pathlib import Path

import regex

REPO = Path(__file__).resolve().parents[2]
# The l10n rules read the catalogs and fills in their messages (compose.md Part II).
_spec = importlib.util.spec_from_file_location("l10n_rules", REPO / "checks" / "l10n" / "l10n_rules.py")
l10n = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(l10n)
Catalogs, format_message = l10n.Catalogs, l10n.format_message

MESSAGE_TYPES = ("message", "mention", "reply")
DIRECT_TYPES = ("mention", "reply")
WHITE_SPACE = set("\t\n\u000b\u000c\r \u0085\u00a0\u1680\u2028\u2029\u202f\u205f\u3000") | {
    chr(c) for c in range(0x2000, 0x200B)}
LIMITS = {"apns": 4096, "fcm": 4096, "webpush": 3993}
TEXT_FLOOR = 256  # P15: a text is not cut below this many bytes before the next one is cut
URL_FLOOR = 1024  # P14: the url stays when the body keeps at least this much beside it
ELLIPSIS = "\u2026"
CLASSES = {  # P9: interruption-level, relevance-score, apns-priority, FCM priority, Urgency
    "direct": ("active", 1, "10", "high", "high"),
    "message": ("active", 0.6, "10", "high", "normal"),
    "other": ("active", 0.4, "10", "high", "normal"),
    "fallback": ("passive", 0.2, "5", "normal", "low"),
}


# MARK: compose.md terms

def plain(s):
    if s is None:
        return None
    out, space = [], False
    for c in s:
        if c in WHITE_SPACE:
            space = True
            continue
        if space and out:
            out.append(" ")
        space = False
        out.append(c)
    return "".join(out) or None


def units(s):
    return len(s.encode("utf-16-le")) // 2


def graphemes(s):
    return regex.findall(r"\X", s)


def cap(s, n, cut=False):
    if units(s) <= n and not cut:
        return s
    kept, used = [], 0
    for g in graphemes(s):
        if used + units(g) > n - 1:
            break
        kept.append(g)
        used += units(g)
    text = "".join(kept).rstrip(" \t\n")
    return text + ELLIPSIS


def key_of(n):
    return f"{n['source']}:{n['id']}" if n.get("source") else n["id"]


def app_of(request):
    return plain(request.get("app")) or "Buzz"


# MARK: timestamps (compose.md 2.3) as exact Unix seconds

STAMP = re.compile(r"(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(\.\d+)?([Zz]|[+-]\d\d:\d\d)")


def days_from_civil(y, m, d):
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def unix(stamp):
    m = STAMP.fullmatch(stamp)
    assert m, stamp
    y, mo, d, h, mi, s = (int(m.group(i)) for i in range(1, 7))
    frac = Fraction(int(m.group(7)[1:]), 10 ** (len(m.group(7)) - 1)) if m.group(7) else Fraction(0)
    offset = 0
    if m.group(8) not in ("Z", "z"):
        sign = -1 if m.group(8)[0] == "-" else 1
        offset = sign * (int(m.group(8)[1:3]) * 3600 + int(m.group(8)[4:6]) * 60)
    # second 60 (a leap second) is the next second, the same instant as :00 of the next minute
    return days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s - offset + frac


# MARK: compose.md: preview tiers (C11)

def tiered(request, base, catalogs):
    """The notification of the request's preview tier, from the full tier's answer."""
    preview = request.get("preview") or "full"
    note = dict(base["notification"])
    if preview == "full":
        return note
    kind = base["kind"]
    catalog = catalogs.files[base["locale"]]
    max_units = request.get("maxUnits") or 256
    by_key = {}
    for n in request.get("notifications") or []:
        by_key.setdefault(key_of(n), n)
    kept = [by_key[k] for k in base["shown"]]
    if kind == "single":
        key = "message.fallback" if kept[0]["type"] in MESSAGE_TYPES else "notification.fallback"
        note["body"] = cap(format_message(catalog, key, {}), max_units)
    elif kind == "bundle":
        note["body"] = cap(format_message(catalog, "bundle.count", {"count": len(kept)}), max_units)
    if preview == "none":
        note["title"] = cap(app_of(request), 256)
        note["subtitle"] = None
    return note


# MARK: compose.md 2.2 for preview and push (C11, C13)

def problem(request):
    """The problem code compose.md gives the request's `preview` and `push` members, or None."""
    def integer(v):
        return isinstance(v, int) and not isinstance(v, bool)
    preview = request.get("preview")
    if preview is not None:
        if not isinstance(preview, str):
            return "invalid-type"
        if preview not in ("full", "sender", "none"):
            return "invalid-value"
    push = request.get("push")
    if push is None:
        return None
    if not isinstance(push, dict):
        return "invalid-type"
    for name, value in push.items():  # document order
        if value is None:
            continue
        if name in ("badge", "reserveBytes"):
            if not integer(value):
                return "invalid-type"
            if not 0 <= value <= (2147483647 if name == "badge" else 2048):
                return "out-of-range"
        elif name == "androidChannel":
            if not isinstance(value, str):
                return "invalid-type"
            if not 1 <= len(value.encode("utf-8")) <= 128 or any(
                    ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in value):
                return "invalid-value"
    return None


# MARK: push.md

def escaped_bytes(s):
    """P20: the bytes of s inside a JSON string as written (quotes not counted)."""
    total = 0
    for c in s:
        o = ord(c)
        if c in "\"\\\b\f\n\r\t":
            total += 2
        elif o < 0x20:
            total += 6
        else:
            total += len(c.encode("utf-8"))
    return total


def write(obj):
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def size(obj):
    return len(write(obj).encode("utf-8"))


def digest(s):
    """P4: 24 bytes of SHA-256 of the UTF-8, base64url without padding: 32 characters."""
    return base64.urlsafe_b64encode(hashlib.sha256(s.encode("utf-8")).digest()[:24]).decode("ascii")


def group_key(source):
    raw = 1 <= len(source.encode("utf-8")) <= 64 and all("\x21" <= c <= "\x7e" and c not in "\"\\" for c in source)
    return source if raw else digest(source)


def cut_text(text, room):
    """P16: whole graphemes of text, trailing whitespace removed, then "…", in at most room bytes."""
    kept, used = [], 0
    for g in graphemes(text):
        if used + escaped_bytes(g) + 3 > room:
            break
        kept.append(g)
        used += escaped_bytes(g)
    while kept and kept[-1] in (" ", "\t", "\n"):
        kept.pop()
    return "".join(kept) + ELLIPSIS


def fit(build, texts, limit):
    """P13 to P17: (payload, the names cut) for one transport."""
    full = build(texts)
    if size(full) <= limit:
        return full, []
    empty = {"title": "", "subtitle": None if texts["subtitle"] is None else "", "body": "", "url": None}
    room = limit - size(build(empty))
    cost = {name: escaped_bytes(texts[name]) if texts[name] is not None else 0 for name in ("title", "subtitle", "body")}
    url_cost = 9 + escaped_bytes(texts["url"]) if texts["url"] is not None else 0
    cut = set()
    out = dict(texts)
    if texts["url"] is not None and cost["title"] + cost["subtitle"] + min(cost["body"], URL_FLOOR) + url_cost > room:
        out["url"] = None
        cut.add("url")
        url_cost = 0
    room -= url_cost
    order = [name for name in ("body", "subtitle", "title") if texts[name] is not None]
    floor = {name: min(cost[name], TEXT_FLOOR) for name in order}
    rooms = None
    for i, name in enumerate(order):
        r = room - sum(cost[n] for n in order[i + 1:]) - sum(floor[n] for n in order[:i])
        if r >= floor[name]:
            rooms = {n: floor[n] for n in order[:i]} | {name: r} | {n: cost[n] for n in order[i + 1:]}
            break
    assert rooms is not None, "the fixed part leaves less than the three floors"
    for name in order:
        if cost[name] > rooms[name]:
            out[name] = cut_text(texts[name], rooms[name])
            cut.add(name)
    payload = build(out)
    assert size(payload) <= limit, (size(payload), limit)
    return payload, [n for n in ("title", "subtitle", "body", "url") if n in cut]


def push_of(request, base, note, direction):
    spec = request.get("push")
    if spec is None:
        return None
    kind = base["kind"]
    badge = spec.get("badge")
    channel = spec.get("androidChannel")
    reserve = spec.get("reserveBytes") or 0
    locale = base["locale"]
    by_key = {}
    for n in request.get("notifications") or []:
        by_key.setdefault(key_of(n), n)
    kept = [by_key[k] for k in base["shown"]]

    # P1, P2: send and withdraw
    send = not (kind == "fallback" and base["reason"] == "empty")
    withdraw = []
    if (request.get("fetch") or "ok") == "ok":
        shown_before = {d["key"] for d in request.get("displayed") or []}
        for n in request.get("notifications") or []:
            k = key_of(n)
            if n.get("read") is True and k in shown_before and k not in withdraw:
                withdraw.append(k)

    # P3 to P5: the group key and the topic
    source = note["threadIdentifier"] if note["threadIdentifier"] is not None else "fallback"
    group = group_key(source)
    topic = digest(source)

    # P9: the class
    if kind == "fallback":
        cls = "fallback"
    elif any(n["type"] in DIRECT_TYPES for n in kept):
        cls = "direct"
    elif kind == "bundle" or (kind == "single" and kept[0]["type"] in MESSAGE_TYPES):
        cls = "message"
    else:
        cls = "other"
    level, relevance, apns_priority, fcm_priority, urgency = CLASSES[cls]

    # P7, P8: expiration and TTL
    now = unix(request["now"])
    max_age = request.get("maxAgeSeconds")
    max_age = 600 if max_age is None else max_age
    anchor = unix(kept[0]["timestamp"]) if kept else now
    expiration = (anchor + max_age).__floor__()
    ttl = expiration - now.__floor__()
    assert ttl >= 0

    texts = {"title": note["title"], "subtitle": note["subtitle"], "body": note["body"], "url": note["url"]}

    def present(**members):
        """The members whose value is not None, in order (push.md section 6: "when present")."""
        return {name: value for name, value in members.items() if value is not None}

    def apns(t):
        alert = present(title=t["title"], subtitle=t["subtitle"], body=t["body"])
        aps = {"alert": alert, "thread-id": group, "interruption-level": level, "relevance-score": relevance}
        return {"aps": aps | present(badge=badge)} | present(url=t["url"])

    def fcm(t):
        data = present(title=t["title"], subtitle=t["subtitle"], body=t["body"], tag=group, url=t["url"],
                       channel=channel, badge=None if badge is None else str(badge))
        data |= {"kind": kind, "lang": locale, "dir": direction}
        return {"data": data, "android": {"collapse_key": group, "priority": fcm_priority, "ttl": f"{ttl}s"}}

    def webpush(t):
        payload = present(title=t["title"], subtitle=t["subtitle"], body=t["body"], tag=group, url=t["url"],
                          appBadge=badge)
        return payload | {"kind": kind, "lang": locale, "dir": direction}

    apns_payload, apns_cut = fit(apns, texts, LIMITS["apns"] - reserve)
    fcm_message, fcm_cut = fit(fcm, texts, LIMITS["fcm"] - reserve)
    web_payload, web_cut = fit(webpush, texts, LIMITS["webpush"] - reserve)
    return {
        "send": send,
        "withdraw": withdraw,
        "apns": {"headers": {"apns-push-type": "alert", "apns-priority": apns_priority,
                             "apns-expiration": str(max(expiration, 0)), "apns-collapse-id": group},
                 "payload": apns_payload},
        "fcm": {"message": fcm_message},
        "webpush": {"headers": {"TTL": str(ttl), "Urgency": urgency, "Topic": topic}, "payload": web_payload},
        "cut": {"apns": apns_cut, "fcm": fcm_cut, "webpush": web_cut},
    }


def expected(request, base, catalogs):
    """The members of the answer push.md and compose.md's C11 and C12 decide."""
    catalog = catalogs.files[base["locale"]]
    note = tiered(request, base, catalogs)
    answer = {"kind": base["kind"], "reason": base["reason"], "notification": note,
              "locale": base["locale"], "direction": catalog["direction"]}
    push = push_of(request, base, note, catalog["direction"])
    if push is not None:
        answer["push"] = push
    return answer


def sizes(answer):
    push = answer["push"]
    return {"apns": size(push["apns"]["payload"]), "fcm": size(push["fcm"]["message"]),
            "webpush": size(push["webpush"]["payload"])}


# MARK: invariants

def invariants(request, answer):
    """Problems with an answer that hold whatever the exact rules: fit, grapheme cuts, no leaks."""
    problems = []
    push = answer.get("push")
    reserve = (request.get("push") or {}).get("reserveBytes") or 0
    note = answer["notification"]
    if push:
        parts = {"apns": (push["apns"]["payload"], push["apns"]["payload"]["aps"]["alert"], push["apns"]["payload"]),
                 "fcm": (push["fcm"]["message"], push["fcm"]["message"]["data"], push["fcm"]["message"]["data"]),
                 "webpush": (push["webpush"]["payload"], push["webpush"]["payload"], push["webpush"]["payload"])}
        for name, (whole, alert, top) in parts.items():
            if size(whole) > LIMITS[name] - reserve:
                problems.append(f"{name}: {size(whole)} bytes, limit {LIMITS[name] - reserve}")
            for field in ("title", "subtitle", "body"):
                value, uncut = alert.get(field), note[field]
                if value == uncut:
                    continue
                if field not in push["cut"][name] or not value.endswith(ELLIPSIS):
                    problems.append(f"{name}.{field} changed but not named cut")
                    continue
                prefix, g, joined = value[:-1], graphemes(uncut), ""
                if not any("".join(g[:i]) == prefix for i in range(len(g) + 1)):
                    problems.append(f"{name}.{field} not cut on a grapheme boundary")
            if ("url" in top) != (note["url"] is not None and "url" not in push["cut"][name]):
                problems.append(f"{name}: url kept or left out against cut")
        if len(push["apns"]["headers"]["apns-collapse-id"].encode()) > 64:
            problems.append("apns-collapse-id over 64 bytes")
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", push["webpush"]["headers"]["Topic"]):
            problems.append("Topic not 1-32 base64url characters")
    preview = request.get("preview") or "full"
    if preview != "full":
        text = write(answer)
        hidden = []
        for n in request.get("notifications") or []:
            hidden += [n.get("text"), n.get("defaultText")]
            if preview == "none":
                hidden += [plain(n.get("threadTitle")), plain((n.get("sender") or {}).get("name"))]
        for value in hidden:
            if value and len(value) >= 4 and value in text:
                problems.append(f"tier {preview} shows {value[:20]!r}")
    return problems
