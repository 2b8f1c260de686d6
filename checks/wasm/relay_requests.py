"""`POST /relay` requests for checks/wasm/check.py: every op of the relay's
core (docs/relay.md, "The core") on records the core itself wrote, and the
problems.

A relay's life is played through `answer` (the Python host's `NotificationRelay.relay`): a
recipient created with an event, three devices of the three transports
registered, messages created, read, edited and deleted, the recipient active
elsewhere and no longer, fetches that succeed, fail and are given up, each push
service's answers to the sends (accepted, gone, transient with and without
`Retry-After`, the 429 floors, a refused token, the relay's own mistake),
timers that fire before and after payloads expire, a settings change, a
read, an unregistration. Every request made on the way is kept, with the
record the core answered passed on to the next, as a relay does. Then the
problems: the hand-written ones of the relay tests (every kind of member
and value the core refuses, and what is not JSON), and the played requests
mutated at random (a member dropped, nulled, given another type, an
unknown member added, the text cut), each its own problem or answer.
"""

import copy
import datetime
import json
import random

from hosts import text

NOON_MS = 1_795_953_600_000  # 2026-11-29T12:00:00Z


def at(milliseconds):
    """An RFC 3339 date-time `milliseconds` after 1970, with its milliseconds when it has some."""
    seconds, millis = divmod(milliseconds, 1000)
    days, rest = divmod(seconds, 86400)
    moment = datetime.datetime(1970, 1, 1) + datetime.timedelta(days=days, seconds=rest)
    stamp = moment.strftime("%Y-%m-%dT%H:%M:%S")
    return f"{stamp}.{millis:03d}Z" if millis else f"{stamp}Z"


def message(identifier, thread, seconds_ago, now_ms, text_="Hello"):
    return {"id": identifier, "source": "chat", "type": "message", "timestamp": at(now_ms - seconds_ago * 1000),
            "thread": thread, "threadTitle": "Design", "sender": {"id": "ana", "name": "Ana"}, "text": text_}


DEVICES = [
    {"id": "phone", "transport": "apns", "token": "a1b2c3d4" * 8, "topic": "chat.example.app"},
    {"id": "android", "transport": "fcm", "token": "fcm-token-0123456789"},
    {"id": "laptop", "transport": "webpush", "token": "https://push.example/sub/1"},
]

# What push services answer (docs/relay.md, "What each push service answers"), per transport.
PUSH_ANSWERS = {
    "apns": [{"status": 200}, {"status": 429, "reason": "TooManyRequests"}, {"status": 500},
             {"status": 403, "reason": "ExpiredProviderToken"}, {"status": 400, "reason": "BadTopic"},
             {"status": 429, "reason": "TooManyProviderTokenUpdates", "retryAfter": 5}, {"status": 0},
             {"status": 400, "reason": "BadDeviceToken"}, {"status": 410, "reason": "Unregistered"}],
    "fcm": [{"status": 200}, {"status": 429}, {"status": 429, "retryAfter": 30}, {"status": 503},
            {"status": 403, "reason": "PERMISSION_DENIED"}, {"status": 400, "reason": "INVALID_ARGUMENT"},
            {"status": 403, "reason": "SENDER_ID_MISMATCH"}, {"status": 400, "tokenInvalid": True},
            {"status": 404, "reason": "UNREGISTERED"}],
    "webpush": [{"status": 201}, {"status": 429}, {"status": 502}, {"status": 413}, {"status": 404}],
}


def play(answer, rng, lives):
    """The requests of `lives` relay lives, each answered by `answer(request text) -> (status, body)`."""
    requests = []

    def call(request):
        line = text(request)
        requests.append(line)
        status, body = answer(line)
        return json.loads(body) if status == 200 else None

    for life in range(lives):
        now = NOON_MS + life * 3_600_000
        settings = {"locale": rng.choice(["en", "de", "ar", "ja", "fr", "sw"]), "preview": rng.choice(["full", "sender", "none"])}
        if rng.random() < 0.5:
            settings["androidChannel"] = "messages"
        if rng.random() < 0.3:
            settings |= {"maxAgeSeconds": rng.choice([60, 600, 86400]), "maxUnits": rng.choice([256, 1000])}
        if rng.random() < 0.3:
            settings["app"] = "Chat"
        if rng.random() < 0.3:
            settings["alertWindowSeconds"] = rng.choice([0, 60, 300])
        result = call({"do": "event", "record": None, "now": at(now), "recipient": f"u{life}", "settings": settings,
                       "event": {"type": "created"}})
        record = result["record"]
        for device in rng.sample(DEVICES, rng.randint(1, 3)):
            now += rng.randint(0, 2000)
            record = call({"do": "event", "record": record, "now": at(now),
                           "event": {"type": "register", "device": device}})["record"]
        pending = []
        for step in range(rng.randint(6, 14)):
            now += rng.choice([0, 7, 400, 1500, 30_000, 400_000])
            roll = rng.random()
            if roll < 0.35:
                if rng.random() < 0.3 and pending:
                    pending.pop(0)
                    call({"do": "event", "record": record, "now": at(now), "event": {"type": "read"}})
                elif rng.random() < 0.2 and pending:
                    edited = rng.randrange(len(pending))
                    if rng.random() < 0.5:
                        pending[edited] = dict(pending[edited], text="(edited) " + pending[edited]["text"])
                        call({"do": "event", "record": record, "now": at(now), "event": {"type": "edited"}})
                    else:
                        pending.pop(edited)
                        call({"do": "event", "record": record, "now": at(now), "event": {"type": "deleted"}})
                elif rng.random() < 0.15:
                    until = at(now + rng.choice([20_000, 200_000])) if rng.random() < 0.7 else None
                    call({"do": "event", "record": record, "now": at(now), "event": {"type": "active", "until": until}})
                else:
                    pending.append(message(f"m{life}-{step}", rng.choice(["t1", "t2", "t3"]), rng.randint(0, 120), now,
                                           rng.choice(["Hello", "**Ready?**", "مرحبا", "x" * 300])))
                    call({"do": "event", "record": record, "now": at(now), "event": {"type": "created"}})
                fetch = rng.choices(["ok", "failed", "timeout", "gave-up"], [6, 1, 1, 1])[0]
                if fetch == "gave-up":
                    result = call({"do": "gave-up", "record": record, "now": at(now), "jitter": rng.random()})
                elif fetch == "ok":
                    result = call({"do": "loop", "record": record, "now": at(now), "fetch": "ok",
                                   "notifications": pending[-6:], "unread": len(pending),
                                   "jitter": round(rng.random(), 6)})
                else:
                    result = call({"do": "loop", "record": record, "now": at(now), "fetch": fetch})
            elif roll < 0.75:
                devices = [d for d in record["devices"] if d["outbox"]]
                if not devices:
                    result = call({"do": "wake", "record": record, "now": at(now)})
                else:
                    device = rng.choice(devices)
                    # Accepted half the time, as push services mostly answer.
                    replies = PUSH_ANSWERS[device["transport"]]
                    reply = dict(replies[0] if rng.random() < 0.5 else rng.choice(replies))
                    result = call({"do": "answer", "record": record, "now": at(now), "device": device["id"],
                                   "stamp": device["outbox"][0]["stamp"], **reply,
                                   **({"jitter": rng.random()} if rng.random() < 0.5 else {})})
            elif roll < 0.85:
                result = call({"do": "wake", "record": record, "now": at(now)})
            elif roll < 0.93:
                change = rng.choice([{"preview": "none"}, {"locale": "de"}, {"maxUnits": 80}, {"maxUnits": 300},
                                     {"androidChannel": "alerts", "maxAgeSeconds": 120}, {"alertWindowSeconds": 0}])
                result = call({"do": "event", "record": record, "now": at(now), "event": {"type": "settings", **change}})
            else:
                device = rng.choice(DEVICES)
                kind = rng.choice(["unregister", "register"])
                event = {"type": kind, "device": device["id"] if kind == "unregister" else device}
                result = call({"do": "event", "record": record, "now": at(now), "event": event})
            if result is not None and "record" in result:
                record = result["record"]
    return requests


def problem_requests(record):
    """Requests the core refuses, one for each kind of problem it gives."""
    r = text(record)
    noon = at(NOON_MS)
    lines = [
        "", "nope", "[]", "{", '"do"', "{}", '{"do":null}', '{"do":1}', '{"do":"sleep"}', '{"do":"wake"}',
        '{"do":"wake","record":' + r + "}",
        '{"do":"wake","record":' + r + ',"now":"noon"}',
        '{"do":"wake","record":' + r + ',"now":"2026-11-29T12:00:00Z","extra":1}',
        '{"do":"wake","record":[],"now":"' + noon + '"}',
        '{"do":"wake","record":{"recipient":"u1"},"now":"' + noon + '"}',
        '{"do":"wake","record":{"recipient":"u1","settings":{"locale":"en","preview":"all"}},"now":"' + noon + '"}',
        '{"do":"wake","record":{"recipient":"u1","settings":{"locale":"en","preview":"full"},"stamp":"1"},"now":"'
        + noon + '"}',
        '{"do":"wake","record":{"recipient":"u1","settings":{"locale":"en","preview":"full"},"stamp":1.5},"now":"'
        + noon + '"}',
        '{"do":"wake","record":{"recipient":"u1","settings":{"locale":"en","preview":"full"},"due":{"at":1,"x":2}},'
        '"now":"' + noon + '"}',
        '{"do":"wake","record":{"recipient":"u1","settings":{"locale":"en","preview":"full"},"devices":[{"id":"a",'
        '"transport":"apns","token":"t"}]},"now":"' + noon + '"}',
        '{"do":"wake","record":{"recipient":"u1","settings":{"locale":"en","preview":"full"},"devices":[{"id":"a",'
        '"transport":"fcm","token":"t"},{"id":"a","transport":"fcm","token":"u"}]},"now":"' + noon + '"}',
        '{"do":"wake","record":{"recipient":"u1","settings":{"locale":"en","preview":"full"},"devices":[{"id":"a",'
        '"transport":"sms","token":"t"}]},"now":"' + noon + '"}',
        '{"do":"wake","record":{"recipient":"u1","settings":{"locale":"en","preview":"full"},"devices":[{"id":"a",'
        '"transport":"fcm","token":"t","outbox":[{"stamp":1,"kind":"alert","group":"t1","end":5}]}]},"now":"'
        + noon + '"}',
        '{"do":"wake","record":{"recipient":"u1","settings":{"locale":"en","preview":"full","androidChannel":""}},'
        '"now":"' + noon + '"}',
        '{"do":"wake","record":{"recipient":"u1","settings":{"locale":"en","preview":"full","maxUnits":0}},"now":"'
        + noon + '"}',
        '{"do":"gave-up","record":' + r + ',"now":"' + noon + '","jitter":2}',
        '{"do":"gave-up","record":' + r + ',"now":"' + noon + '","jitter":"1"}',
        '{"do":"gave-up","record":' + r + ',"now":"' + noon + '","jitter":1e-7}',
        '{"do":"loop","record":' + r + ',"now":"' + noon + '","fetch":"ok","notifications":[]}',
        '{"do":"loop","record":' + r + ',"now":"' + noon + '","fetch":"failed","unread":1}',
        '{"do":"loop","record":' + r + ',"now":"' + noon + '","fetch":"failed","notifications":[]}',
        '{"do":"loop","record":' + r + ',"now":"' + noon + '","fetch":"maybe"}',
        '{"do":"loop","record":' + r + ',"now":"' + noon + '"}',
        '{"do":"loop","record":' + r + ',"now":"' + noon + '","fetch":"ok","unread":0,'
        '"notifications":[{"id":"1","type":"message"}]}',
        '{"do":"loop","record":' + r + ',"now":"' + noon + '","fetch":"ok","unread":-1,"notifications":[]}',
        '{"do":"loop","record":{"recipient":"u1","settings":{"locale":"12","preview":"full"}},"now":"' + noon
        + '","fetch":"failed"}',
        '{"do":"event","record":null,"now":"' + noon + '","recipient":"u1","event":{"type":"read"}}',
        '{"do":"event","record":null,"now":"' + noon + '","settings":{"locale":"en","preview":"full"},'
        '"event":{"type":"read"}}',
        '{"do":"event","record":' + r + ',"now":"' + noon + '","settings":{"locale":"en","preview":"full"},'
        '"event":{"type":"read"}}',
        '{"do":"event","record":' + r + ',"now":"' + noon + '","event":{"type":"read","colour":1}}',
        '{"do":"event","record":' + r + ',"now":"' + noon + '","event":{"type":"read","device":"a"}}',
        '{"do":"event","record":' + r + ',"now":"' + noon + '","event":{"type":"settings","device":"a"}}',
        '{"do":"event","record":' + r + ',"now":"' + noon + '","event":{"type":"deleted","id":"1"}}',
        '{"do":"event","record":' + r + ',"now":"' + noon + '","event":{"type":"active"}}',
        '{"do":"event","record":' + r + ',"now":"' + noon + '","event":{"type":"active","until":"soon"}}',
        '{"do":"event","record":' + r + ',"now":"' + noon + '","event":{"type":"active","until":5}}',
        '{"do":"event","record":' + r + ',"now":"' + noon + '","event":{"type":"settings","alertWindowSeconds":-1}}',
        '{"do":"event","record":' + r + ',"now":"' + noon + '","event":{}}',
        '{"do":"event","record":' + r + ',"now":"' + noon + '","event":{"type":"register"}}',
        '{"do":"event","record":' + r + ',"now":"' + noon + '","event":{"type":"register","device":{"id":"x",'
        '"transport":"apns","token":"t","badge":1}}}',
        '{"do":"event","record":' + r + ',"now":"' + noon + '","event":{"type":"unregister","device":1}}',
        '{"do":"event","record":' + r + ',"now":"' + noon + '","event":{"type":"settings","androidChannel":"a\\u0001"}}',
        '{"do":"event","record":' + r + ',"now":"' + noon + '","event":{"type":"settings","maxAgeSeconds":-5}}',
        '{"do":"answer","record":' + r + ',"now":"' + noon + '","device":"phone","stamp":1}',
        '{"do":"answer","record":' + r + ',"now":"' + noon + '","device":"phone","stamp":1,"status":1000}',
        '{"do":"answer","record":' + r + ',"now":"' + noon + '","device":"phone","status":200}',
        '{"do":"answer","record":' + r + ',"now":"' + noon + '","stamp":1,"status":200}',
        '{"do":"answer","record":' + r + ',"now":"' + noon + '","device":"phone","stamp":1,"status":429,'
        '"retryAfter":-1}',
        '{"do":"answer","record":' + r + ',"now":"' + noon + '","device":"phone","stamp":1,"status":400,'
        '"tokenInvalid":"yes"}',
        '{"do":"answer","record":' + r + ',"now":"' + noon + '","device":"gone","stamp":1,"status":200}',
    ]
    return lines


def mutated(rng, line):
    """`line` (a request the core answered) with one thing changed at random."""
    if rng.random() < 0.05:
        return line[: rng.randrange(len(line))]
    request = json.loads(line)
    objects = []

    def walk(value):
        if isinstance(value, dict):
            objects.append(value)
            for member in value.values():
                walk(member)
        elif isinstance(value, list):
            for member in value:
                walk(member)

    walk(request)
    target = rng.choice(objects)
    if not target:
        target["surprise"] = 1
        return text(request)
    name = rng.choice(list(target))
    choice = rng.randrange(6)
    if choice == 0:
        del target[name]
    elif choice == 1:
        target[name] = None
    elif choice == 2:
        target[name] = rng.choice([True, 1.5, -1, 2**63, "x", [], {}, "2026-11-29T12:00:00Z", 10**16])
    elif choice == 3:
        target[name + "s"] = copy.deepcopy(target[name])
    elif choice == 4 and isinstance(target[name], int) and not isinstance(target[name], bool):
        target[name] = target[name] + rng.choice([-10**15, -1, 1, 10**15])
    else:
        target[name] = rng.choice(["ok", "alert", "withdrawal", "apns", "fcm", "webpush", "register", ""])
    return text(request)


def relay_requests(answer, seed, lives, mutations):
    """The played requests, the problems and `mutations` mutated requests."""
    rng = random.Random(seed)
    played = play(answer, rng, lives)
    records = [json.loads(line)["record"] for line in played if json.loads(line).get("record")]
    full = max(records, key=lambda record: len(record["devices"]) * 100 + len(text(record)))
    return played + problem_requests(full) + [mutated(rng, rng.choice(played)) for _ in range(mutations)]
