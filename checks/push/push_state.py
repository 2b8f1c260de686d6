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
