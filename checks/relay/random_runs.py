"""Seeded random sequences of events for the relay check: random recipients and events (with
stress profiles: restarts and late withdrawals), each settled step checked, in one process or
several sharing the service."""
from __future__ import annotations

import json
import multiprocessing
import random

from relay import ComposeClient, Relay
from world import RECIPIENT, World

THREADS = ["t1", "t1", "t2", "t3", None, "caf\u00e9 chat"]
SENDERS = [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}, {"id": "cy", "name": "\u0645\u062d\u0645\u062f"},
           {"id": "dee"}, {"id": RECIPIENT, "name": "Me"}]
LOCALES = ["en", "de", "ar", "ja", "ru", "pt-PT", "he", "zh-Hant"]
TRANSPORTS = ["apns", "fcm", "webpush"]


def random_case(rng):
    devices = [{"id": f"d{i}", "transport": rng.choice(TRANSPORTS),
                "token": "tok" + "x" * rng.choice([8, 64, 163]) + str(i), "topic": "chat.example.app"}
               for i in range(rng.choice([1, 2, 2, 3]))]
    long_texts = rng.random() < 0.1
    return {"devices": devices, "fetchRead": rng.random() < 0.9, "maxAgeSeconds": rng.choice([600, 600, 600, 60, 5]),
            "maxUnits": 4096 if long_texts else 256, "longTexts": long_texts,
            "settings": {"locale": rng.choice(LOCALES), "preview": rng.choice(["full", "full", "sender", "none"])}}


# Each event's weight, and how often a step is left unsettled (the next event
# comes while retries and late deliveries are pending).
PROFILE = {"weights": {"create": 40, "read": 15, "read-here": 5, "time": 13, "fetch-fails": 5, "device-fails": 7,
                       "delay-withdrawals": 5, "restart": 3, "compose-unavailable": 2, "locale": 2.5,
                       "preview": 2, "device-gone": 0.5},
           "unsettled": 0.15}


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
        return {"do": "create", "notification": n, "ago": rng.choice([0, 0, 0, 1, 30])}
    if kind == "read":
        return {"do": "read", "keys": rng.sample(unread, rng.randint(1, len(unread)))}
    if kind == "read-here":
        notes = list(world.devices[device_id].shown.values())
        covered = [k for n in notes for k in n["covers"]]
        keys = sorted(set(covered) & set(unread)) or [rng.choice(unread)]
        return {"do": "read", "keys": keys, "on": device_id}
    if kind == "time":
        return {"do": "time", "seconds": rng.choice([1, 5, 30, 120, 400, 700])}
    if kind == "fetch-fails":
        return {"do": "fetch-fails", "count": rng.randint(1, 2), "as": rng.choice(["failed", "timeout"])}
    if kind == "device-fails":
        return {"do": "device-fails", "device": device_id, "count": rng.randint(1, 4)}
    if kind == "delay-withdrawals":
        return {"do": "delay-withdrawals", "device": device_id, "seconds": rng.choice([0.5, 3, 20])}
    if kind == "restart":
        return {"do": "restart"}
    if kind == "compose-unavailable":
        return {"do": "compose-unavailable", "count": rng.randint(1, 2)}
    if kind == "locale":
        return {"do": "settings", "locale": rng.choice(LOCALES)}
    if kind == "preview":
        return {"do": "settings", "preview": rng.choice(["full", "sender", "none"])}
    return {"do": "device-gone", "device": device_id}


def profile(unsettled=PROFILE["unsettled"], **weights):
    return {"weights": dict(PROFILE["weights"], **weights), "unsettled": unsettled}


RESTARTS = profile(0.6, restart=15, **{"device-fails": 20})  # restarts while retries are pending
LATE_WITHDRAWALS = profile(0.6, **{"delay-withdrawals": 25})  # withdrawals delivered after later alerts


def profile_for(index):
    """One sequence in ten of each stress profile, the rest of the default."""
    return {8: RESTARTS, 9: LATE_WITHDRAWALS}.get(index % 10, PROFILE)


def run_sequence(compose, seed, index, relay_class=Relay, app_checks_sent_at=True, profile=PROFILE):
    """One random sequence; every settled step is checked, and the end.
    Returns (steps, checked steps, violations, the events)."""
    rng = random.Random(f"{seed}:{index}")
    case = random_case(rng)
    world = World(case, compose, seed=rng.randrange(1 << 30), relay_class=relay_class,
                  app_checks_sent_at=app_checks_sent_at)
    history, checked, length = [], 0, rng.randint(4, 14)
    for step in range(1, length + 1):
        event = random_event(rng, world, case, profile)
        history.append(event)
        world.apply(event)
        if step < length and rng.random() < profile["unsettled"] and event["do"] in ("create", "read", "device-fails"):
            continue  # not settled: the next event comes while retries are pending
        world.settle()
        world.check()
        checked += 1
        if world.violations:
            break
    return len(history), checked, world.violations, history


_worker = {}


def _run_chunk(job):
    host, port, seed, indices = job
    if "compose" not in _worker:
        _worker["compose"] = ComposeClient(host, port, None, None)
    return [(index, run_sequence(_worker["compose"], seed, index, profile=profile_for(index))) for index in indices]


def run_random(host, port, count, seed, jobs=1, compose=None, relay_class=Relay, app_checks_sent_at=True,
               until_caught=False, profile=None):
    totals = {"sequences": 0, "steps": 0, "checked": 0, "violations": 0, "rules": {}, "first": []}

    def add(index, result):
        steps, checked, violations, history = result
        totals["sequences"] += 1
        totals["steps"] += steps
        totals["checked"] += checked
        totals["violations"] += len(violations)
        for rule, _ in violations:
            totals["rules"][rule] = totals["rules"].get(rule, 0) + 1
        if violations and len(totals["first"]) < 3:
            totals["first"].append((index, history, violations))

    if jobs > 1:
        chunks = [(host, port, seed, list(range(i, count, jobs * 8))) for i in range(jobs * 8)]
        with multiprocessing.Pool(jobs) as pool:
            for results in pool.imap_unordered(_run_chunk, chunks):
                for index, result in results:
                    add(index, result)
        return totals
    for index in range(count):
        add(index, run_sequence(compose, seed, index, relay_class, app_checks_sent_at, profile or profile_for(index)))
        if until_caught and totals["violations"]:
            break
    return totals


def print_first(totals):
    for index, history, violations in totals["first"]:
        print(f"sequence {index}: {violations[:3]}")
        for event in history:
            print(f"    {json.dumps(event, ensure_ascii=False)[:200]}")
