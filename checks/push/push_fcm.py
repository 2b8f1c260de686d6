"""FCM messages through firebase-admin (PyPI), as a relay sends them: each `message` of an answer (the alert's and
the withdrawal's), given the device's token as the relay merges it (docs/relay.md), is built as firebase-admin's
`messaging.Message` and encoded by its encoder, which refuses what FCM's v1 API would (a data value that is not a
string, a priority other than normal and high, a negative ttl); the encoded message must be the service's, member
for member. A member the service writes that firebase-admin has no field for fails, as does a message with a data
value that is not a string: the check can fail.
"""
from __future__ import annotations

import json

from firebase_admin import _messaging_encoder, messaging

TOKEN = "f" * 163
ANDROID_MEMBERS = {"collapse_key", "priority", "ttl"}


def build(message):
    """firebase-admin's encoding of `message` with the token merged, or raises what it refuses."""
    unknown = set(message) - {"data", "android"} or set(message.get("android", {})) - ANDROID_MEMBERS
    if unknown:
        raise ValueError(f"members firebase-admin is not given here: {sorted(unknown)}")
    android = message.get("android")
    config = None
    if android is not None:
        ttl = android.get("ttl")
        if ttl is not None and not (ttl.endswith("s") and ttl[:-1].isdigit()):
            raise ValueError(f"ttl {ttl!r} is not whole seconds")
        config = messaging.AndroidConfig(collapse_key=android.get("collapse_key"), priority=android.get("priority"),
                                         ttl=None if ttl is None else int(ttl[:-1]))
    built = messaging.Message(data=message.get("data"), android=config, token=TOKEN)
    return _messaging_encoder.MessageEncoder().default(built)


def build_all(messages):
    """Each FCM message (parsed JSON) built and compared; True when every one is firebase-admin's own."""
    failed = 0
    for index, message in enumerate(messages):
        try:
            encoded = build(message)
        except (ValueError, TypeError) as error:
            failed += 1
            print(f"FAIL fcm message {index}: firebase-admin refuses it: {error}")
            continue
        if encoded != dict(message, token=TOKEN):
            failed += 1
            print(f"FAIL fcm message {index}: firebase-admin builds {json.dumps(encoded)[:300]}")
    try:
        build({"data": {"badge": 3}, "android": {"priority": "high", "ttl": "60s"}})
        refused = False
    except (ValueError, TypeError):
        refused = True
    if not refused:
        failed += 1
        print("FAIL a data value that is not a string is built: the check cannot fail")
    print(f"firebase-admin: {len(messages) - failed} of {len(messages)} FCM messages built as the service wrote them"
          f" (token merged); a non-string data value refused: {refused}")
    return failed == 0
