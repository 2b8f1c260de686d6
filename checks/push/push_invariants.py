"""What any answer of the push oracle must keep, whatever the exact rules: each payload fits its
transport, cuts fall on grapheme boundaries and are named, and a preview tier shows nothing it hides."""
import re

from push_fit import LIMITS, size, write
from push_terms import ELLIPSIS, graphemes, plain

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
                prefix, g = value[:-1], graphemes(uncut)
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
