"""docs/spec/compose.md C10 and S1 to S3 as the push oracle reads them: the next displayed
state, and whether an answer is sent, alerts and withdraws other groups."""
from push_terms import key_of, unix

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


DIRECT = ("mention", "reply")


def text_digest(note):
    """C15: FNV-1a 64 over title, subtitle, body and url (0x00 for null; 0x01, the UTF-8 length in 4 bytes
    big-endian and the UTF-8 for a string), as 16 lower-case hex digits."""
    h = 0xcbf29ce484222325
    data = bytearray()
    for member in ("title", "subtitle", "body", "url"):
        value = note[member]
        if value is None:
            data.append(0)
        else:
            utf8 = value.encode("utf-8")
            data += b"\x01" + len(utf8).to_bytes(4, "big") + utf8
    for byte in data:
        h = ((h ^ byte) * 0x100000001b3) % (1 << 64)
    return f"{h:016x}"


def active_until(request):
    """S6: push.activeUntil when its instant is later than now, else None."""
    until = (request.get("push") or {}).get("activeUntil")
    return until if until is not None and unix(until) > unix(request["now"]) else None


def transition(request, base, group, note):
    """S1 to S3 and S6: (send, alert, withdraw, heldUntil)."""
    d = state_d(request)
    until = active_until(request)
    if (request.get("fetch") or "ok") != "ok":
        on_screen = any(e.get("key") is None and e.get("group") == "fallback" for e in d)
        if not on_screen and until is not None:
            return False, False, [], until
        return not on_screen, not on_screen, [], None
    shown = base["shown"]
    g = group if shown else None
    withdraw = []
    for e in d:
        if e.get("group") is not None and e["group"] != g and e["group"] not in withdraw:
            withdraw.append(e["group"])
    if not shown:
        return False, False, withdraw, None
    under_g = [e for e in d if e.get("group") == g]
    entry_of = {e["key"]: e for e in d if e.get("key") is not None}
    by_key = {}
    for n in request.get("notifications") or []:
        by_key.setdefault(key_of(n), n)
    direct = {k for k in shown if by_key[k]["type"] in DIRECT}
    same = all(e.get("key") in shown for e in under_g) and all(
        k in entry_of and entry_of[k].get("group") == g for k in shown)

    def importance(k):
        return by_key[k].get("importance") or "normal"

    # S3 (compose.md C16): a low notification alerts for nothing; a high one whatever the window.
    new_key = any(k not in entry_of and importance(k) != "low" for k in shown)
    new_high = any(k not in entry_of and importance(k) == "high" for k in shown)
    new_direct = any(k not in entry_of and importance(k) != "low" for k in direct)
    made_direct = any(k in entry_of and entry_of[k].get("direct") is False for k in direct)
    made_direct_alerts = any(k in entry_of and entry_of[k].get("direct") is False and importance(k) != "low"
                             for k in direct)
    window = (request.get("push") or {}).get("alertWindowSeconds")
    window = 60 if window is None else window
    alerted = [unix(e["alerted"]) for e in under_g if e.get("alerted") is not None]
    in_window = window > 0 and bool(alerted) and max(alerted) > unix(request["now"]) - window
    alert = new_direct or made_direct_alerts or new_high or (new_key and not in_window)
    if alert and until is not None:
        return False, False, [], until
    digests = {e["digest"] for e in under_g if e.get("digest") is not None}
    send = not same or made_direct or bool(digests - {text_digest(note)})
    return send, alert, withdraw, None


def next_state_with_push(request, base, group, note, transition_result):
    """C10 with `push`: every entry with its six members (digest, alerted and direct after key, timestamp, group)."""
    send, alert, withdraw, held_until = transition_result
    fetch = request.get("fetch") or "ok"
    d = state_d(request)

    def carried(e):
        return {"key": e.get("key"), "timestamp": e["timestamp"], "group": e.get("group"),
                "digest": e.get("digest"), "alerted": e.get("alerted"), "direct": e.get("direct")}

    if fetch != "ok" or held_until is not None:
        entries = [carried(e) for e in d]
        has_fallback = any(e.get("key") is None and e.get("group") == "fallback" for e in d)
        if fetch != "ok" and not has_fallback and held_until is None:
            entries.append({"key": None, "timestamp": request["now"], "group": "fallback",
                            "digest": text_digest(note), "alerted": request["now"], "direct": False})
        return sorted(entries, key=state_order)[:1000]
    if not base["shown"]:
        return []
    latest = None
    for e in d:
        if e.get("group") == group and e.get("alerted") is not None:
            if latest is None or unix(e["alerted"]) > unix(latest):
                latest = e["alerted"]
    by_key = {}
    for n in request.get("notifications") or []:
        by_key.setdefault(key_of(n), n)
    return [{"key": k, "timestamp": by_key[k]["timestamp"], "group": group, "digest": text_digest(note),
             "alerted": request["now"] if alert else latest, "direct": by_key[k]["type"] in DIRECT}
            for k in base["shown"]][:1000]
