"""What any answer of the push oracle must keep, whatever the exact rules: each payload fits its
transport, cuts fall on grapheme boundaries and are named, and a preview tier shows nothing it hides."""
import re

from push_declarative import navigable, validate
from push_fit import LIMITS, size, write
from push_terms import ELLIPSIS, graphemes, plain

def invariants(request, answer):
    """Problems with an answer that hold whatever the exact rules: fit, grapheme cuts, no leaks."""
    problems = []
    push = answer.get("push")
    reserve = (request.get("push") or {}).get("reserveBytes") or 0
    note = answer["notification"]
    if push:
        web = push["webpush"]["payload"]
        declarative = "web_push" in web
        if declarative:
            # P23: texts as a worker without a subtitle reads them; the url is `navigate` when it is the note's.
            web_note = web["notification"]
            uncut_url = note["url"] if note["url"] is not None and navigable(note["url"]) else None
            web_texts = {"title": web_note["title"], "body": web_note["body"], "subtitle": None,
                         "url": web_note["navigate"] if web_note["navigate"] == uncut_url else None}
            problems += [f"webpush: {p}" for p in validate(web)]
            app_url = (request.get("push") or {}).get("navigate")
            if web_texts["url"] is None and web_note["navigate"] != app_url:
                problems.append("webpush: navigate is neither the notification's url nor the app URL")
        parts = {"apns": (push["apns"]["payload"], push["apns"]["payload"]["aps"]["alert"], push["apns"]["payload"]),
                 "fcm": (push["fcm"]["message"], push["fcm"]["message"]["data"], push["fcm"]["message"]["data"]),
                 "webpush": (web, web_texts, web_texts) if declarative else (web, web, web)}
        for name, (whole, alert, top) in parts.items():
            if size(whole) > LIMITS[name] - reserve:
                problems.append(f"{name}: {size(whole)} bytes, limit {LIMITS[name] - reserve}")
            for field in ("title", "subtitle", "body"):
                value, uncut = alert.get(field), note[field]
                if name == "webpush" and declarative and field != "title":
                    continue  # subtitle and body are one string there; checked below
                if value == uncut:
                    continue
                if field not in push["cut"][name] or not value.endswith(ELLIPSIS):
                    problems.append(f"{name}.{field} changed but not named cut")
                    continue
                prefix, g = value[:-1], graphemes(uncut)
                if not any("".join(g[:i]) == prefix for i in range(len(g) + 1)):
                    problems.append(f"{name}.{field} not cut on a grapheme boundary")
            if name == "webpush" and declarative:
                for field in ("subtitle", "body"):
                    if field not in push["cut"][name] and note[field] is not None and note[field] not in web_note["body"]:
                        problems.append(f"webpush.{field} changed but not named cut")
                kept = uncut_url is not None and "url" not in push["cut"][name]
                if (top["url"] is not None) != kept:
                    problems.append("webpush: url kept or left out against cut")
                continue
            if ("url" in top) != (note["url"] is not None and "url" not in push["cut"][name]):
                problems.append(f"{name}: url kept or left out against cut")
        # P24: the identity, whole in every payload or named cut there.
        has_identity = push["sender"] is not None or push["conversation"] is not None
        carried = {"apns": "sender" in push["apns"]["payload"] or "conversation" in push["apns"]["payload"],
                   "fcm": any(k.startswith(("sender", "conversation")) for k in push["fcm"]["message"]["data"]),
                   "webpush": "sender" in (web["notification"]["data"] if declarative else web)
                   or "conversation" in (web["notification"]["data"] if declarative else web)}
        for name, present in carried.items():
            if present != (has_identity and "identity" not in push["cut"][name]):
                problems.append(f"{name}: identity kept or left out against cut")
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
                hidden += [plain(n.get("threadTitle")), plain((n.get("sender") or {}).get("name")),
                           (n.get("sender") or {}).get("avatar")]
        # What the tier may show: a hidden text found inside one of these is no leak (a random app name
        # holding the same emoji as a message's text).
        shown = [request.get("app") or ""] + [n.get("url") or "" for n in request.get("notifications") or []]
        if preview == "sender":
            for n in request.get("notifications") or []:
                shown += [plain(n.get("threadTitle")) or "", plain((n.get("sender") or {}).get("name")) or ""]
        for value in hidden:
            if not value or len(value) < 4 or any(value in allowed for allowed in shown):
                continue
            if value in text:
                problems.append(f"tier {preview} shows {value[:20]!r}")
    return problems
