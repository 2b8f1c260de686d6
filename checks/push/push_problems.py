"""The problems docs/spec/compose.md 2.2 gives a compose request's `preview`, `push` and
displayed `key` and `group` members (C11, C13, C14), as the push oracle reads them."""
import re

from push_declarative import NAVIGATE_MAX_BYTES, navigable
from push_terms import is_group_key, is_timestamp

DIGEST = re.compile(r"[0-9a-f]{16}")

# MARK: compose.md 2.2 for preview and push (C11, C13)

def notification_problem(request):
    """The problem code compose.md 2.2 gives a notification's `importance`, `threadIsGroup` and
    `sender.avatar` (C16, push.md P24), or None."""
    for n in request.get("notifications") or []:
        for name, value in n.items():  # document order
            if value is None:
                continue
            if name == "importance":
                if not isinstance(value, str):
                    return "invalid-type"
                if value not in ("low", "normal", "high"):
                    return "invalid-value"
            elif name == "threadIsGroup" and not isinstance(value, bool):
                return "invalid-type"
            elif name == "sender" and isinstance(value, dict) and value.get("avatar") is not None:
                avatar = value["avatar"]
                if not isinstance(avatar, str):
                    return "invalid-type"
                if not 1 <= len(avatar.encode("utf-8")) <= NAVIGATE_MAX_BYTES or not navigable(avatar):
                    return "invalid-value"
    return None


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
            elif name == "digest" and value is not None:
                if not isinstance(value, str):
                    return "invalid-type"
                if not DIGEST.fullmatch(value):
                    return "invalid-value"
            elif name == "alerted" and value is not None:
                if not isinstance(value, str):
                    return "invalid-type"
                if not is_timestamp(value):
                    return "invalid-timestamp"
            elif name == "direct" and value is not None and not isinstance(value, bool):
                return "invalid-type"
        if entry.get("key") is None and entry.get("group") is None:
            return "missing-field"
    return None


def problem(request):
    """The problem code compose.md gives the request's `preview`, `push` and displayed `group` members, or None."""
    def integer(v):
        return isinstance(v, int) and not isinstance(v, bool)
    found = notification_problem(request) or displayed_problem(request)
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
        if name in ("badge", "reserveBytes", "stamp", "alertWindowSeconds"):
            if not integer(value):
                return "invalid-type"
            if not 0 <= value <= {"badge": 2147483647, "reserveBytes": 2048, "stamp": 2**53 - 1,
                                  "alertWindowSeconds": 86400}[name]:
                return "out-of-range"
        elif name == "activeUntil":
            if not isinstance(value, str):
                return "invalid-type"
            if not is_timestamp(value):
                return "invalid-timestamp"
        elif name == "webPush":
            if not isinstance(value, str):
                return "invalid-type"
            if value not in ("classic", "declarative"):
                return "invalid-value"
        elif name == "navigate":
            if not isinstance(value, str):
                return "invalid-type"
            if not 1 <= len(value.encode("utf-8")) <= NAVIGATE_MAX_BYTES or not navigable(value):
                return "invalid-value"
        elif name == "mutable":
            if not isinstance(value, bool):
                return "invalid-type"
        elif name == "androidChannel":
            if not isinstance(value, str):
                return "invalid-type"
            if not 1 <= len(value.encode("utf-8")) <= 128 or any(
                    ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in value):
                return "invalid-value"
    if push.get("webPush") == "declarative" and push.get("navigate") is None:
        return "missing-field"  # P23, when the push object ends
    return None
