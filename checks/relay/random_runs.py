"""Seeded random sequences of events for the relay check, in the realistic model: latency 0-2 s on
every payload (so payloads reorder), offline periods with each push service's store-and-forward,
the relay crashing at every crash point, requests that time out after the push service accepted
them (duplicates), iOS's throttled background pushes and force-quit apps, Android's update rate,
two or three devices of mixed platforms. Every settled step is checked; in one process or several
sharing the service."""
from __future__ import annotations

import json
import multiprocessing
import random

from relay import CRASH_POINTS, CoreTap, core_for
from world import RECIPIENT, World

THREADS = ["t1", "t1", "t2", "t3", None, "caf\u00e9 chat"]
SENDERS = [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}, {"id": "cy", "name": "\u0645\u062d\u0645\u062f"},
           {"id": "dee"}, {"id": RECIPIENT, "name": "Me"}]
LOCALES = ["en", "de", "ar", "ja", "ru", "pt-PT", "he", "zh-Hant"]
TRANSPORTS = ["apns", "fcm", "webpush"]

# The realistic network and relay (world.py): every sequence has them.
REALISTIC = {"latency": [0, 2], "duplicates": 0.03, "crashes": 0.015, "throttle": [0.03, 0.3]}
PLAIN_IOS = 0.2  # the share of APNs devices without the filtering entitlement (ios-plain)


def random_device(rng, index, transport=None):
    transport = transport or rng.choice(TRANSPORTS)
    d = {"id": f"d{index}", "transport": transport, "token": "tok" + "x" * rng.choice([8, 64, 163]) + str(index),
         "topic": "chat.example.app"}
    if transport == "apns":
        d["platform"] = "ios-plain" if rng.random() < PLAIN_IOS else "ios-filter"
    return d


def random_case(rng, realistic=REALISTIC):
    count = rng.choice([2, 2, 3])
    devices = [random_device(rng, i) for i in range(count)]
    long_texts = rng.random() < 0.1
    case = {"devices": devices, "fetchRead": rng.random() < 0.9, "maxAgeSeconds": rng.choice([600, 600, 600, 60, 5]),
            "maxUnits": 4096 if long_texts else 256, "longTexts": long_texts,
            "settings": {"locale": rng.choice(LOCALES), "preview": rng.choice(["full", "full", "sender", "none"])}}
    case.update(realistic)
    return case


# Each event's weight, and how often a step is left unsettled (the next event
# comes while retries and deliveries are pending).
PROFILE = {"weights": {"create": 40, "read": 15, "read-here": 5, "time": 13, "fetch-fails": 5, "device-fails": 7,
                       "offline": 6, "restart": 2, "crash": 2, "device-timeouts": 2, "force-quit": 1.5,
                       "compose-unavailable": 2, "locale": 2.5, "preview": 2, "register": 1, "device-gone": 0.5,
                       "edit": 5, "delete": 2, "active": 2},
           "unsettled": 0.3}


def random_event(rng, world, case, profile=PROFILE):
    unread = [k for k, n in world.backend.notifications.items() if not n.get("read")]
    kinds, weights = zip(*profile["weights"].items())
    kind = rng.choices(kinds, weights)[0]
    device_id = rng.choice(sorted(world.devices))
    if kind == "create" or not unread and kind in ("read", "read-here"):
        thread = rng.choice(THREADS)
        n = {"sender": rng.choice(SENDERS)}
        if thread is not None:
            n.update(thread=thread, threadTitle=f"Title {thread}")
        if rng.random() < 0.15:
            n.update(type="edit", source="wiki", defaultText="Cleo edited Main Page")
        else:
            n["type"] = rng.choice(["message", "message", "mention", "reply"])
            if case["longTexts"]:
                n["text"] = "\u4e2d\u6587" * rng.randint(500, 2100) + " *end*"
            else:
                n["text"] = rng.choice(["Hello **world**", "see `code` 42", "ok", "3 of 4 done", ""])
        return {"do": "create", "notification": n, "ago": rng.choice(profile.get("ago", [0, 0, 0, 1, 30]))}
    if kind == "read":
        return {"do": "read", "keys": rng.sample(unread, rng.randint(1, len(unread)))}
    if kind in ("edit", "delete"):
        keys = sorted(world.backend.notifications)
        if not keys:
            return {"do": "time", "seconds": 1}
        key = rng.choice(keys)
        if kind == "delete":
            return {"do": "delete", "key": key}
        change = rng.choice(["text", "text", "type", "threadTitle", "senderName"])
        value = {"text": rng.choice(["(edited)", "Hello **again**", "ok", ""]),
                 "type": rng.choice(["message", "mention", "reply"]),
                 "threadTitle": rng.choice(["Renamed", "Title t1"]),
                 "senderName": rng.choice(["Ana B.", "Ben"])}[change]
        return {"do": "edit", "key": key, change: value}
    if kind == "active":
        return {"do": "active", "seconds": rng.choice([20, 60, 200])}
    if kind == "read-here":
        notes = list(world.devices[device_id].shown.values())
        covered = [k for n in notes for k in n["covers"]]
        keys = sorted(set(covered) & set(unread)) or [rng.choice(unread)]
        return {"do": "read", "keys": keys, "on": device_id}
    if kind == "time":
        return {"do": "time", "seconds": rng.choice([0.2, 1, 5, 30, 120, 400, 700])}
    if kind == "fetch-fails":
        return {"do": "fetch-fails", "count": rng.randint(1, 2), "as": rng.choice(["failed", "timeout"])}
    if kind == "device-fails":
        return {"do": "device-fails", "device": device_id, "count": rng.randint(1, 4)}
    if kind == "offline":
        return {"do": "offline", "device": device_id, "seconds": rng.choice([3, 20, 120, 900])}
    if kind == "restart":
        return {"do": "restart"}
    if kind == "crash":
        return {"do": "crash", "at": rng.choice(CRASH_POINTS)}
    if kind == "device-timeouts":
        return {"do": "device-timeouts", "device": device_id, "count": rng.randint(1, 2)}
    if kind == "force-quit":
        ios = sorted(d for d, device in world.devices.items() if device.transport == "apns")
        if ios:
            return {"do": "force-quit", "device": rng.choice(ios)}
        return {"do": "time", "seconds": 1}
    if kind == "compose-unavailable":
        return {"do": "compose-unavailable", "count": rng.randint(1, 2)}
    if kind == "locale":
        return {"do": "settings", "locale": rng.choice(LOCALES)}
    if kind == "preview":
        return {"do": "settings", "preview": rng.choice(["full", "sender", "none"])}
    if kind == "register":
        index = len(world.devices)
        if index >= 4:
            return {"do": "time", "seconds": 1}
        return {"do": "register", "device": random_device(rng, index)}
    return {"do": "device-gone", "device": device_id}


def profile(unsettled=PROFILE["unsettled"], ago=None, **weights):
    return {"weights": dict(PROFILE["weights"], **weights), "unsettled": unsettled,
            **({"ago": ago} if ago else {})}


RESTARTS = profile(0.6, restart=10, crash=15, **{"device-fails": 20})  # crashes while retries are pending
LATE = profile(0.6, offline=25, time=5)  # offline periods: payloads held and delivered late
STALE_BADGE = profile(0.5, ago=[0, 0, 1, 30, 700], **{"device-fails": 25, "read": 30})  # badge-only withdrawals
# waiting in outboxes, and messages that arrive stale (they count in the badge, show nothing)


def profile_for(index):
    """One sequence in ten of each stress profile, the rest of the default."""
    return {7: STALE_BADGE, 8: RESTARTS, 9: LATE}.get(index % 10, PROFILE)


def run_sequence(core, seed, index, tap=CoreTap, platforms=None, profile=PROFILE, realistic=REALISTIC):
    """One random sequence; every settled step is checked, and the end.
    Returns a dict of its figures, its violations and its events."""
    rng = random.Random(f"{seed}:{index}")
    case = random_case(rng, realistic)
    world = World(case, core, seed=rng.randrange(1 << 30), tap=tap, platforms=platforms)
    history, checked, length = [], 0, rng.randint(4, 16)
    for step in range(1, length + 1):
        event = random_event(rng, world, case, profile)
        history.append(event)
        world.apply(event)
        if step < length and rng.random() < profile["unsettled"] and event["do"] not in ("time",):
            continue  # not settled: the next event comes while retries and deliveries are pending
        world.settle()
        world.check()
        checked += 1
        if world.violations:
            break
    platforms_used = sorted({d.platform for d in world.devices.values()})
    return {"steps": len(history), "checked": checked, "violations": world.violations, "history": history,
            "limits": dict(world.limits), "limit-rules": world.limit_rules, "silent": world.silent_pushes(),
            "silent-withdrawals": world.silent_pushes("withdrawal"), "crashes": world.crashes,
            "platforms": platforms_used,
            "accepted": sum(e.accepted_count for e in world.endpoints.values())}


_worker = {}


def _run_chunk(job):
    door, seed, indices, realistic = job
    if "core" not in _worker:
        _worker["core"] = core_for(door)
    return [(index, run_sequence(_worker["core"], seed, index, profile=profile_for(index), realistic=realistic))
            for index in indices]


def new_totals():
    return {"sequences": 0, "steps": 0, "checked": 0, "violations": 0, "rules": {}, "first": [], "limits": {},
            "limit-rules": {},
            "silent": 0, "silent-withdrawals": 0, "crashes": 0, "accepted": 0, "devices": {}}


def add(totals, index, result):
    totals["sequences"] += 1
    for name in ("steps", "checked", "silent", "silent-withdrawals", "crashes", "accepted"):
        totals[name] += result[name]
    totals["violations"] += len(result["violations"])
    for rule, _ in result["violations"]:
        totals["rules"][rule] = totals["rules"].get(rule, 0) + 1
    for label, count in result["limits"].items():
        totals["limits"][label] = totals["limits"].get(label, 0) + count
    for label, rules in result["limit-rules"].items():
        for rule, count in rules.items():
            totals["limit-rules"].setdefault(label, {})[rule] = totals["limit-rules"].get(label, {}).get(rule, 0) + count
    for platform in result["platforms"]:
        totals["devices"][platform] = totals["devices"].get(platform, 0) + 1
    if result["violations"] and len(totals["first"]) < 3:
        totals["first"].append((index, result["history"], result["violations"]))


def run_random(door, count, seed, jobs=1, core=None, tap=CoreTap, platforms=None,
               until_caught=False, profile=None, realistic=REALISTIC):
    """`count` sequences through the core at `door` (relay.core_for), in `jobs` processes."""
    totals = new_totals()
    if jobs > 1:
        chunks = [(door, seed, list(range(i, count, jobs * 8)), realistic) for i in range(jobs * 8)]
        with multiprocessing.Pool(jobs) as pool:
            for results in pool.imap_unordered(_run_chunk, chunks):
                for index, result in results:
                    add(totals, index, result)
        return totals
    for index in range(count):
        add(totals, index, run_sequence(core, seed, index, tap, platforms, profile or profile_for(index),
                                        realistic))
        if until_caught and totals["violations"]:
            break
    return totals


def print_first(totals):
    for index, history, violations in totals["first"]:
        print(f"sequence {index}: {violations[:3]}")
        for event in history:
            print(f"    {json.dumps(event, ensure_ascii=False)[:200]}")


def print_limits(totals):
    """The measured limits: the devices each left with a broken invariant that no rule can mend."""
    limits = ", ".join(f"{label} {n}" for label, n in sorted(totals["limits"].items())) or "none"
    seen = ", ".join(f"{p} {n}" for p, n in sorted(totals["devices"].items()))
    print(f"random: measured platform limits (devices left wrong, their shadow right): {limits}")
    rules = "; ".join(f"{label}: " + ", ".join(f"{rule} {n}" for rule, n in sorted(r.items()))
                      for label, r in sorted(totals["limit-rules"].items()))
    print(f"random: the invariants they broke (settled checks): {rules or 'none'}")
    print(f"random: Web pushes that left the origin showing nothing (Safari's user-visible rule,"
          f" Chrome's generic notification): {totals['silent']}, {totals['silent-withdrawals']} of them withdrawals;"
          f" relay crashes {totals['crashes']};"
          f" payloads accepted {totals['accepted']}; sequences with each platform: {seen}")
