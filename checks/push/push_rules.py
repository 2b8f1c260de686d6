"""The rules of docs/spec/push.md (and compose.md's `preview`, `direction` and
`push` members), as checks/push/oracle.py reads them: the preview tiers and
the answer's `push` object with its payloads. The catalogs and their messages
come from checks/l10n/l10n_rules.py; the compose terms, the problems, the fit,
the screen state and the invariants are in push_terms.py, push_problems.py,
push_fit.py, push_state.py and push_invariants.py.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

from push_fit import LIMITS, digest, escaped_bytes, fit, group_key, size
from push_declarative import navigable
from push_state import next_state, next_state_with_push, transition
from push_terms import MESSAGE_TYPES, app_of, cap, is_group_key, key_of, plain, unix

REPO = Path(__file__).resolve().parents[2]
# The l10n rules read the catalogs and fills in their messages (compose.md Part II).
_spec = importlib.util.spec_from_file_location("l10n_rules", REPO / "checks" / "l10n" / "l10n_rules.py")
l10n = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(l10n)
Catalogs, format_message = l10n.Catalogs, l10n.format_message

DIRECT_TYPES = ("mention", "reply")
CLASSES = {  # P9: interruption-level, relevance-score, apns-priority, FCM priority, Urgency
    "urgent": ("time-sensitive", 1, "10", "high", "high"),
    "low": ("passive", 0.1, "5", "normal", "low"),
    "direct": ("active", 1, "10", "high", "high"),
    "message": ("active", 0.6, "10", "high", "normal"),
    "other": ("active", 0.4, "10", "high", "normal"),
    "fallback": ("passive", 0.2, "5", "normal", "low"),
}


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


# MARK: push.md: the push object

def importance_of(kept):
    """compose.md C16: high when a kept notification is, low when every one is, else normal."""
    words = [n.get("importance") or "normal" for n in kept]
    if "high" in words:
        return "high"
    return "low" if words and all(w == "low" for w in words) else "normal"


def identity_of(request, kind, kept, group):
    """P24: the lead's `sender` and `conversation` objects (None for none)."""
    if kind not in ("single", "bundle") or kept[0]["type"] not in MESSAGE_TYPES:
        return None, None
    lead = kept[0]
    shows = (request.get("preview") or "full") != "none"
    s = lead.get("sender") or {}
    sender = None
    if shows:
        name = plain(s.get("name"))
        members = {"id": None if s.get("id") is None else s["id"] if is_group_key(s["id"]) else digest(s["id"]),
                   "name": None if name is None else cap(name, 256), "avatar": s.get("avatar")}
        sender = {k: v for k, v in members.items() if v is not None} or None
    conversation = None
    if lead.get("thread"):
        # The lead's own thread title and group flag (a backend gives them with each message of a thread).
        title = plain(lead.get("threadTitle")) if shows else None
        conversation = {"id": group} | ({} if title is None else {"title": cap(title, 256)}) | {
            "group": lead.get("threadIsGroup") is True}
    return sender, conversation


def identity_members(sender, conversation, as_data):
    """P24's members as APNs and Web Push write them (objects), or as FCM data does (strings)."""
    if not as_data:
        return ({} if sender is None else {"sender": sender}) | (
            {} if conversation is None else {"conversation": conversation})
    out = {}
    if sender is not None:
        out |= {"sender" + k.capitalize(): v for k, v in sender.items()}
    if conversation is not None:
        out |= {"conversation" + k.capitalize(): ("true" if v else "false") if k == "group" else v
                for k, v in conversation.items()}
    return out

def stamp_of(request):
    """P22: the request's push.stamp, or ⌊now⌋ in milliseconds."""
    stamp = request["push"].get("stamp")
    return (unix(request["now"]) * 1000).__floor__() if stamp is None else stamp


def withdrawal_of(request, withdraw, badge):
    """P21: the withdrawal payloads."""
    now = unix(request["now"])
    stamp = stamp_of(request)
    expiration = max(now.__floor__() + 86400, 0)
    apns = {"aps": {"content-available": 1}, "withdraw": withdraw, "stamp": stamp}
    data = {"withdraw": " ".join(withdraw), "stamp": str(stamp)}
    web = {"withdraw": withdraw, "stamp": stamp}
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
    stamp = stamp_of(request)
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
    send, alert, withdraw, held_until = transition(request, base, group, note)

    # P9: the class
    importance = importance_of(kept) if kind != "fallback" else "normal"
    if kind == "fallback":
        cls = "fallback"
    elif importance == "high":
        cls = "urgent"
    elif importance == "low":
        cls = "low"
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

    sender, conversation = identity_of(request, kind, kept, group)
    has_identity = sender is not None or conversation is not None
    texts = {"title": note["title"], "subtitle": note["subtitle"], "body": note["body"], "url": note["url"],
             "identity": True if has_identity else None}

    def identity(t, as_data=False):
        return identity_members(sender, conversation, as_data) if t.get("identity") else {}

    def present(**members):
        """The members whose value is not None, in order (push.md section 6: "when present")."""
        return {name: value for name, value in members.items() if value is not None}

    def apns(t):
        alert = present(title=t["title"], subtitle=t["subtitle"], body=t["body"])
        aps = {"alert": alert, "thread-id": group, "interruption-level": level, "relevance-score": relevance}
        return {"aps": aps | present(badge=badge), "stamp": stamp} | present(url=t["url"]) | identity(t)

    def fcm(t):
        data = present(title=t["title"], subtitle=t["subtitle"], body=t["body"], tag=group, url=t["url"],
                       channel=channel, badge=None if badge is None else str(badge),
                       importance=None if importance == "normal" else importance)
        data |= {"kind": kind, "lang": locale, "dir": direction, "alert": "true" if alert else "false",
                 "stamp": str(stamp)} | identity(t, as_data=True)
        return {"data": data, "android": {"collapse_key": group, "priority": fcm_priority, "ttl": f"{ttl}s"}}

    def webpush(t):
        payload = present(title=t["title"], subtitle=t["subtitle"], body=t["body"], tag=group, url=t["url"],
                          appBadge=badge)
        return payload | {"kind": kind, "lang": locale, "dir": direction, "alert": alert, "stamp": stamp} | identity(t)

    app_url = spec.get("navigate")
    mutable = spec.get("mutable") is True

    def declarative(t):
        """P23: the declarative Web Push message; badge and mutable inside `notification` and at the top level."""
        body = t["body"] if t["subtitle"] is None else t["subtitle"] + "\n" + t["body"]
        extra = present(app_badge=badge, mutable=True if mutable else None)
        notification = {"title": t["title"], "body": body, "navigate": t["url"] if t["url"] is not None else app_url,
                         "lang": locale, "dir": direction, "tag": group, "silent": not alert}
        notification |= extra | {"data": {"kind": kind, "stamp": stamp} | identity(t)}
        return {"web_push": 8030, "notification": notification} | extra

    apns_payload, apns_cut = fit(apns, texts, LIMITS["apns"] - reserve)
    fcm_message, fcm_cut = fit(fcm, texts, LIMITS["fcm"] - reserve)
    if spec.get("webPush") == "declarative":
        # P23: only a navigable url is carried, in `navigate`, where it replaces the app URL.
        web_texts = texts | {"url": texts["url"] if texts["url"] is not None and navigable(texts["url"]) else None}
        web_payload, web_cut = fit(declarative, web_texts, LIMITS["webpush"] - reserve,
                                   url_cost=lambda url: escaped_bytes(url) - escaped_bytes(app_url))
    else:
        web_payload, web_cut = fit(webpush, texts, LIMITS["webpush"] - reserve)
    return {
        "send": send,
        "alert": alert,
        "heldUntil": held_until,
        "group": group,
        "stamp": stamp,
        "withdraw": withdraw,
        "apns": {"headers": {"apns-push-type": "alert", "apns-priority": apns_priority,
                             "apns-expiration": str(max(expiration, 0)), "apns-collapse-id": group},
                 "payload": apns_payload},
        "fcm": {"message": fcm_message},
        "webpush": {"headers": {"TTL": str(ttl), "Urgency": urgency, "Topic": topic}, "payload": web_payload},
        "withdrawal": withdrawal_of(request, withdraw, badge),
        "cut": {"apns": apns_cut, "fcm": fcm_cut, "webpush": web_cut},
        "importance": importance,
        "sender": sender,
        "conversation": conversation,
    }


def expected(request, base, catalogs):
    """The members of the answer push.md and compose.md's C11 and C12 decide."""
    catalog = catalogs.files[base["locale"]]
    note = tiered(request, base, catalogs)
    answer = {"kind": base["kind"], "reason": base["reason"], "notification": note,
              "locale": base["locale"], "direction": catalog["direction"]}
    push = push_of(request, base, note, catalog["direction"])
    group = group_key(note["threadIdentifier"] if note["threadIdentifier"] is not None else "fallback")
    if push is not None:
        answer["displayed"] = next_state_with_push(request, base, group, note, transition(request, base, group, note))
        answer["push"] = push
    else:
        answer["displayed"] = next_state(request, base, group)
    return answer


def sizes(answer):
    push = answer["push"]
    withdrawal = push["withdrawal"]
    return {"apns": size(push["apns"]["payload"]), "fcm": size(push["fcm"]["message"]),
            "webpush": size(push["webpush"]["payload"]),
            "withdrawal-apns": size(withdrawal["apns"]["payload"]),
            "withdrawal-fcm": size(withdrawal["fcm"]["message"]),
            "withdrawal-webpush": size(withdrawal["webpush"]["payload"])}
