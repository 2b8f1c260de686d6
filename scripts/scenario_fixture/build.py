"""The devices, the events and the expected notes the scenarios are written with, and the list the
sections add their cases to (scripts/gen-scenario-fixture.py lays it out)."""
PHONE = {"id": "phone", "transport": "apns", "token": "a1b2c3d4" * 8, "topic": "chat.example.app"}
TABLET = {"id": "tablet", "transport": "fcm", "token": "f" * 163}
LAPTOP = {"id": "laptop", "transport": "webpush", "token": "https://push.example/sub/1"}

CASES = []


def case(id, description, devices, steps, **extra):
    CASES.append(dict(id=id, description=description, devices=devices, **extra, steps=steps))


def create(id, thread="t1", sender=("ana", "Ana"), text=None, threadTitle="Design", type="message",
           source="chat", run=True, **fields):
    n = {"id": id, "source": source, "type": type}
    if thread is not None:
        n["thread"] = thread
    if threadTitle is not None:
        n["threadTitle"] = threadTitle
    if sender is not None:
        n["sender"] = {"id": sender[0], "name": sender[1]} if sender[1] else {"id": sender[0]}
    if text is not None:
        n["text"] = text
    n.update(fields)
    event = {"do": "create", "notification": n}
    if not run:
        event["run"] = False
    return event


def read(*keys, on=None, run=True):
    event = {"do": "read", "keys": list(keys)}
    if on:
        event["on"] = on
    if not run:
        event["run"] = False
    return event


def time(seconds):
    return {"do": "time", "seconds": seconds}


def note(group, kind, title, body, covers, subtitle=None, alert=True):
    return {"group": group, "kind": kind, "title": title, "subtitle": subtitle, "body": body,
            "covers": list(covers), "alert": alert}


def step(event, screen=None, screens=None, badge=None, badges=None, settle=True, limits=None, silent=None):
    s = {"event": event}
    if not settle:
        s["settle"] = False
    if screen is not None:
        s["screen"] = screen
    if screens is not None:
        s["screens"] = screens
    if badge is not None:
        s["badge"] = badge
    if badges is not None:
        s["badges"] = badges
    if limits is not None:
        s["limits"] = limits
    if silent is not None:
        s["silent"] = silent
    return s


FALLBACK_BODY = "There might be new activity on Buzz."

IPHONE_PLAIN = dict(PHONE, platform="ios-plain")


def delay(device, seconds, payload="any", count=1):
    return {"do": "delay", "device": device, "seconds": seconds, "payload": payload, "count": count}


def crash(at, count=1):
    return {"do": "crash", "at": at, "count": count}


def edit(key, run=True, **members):
    event = {"do": "edit", "key": key, **members}
    if not run:
        event["run"] = False
    return event


def active(seconds):
    return {"do": "active", "seconds": seconds}


# Notes that several sections expect.
single1 = note("t1", "single", "Ana", "Hello world", ["chat:1"], subtitle="Design")
summary2 = note("summary", "summary", "New activity on Buzz", "2 new notifications", ["chat:2", "chat:1"])
fallback_apns = note("fallback", "fallback", "Buzz", FALLBACK_BODY, [], alert=False)  # P9: a fallback is passive
fallback_other = note("fallback", "fallback", "Buzz", FALLBACK_BODY, [])
