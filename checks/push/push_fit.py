"""docs/spec/push.md's sizes and cuts: bytes as JSON writes them (P20), the group key and
topic (P3 to P5) and a payload fitted to its transport's limit (P13 to P17)."""
import base64
import hashlib
import json

from push_terms import ELLIPSIS, graphemes, is_group_key

LIMITS = {"apns": 4096, "fcm": 4096, "webpush": 3993}
TEXT_FLOOR = 256  # P15: a text is not cut below this many bytes before the next one is cut
URL_FLOOR = 1024  # P14: the url stays when the body keeps at least this much beside it


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
    """P3 (compose.md C14): the source itself when it is a group key, else its digest."""
    return source if is_group_key(source) else digest(source)


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


def fit(build, texts, limit, url_cost=lambda url: 9 + escaped_bytes(url)):
    """P13 to P17: (payload, the names cut) for one transport. url_cost: what the url adds to the payload
    built without it (P14's c_u; a declarative Web Push payload's is its cost less the app URL's, P23)."""
    full = build(texts)
    if size(full) <= limit:
        return full, []
    empty = {"title": "", "subtitle": None if texts["subtitle"] is None else "", "body": "", "url": None,
             "identity": None}
    room = limit - size(build(empty))
    cost = {name: escaped_bytes(texts[name]) if texts[name] is not None else 0 for name in ("title", "subtitle", "body")}
    url_cost = url_cost(texts["url"]) if texts["url"] is not None else 0
    cut = set()
    out = dict(texts)
    if texts["url"] is not None and cost["title"] + cost["subtitle"] + min(cost["body"], URL_FLOOR) + url_cost > room:
        out["url"] = None
        cut.add("url")
        url_cost = 0
    # P14: then the identity (P24), whole or not at all; its cost is what it adds to the payload.
    identity_cost = size(build(empty | {"identity": True})) - size(build(empty)) if texts.get("identity") else 0
    if identity_cost and cost["title"] + cost["subtitle"] + min(cost["body"], URL_FLOOR) + url_cost + identity_cost > room:
        out["identity"] = None
        cut.add("identity")
        identity_cost = 0
    room -= url_cost + identity_cost
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
    return payload, [n for n in ("title", "subtitle", "body", "url", "identity") if n in cut]
