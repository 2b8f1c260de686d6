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

def is_group_key(value):
    """compose.md C14: 1 to 64 bytes, each a scalar in U+0021..U+007E other than '"' and '\\'."""
    return 1 <= len(value.encode("utf-8")) <= 64 and all("\x21" <= c <= "\x7e" and c not in "\"\\" for c in value)


def displayed_problem(request):
    """The problem code compose.md 2.2 gives the request's displayed entries' `key` and `group`, or None."""
    groups = []
    for entry in request.get("displayed") or []:
        for name, value in entry.items():  # document order
            if name == "group" and value is not None:
                if not isinstance(value, str):
                    return "invalid-type"
                if not is_group_key(value):
                    return "invalid-value"
                if value not in groups:
                    if len(groups) == 16:
                        return "out-of-range"
                    groups.append(value)
        if entry.get("key") is None and entry.get("group") is None:
            return "missing-field"
    return None


def problem(request):
    """The problem code compose.md gives the request's `preview`, `push` and displayed `group` members, or None."""
    def integer(v):
        return isinstance(v, int) and not isinstance(v, bool)
    found = displayed_problem(request)
    if found is not None:
        return found
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


# MARK: compose.md C10 and S1 to S3: from one screen to the next

def state_order(entry):
    """C10 step 4 as a sort key: newest first; at equal instants keyed entries first, by key, then by group
    (code points: Python compares str by code point)."""
    keyed = entry.get("key") is not None
    return (-unix(entry["timestamp"]), 0 if keyed else 1, entry.get("key") if keyed else entry.get("group"))


def state_d(request):
    """D of C10: per key the entry with the latest instant, per group of the keyless entries the latest; ties the
    first written. In C10's order."""
    by_key, by_group = {}, {}
    for entry in request.get("displayed") or []:
        table, name = (by_key, entry["key"]) if entry.get("key") is not None else (by_group, entry["group"])
        if name not in table or unix(entry["timestamp"]) > unix(table[name]["timestamp"]):
            table[name] = entry
    return sorted(list(by_key.values()) + list(by_group.values()), key=state_order)


def next_state(request, base, group):
    """C10: the response's displayed, every entry with its three members."""
    fetch = request.get("fetch") or "ok"
    d = state_d(request)
    if fetch != "ok":
        entries = [{"key": e.get("key"), "timestamp": e["timestamp"], "group": e.get("group")} for e in d]
        if not any(e.get("key") is None and e.get("group") == "fallback" for e in d):
            entries.append({"key": None, "timestamp": request["now"], "group": "fallback"})
        return sorted(entries, key=state_order)[:1000]
    by_key = {}
    for n in request.get("notifications") or []:
        by_key.setdefault(key_of(n), n)
    return [{"key": k, "timestamp": by_key[k]["timestamp"], "group": group} for k in base["shown"]][:1000]


def transition(request, base, group):
    """S1 to S3: (send, alert, withdraw)."""
    d = state_d(request)
    if (request.get("fetch") or "ok") != "ok":
        on_screen = any(e.get("key") is None and e.get("group") == "fallback" for e in d)
        return not on_screen, not on_screen, []
    shown = base["shown"]
    g = group if shown else None
    withdraw = []
    for e in d:
        if e.get("group") is not None and e["group"] != g and e["group"] not in withdraw:
            withdraw.append(e["group"])
    if not shown:
        return False, False, withdraw
    under_g = [e for e in d if e.get("group") == g]
    entry_of = {e["key"]: e for e in d if e.get("key") is not None}
    same = all(e.get("key") in shown for e in under_g) and all(
        k in entry_of and entry_of[k].get("group") == g for k in shown)
    new_key = any(k not in entry_of for k in shown)
    return not same, not same and new_key, withdraw


def withdrawal_of(request, withdraw, badge):
    """P21: the withdrawal payloads."""
    now = unix(request["now"])
    sent_at = (now * 1000).__floor__()
    expiration = max(now.__floor__() + 86400, 0)
    apns = {"aps": {"content-available": 1}, "withdraw": withdraw, "sentAt": sent_at}
    data = {"withdraw": " ".join(withdraw), "sentAt": str(sent_at)}
    web = {"withdraw": withdraw, "sentAt": sent_at}
    if badge is not None:
        apns["badge"] = badge
        data["badge"] = str(badge)
        web["appBadge"] = badge
    return {
        "apns": {"headers": {"apns-push-type": "background", "apns-priority": "5",
                             "apns-expiration": str(expiration)}, "payload": apns},
        "fcm": {"message": {"data": data, "android": {"priority": "normal", "ttl": "86400s"}}},
        "webpush": {"headers": {"TTL": "86400", "Urgency": "normal"}, "payload": web},
    }


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

    # P3 to P5 (compose.md C14): the group key and the topic
    source = note["threadIdentifier"] if note["threadIdentifier"] is not None else "fallback"
    group = group_key(source)
    topic = digest(source)

    # P1, P2 (compose.md S1 to S3): send, alert and withdraw
    send, alert, withdraw = transition(request, base, group)

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
    if not alert:
        level = "passive"  # P9: a quiet replacement

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
        data |= {"kind": kind, "lang": locale, "dir": direction, "alert": "true" if alert else "false"}
        return {"data": data, "android": {"collapse_key": group, "priority": fcm_priority, "ttl": f"{ttl}s"}}

    def webpush(t):
        payload = present(title=t["title"], subtitle=t["subtitle"], body=t["body"], tag=group, url=t["url"],
                          appBadge=badge)
        return payload | {"kind": kind, "lang": locale, "dir": direction, "alert": alert}

    apns_payload, apns_cut = fit(apns, texts, LIMITS["apns"] - reserve)
    fcm_message, fcm_cut = fit(fcm, texts, LIMITS["fcm"] - reserve)
    web_payload, web_cut = fit(webpush, texts, LIMITS["webpush"] - reserve)
    return {
        "send": send,
        "alert": alert,
        "withdraw": withdraw,
        "apns": {"headers": {"apns-push-type": "alert", "apns-priority": apns_priority,
                             "apns-expiration": str(max(expiration, 0)), "apns-collapse-id": group},
                 "payload": apns_payload},
        "fcm": {"message": fcm_message},
        "webpush": {"headers": {"TTL": str(ttl), "Urgency": urgency, "Topic": topic}, "payload": web_payload},
        "withdrawal": withdrawal_of(request, withdraw, badge),
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
    withdrawal = push["withdrawal"]
    return {"apns": size(push["apns"]["payload"]), "fcm": size(push["fcm"]["message"]),
            "webpush": size(push["webpush"]["payload"]),
            "withdrawal-apns": size(withdrawal["apns"]["payload"]),
            "withdrawal-fcm": size(withdrawal["fcm"]["message"]),
            "withdrawal-webpush": size(withdrawal["webpush"]["payload"])}


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
        group = push["apns"]["headers"]["apns-collapse-id"]
        if note["threadIdentifier"] is not None and group in push["withdraw"]:
            problems.append("withdraw names the answer's own group")
        withdrawal = push["withdrawal"]
        for name, whole in (("apns", withdrawal["apns"]["payload"]), ("fcm", withdrawal["fcm"]["message"]),
                            ("webpush", withdrawal["webpush"]["payload"])):
            if size(whole) > LIMITS[name] - reserve:
                problems.append(f"withdrawal {name}: {size(whole)} bytes, limit {LIMITS[name] - reserve}")
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
