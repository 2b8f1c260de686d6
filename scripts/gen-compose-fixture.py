#!/usr/bin/env python3
"""Writes test-fixtures/compose.json, the shared contract of POST /compose.

Every expected response below is written out by hand from
docs/spec/compose.md and docs/spec/body.md; nothing here runs the Swift
implementation. Python only builds repetitive inputs (long names, a thousand
displayed entries) and lays the JSON out, and applies C14 (the group key,
a thread's own text or its digest) to the thread identifier each expected
response already names. Run: python3 scripts/gen-compose-fixture.py
"""
import base64
import hashlib
import json
import os
from datetime import datetime, timedelta, timezone

from readable_json import readable

NOW = "2026-11-29T12:00:00Z"
NOW_DT = datetime(2026, 11, 29, 12, 0, 0, tzinfo=timezone.utc)
ELLIPSIS = "\u2026"


def at(seconds):
    """NOW shifted by whole seconds, written in UTC with Z."""
    return (NOW_DT + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%SZ")


def note(id, timestamp, type="message", **fields):
    n = {"id": id, "type": type, "timestamp": timestamp}
    if "sender_id" in fields or "name" in fields:
        sender = {}
        if "sender_id" in fields:
            sender["id"] = fields.pop("sender_id")
        if "name" in fields:
            sender["name"] = fields.pop("name")
        n["sender"] = sender
    n.update(fields)
    return n


def group_key(source):
    """compose.md C14: the source itself when it is 1 to 64 bytes of U+0021..U+007E other than '"' and '\\',
    else the first 24 bytes of its SHA-256 in base64url without padding."""
    utf8 = source.encode("utf-8")
    if 1 <= len(utf8) <= 64 and all(0x21 <= b <= 0x7E and b not in (0x22, 0x5C) for b in utf8):
        return source
    return base64.urlsafe_b64encode(hashlib.sha256(utf8).digest()[:24]).decode("ascii").rstrip("=")


def entry(key, timestamp, group=None, with_group=True):
    """A displayed entry; key None is an entry of a group alone (no key member in a request)."""
    e = {} if key is None else {"key": key}
    e["timestamp"] = timestamp
    if group is not None:
        e["group"] = group
    return e


def req(notifications=None, displayed=None, now=NOW, **fields):
    r = {"now": now}
    if notifications is not None:
        r["notifications"] = notifications
    if displayed is not None:
        # (key, timestamp) is an entry without group, as stored before groups; (key, timestamp, group) one with.
        r["displayed"] = [entry(*d) for d in displayed]
    r.update(fields)
    return r


def out_entry(key, timestamp, group):
    """An entry of a response's displayed: all three members, always (compose.md C10)."""
    return {"key": key, "timestamp": timestamp, "group": group}


def resp(kind, title, body, tid, subtitle=None, url=None, shown=(), dropped=(), displayed=(), reason=None,
         locale="en"):
    # compose.md C10 step 3: each kept key under the answer's group key, G of the thread identifier (C14).
    g = group_key(tid if tid is not None else "fallback")
    return {
        "kind": kind,
        "reason": reason,
        "notification": {"title": title, "subtitle": subtitle, "body": body, "threadIdentifier": tid, "url": url},
        "shown": list(shown),
        "dropped": [{"key": k, "reason": r} for k, r in dropped],
        "displayed": [out_entry(*d) if len(d) == 3 else out_entry(d[0], d[1], g) for d in displayed],
        "locale": locale,
        "direction": "rtl" if locale in ("ar", "he") else "ltr",  # compose.md C12: the catalog's direction
    }


def fallback(reason, app="Buzz", body=None, title=None, dropped=(), displayed=None, locale="en"):
    # displayed: (key, timestamp, group) triples, written as given (C10 steps 1 and 2); by default nothing for a
    # fallback empty, and the fallback entry at NOW for a failed or timed-out fetch without entries (C10 step 1).
    if displayed is None:
        displayed = [] if reason == "empty" else [(None, NOW, "fallback")]
    assert all(len(d) == 3 for d in displayed)
    return resp("fallback", title if title is not None else app,
                body if body is not None else f"There might be new activity on {app}.",
                None, dropped=dropped, displayed=displayed, reason=reason, locale=locale)


CASES = []


def case(id, description, request, response):
    assert all(c.islower() or c.isdigit() or c == "-" for c in id), id
    assert id not in [c["id"] for c in CASES], id
    CASES.append({"id": id, "description": description, "request": request, "response": response})


# ---------------------------------------------------------------- fallbacks
case("fallback-fetch-failed",
     "fetch failed: fallback with reason failed, app texts, nothing shown; the next state records the fallback "
     "notification at now (C10 step 1)",
     req(fetch="failed"),
     fallback("failed", displayed=[(None, NOW, "fallback")]))

case("fallback-fetch-timeout-ignores-notifications-and-keeps-displayed",
     "fetch timeout: notifications are not looked at, no drops; displayed is carried over whole (stale entries too: "
     "the device still shows them) and records the fallback at now (was: stale entries pruned, before C10 recorded "
     "the screen)",
     req([note("1", at(-10))], [("old", at(-601), "t1"), ("kept", at(-600), "t1")], fetch="timeout"),
     fallback("timeout", displayed=[(None, NOW, "fallback"), ("kept", at(-600), "t1"), ("old", at(-601), "t1")]))

case("fallback-empty-without-notifications",
     "fetch ok with no notifications: fallback with reason empty",
     req([]),
     fallback("empty"))

case("fallback-empty-when-everything-is-dropped",
     "every notification dropped: fallback empty, dropped lists them in input order",
     req([note("1", at(-10), read=True), note("2", at(-700))]),
     fallback("empty", dropped=[("1", "read"), ("2", "stale")]))

case("fallback-custom-app",
     "the request's app names the fallback",
     req([], app="Wikipedia"),
     fallback("empty", app="Wikipedia"))

case("app-empty-means-default",
     "an empty app is the server's default, Buzz",
     req([], app=""),
     fallback("empty"))

case("app-whitespace-is-normalised",
     "the app is plain text: whitespace runs become one space and the ends are trimmed, in the title and in the texts",
     req([], app="  My\t\u00a0Wiki\n"),
     fallback("empty", app="My Wiki"))

case("app-whitespace-only-means-default",
     "an app that normalises to empty counts as absent: Buzz",
     req([], app=" \u2003\n"),
     fallback("empty"))

LONG_APP = "a" * 300
case("app-long-is-capped-in-title-and-body",
     "a 300-unit app: the title is capped at 256 units, the fallback body at maxUnits (256)",
     req([], app=LONG_APP),
     fallback("empty", title="a" * 255 + ELLIPSIS,
              body="There might be new activity on " + "a" * 224 + ELLIPSIS))

case("app-long-fallback-body-fits-a-larger-cap",
     "with maxUnits 4096 the 332-unit fallback body is whole; the title is still capped at 256",
     req([], app=LONG_APP, maxUnits=4096),
     fallback("empty", title="a" * 255 + ELLIPSIS,
              body="There might be new activity on " + "a" * 300 + "."))

# ---------------------------------------------------------------- drops
case("drop-duplicate-key-keeps-the-first",
     "a key seen earlier in the request is a duplicate; the first one is shown",
     req([note("1", at(-10), text="first"), note("1", at(-5), text="second")]),
     resp("single", "Buzz", "first", "1", shown=["1"], dropped=[("1", "duplicate")],
          displayed=[("1", at(-10))]))

case("drop-duplicate-counts-dropped-earlier-keys",
     "a key is a duplicate even when its earlier occurrence was dropped for another reason",
     req([note("1", at(-10), read=True), note("1", at(-5))]),
     fallback("empty", dropped=[("1", "read"), ("1", "duplicate")]))

case("drop-read",
     "a read notification is dropped",
     req([note("1", at(-10), read=True, text="x"), note("2", at(-20), read=False, text="Hi")]),
     resp("single", "Buzz", "Hi", "2", shown=["2"], dropped=[("1", "read")], displayed=[("2", at(-20))]))

case("drop-own",
     "a notification whose sender.id equals recipient is the recipient's own",
     req([note("1", at(-10), sender_id="me", name="Me", text="mine"),
          note("2", at(-20), sender_id="ana", name="Ana", text="Hi")], recipient="me"),
     resp("single", "Ana", "Hi", "2", shown=["2"], dropped=[("1", "own")], displayed=[("2", at(-20))]))

case("own-needs-a-recipient",
     "without recipient nothing is own",
     req([note("1", at(-10), sender_id="me", name="Me", text="mine")]),
     resp("single", "Me", "mine", "1", shown=["1"], displayed=[("1", at(-10))]))

case("own-needs-a-sender-id",
     "a sender without id is never the recipient",
     req([note("1", at(-10), name="Me", text="mine")], recipient="me"),
     resp("single", "Me", "mine", "1", shown=["1"], displayed=[("1", at(-10))]))

case("drop-precedence",
     "each notification gets the first reason that applies: duplicate, read, own, stale, future (the displayed "
     "reason and its notification d are gone: a key in displayed is kept when unread, C2); the next state is the "
     "shown key alone, the entries s and f leave it",
     req([note("k", at(-10)),
          note("k", at(-700), read=True, sender_id="me"),
          note("r", at(-700), read=True, sender_id="me"),
          note("o", at(-700), sender_id="me"),
          note("s", at(-700)),
          note("f", at(400))],
         [("s", at(-30), "s"), ("f", at(-30), "s")], recipient="me"),
     resp("single", "Buzz", "New message", "k", shown=["k"],
          dropped=[("k", "duplicate"), ("r", "read"), ("o", "own"), ("s", "stale"), ("f", "future")],
          displayed=[("k", at(-10))]))

case("displayed-and-unread-is-kept",
     "a key in displayed that is still unread is kept and shown again: message 2 joins message 1, which the device "
     "shows under t1, in a bundle of 2 that replaces it (was: 1 dropped as displayed, and the single of 2 replaced "
     "it: message 1 vanished unread)",
     req([note("1", at(-10), thread="t1"), note("2", at(-20), thread="t1", text="new")], [("1", at(-10), "t1")]),
     resp("bundle", "Buzz", "2 new messages", "t1", shown=["1", "2"], displayed=[("1", at(-10)), ("2", at(-20))]))

case("displayed-stale-entry-of-an-unread-key",
     "an entry's own time does not matter: the unread, fresh notification is kept, and the next state records it "
     "with its own timestamp (was: dropped as displayed)",
     req([note("1", at(-10))], [("1", at(-601))]),
     resp("single", "Buzz", "New message", "1", shown=["1"], displayed=[("1", at(-10))]))

# ---------------------------------------------------------------- time boundaries
case("stale-boundary-exactly-max-age-is-fresh",
     "now - timestamp == maxAgeSeconds is fresh; one second more is stale",
     req([note("old", at(-601)), note("edge", at(-600))]),
     resp("single", "Buzz", "New message", "edge", shown=["edge"], dropped=[("old", "stale")],
          displayed=[("edge", at(-600))]))

case("stale-boundary-fractional-seconds",
     "fractions count: 600 s is fresh, 600.000000001 s is stale",
     req([note("a", "2026-11-29T11:49:59.999999999Z"), note("b", "2026-11-29T11:50:00.000000000Z")]),
     resp("single", "Buzz", "New message", "b", shown=["b"], dropped=[("a", "stale")],
          displayed=[("b", "2026-11-29T11:50:00.000000000Z")]))

case("stale-boundary-with-offsets",
     "offsets are applied before comparing: 13:50+02:00 is exactly 600 s old, 06:49:59-05:00 is 601 s old",
     req([note("east", "2026-11-29T13:50:00+02:00"), note("west", "2026-11-29T06:49:59-05:00")]),
     resp("single", "Buzz", "New message", "east", shown=["east"], dropped=[("west", "stale")],
          displayed=[("east", "2026-11-29T13:50:00+02:00")]))

case("future-boundary-300-seconds-is-fresh",
     "timestamp - now == 300 s is fresh; 301 s is future",
     req([note("ahead", at(300)), note("skewed", at(301))]),
     resp("single", "Buzz", "New message", "ahead", shown=["ahead"], dropped=[("skewed", "future")],
          displayed=[("ahead", at(300))]))

case("future-boundary-fractional-seconds",
     "300.000000001 s ahead is future, and so is 300.0000000001 s (any number of digits); 300.000000000000 s is fresh",
     req([note("ns", "2026-11-29T12:05:00.000000001Z"),
          note("sub-ns", "2026-11-29T12:05:00.0000000001Z"),
          note("zeros", "2026-11-29T12:05:00.000000000000Z")]),
     resp("single", "Buzz", "New message", "zeros", shown=["zeros"],
          dropped=[("ns", "future"), ("sub-ns", "future")],
          displayed=[("zeros", "2026-11-29T12:05:00.000000000000Z")]))

case("max-age-zero-with-fractional-now",
     "maxAgeSeconds 0: only times at or after now are fresh; now may have a fraction and an offset",
     req([note("before", "2026-11-29T12:00:00.499Z"), note("same", "2026-11-29T12:00:00.5Z")],
         now="2026-11-29T13:00:00.500+01:00", maxAgeSeconds=0),
     resp("single", "Buzz", "New message", "same", shown=["same"], dropped=[("before", "stale")],
          displayed=[("same", "2026-11-29T12:00:00.5Z")]))

case("max-age-one-day",
     "maxAgeSeconds 86400: a day old is fresh, a day and a second is stale",
     req([note("day", "2026-11-28T12:00:00Z"), note("older", "2026-11-28T11:59:59Z")], maxAgeSeconds=86400),
     resp("single", "Buzz", "New message", "day", shown=["day"], dropped=[("older", "stale")],
          displayed=[("day", "2026-11-28T12:00:00Z")]))

case("timestamps-lowercase-t-and-z-and-minus-zero-offset",
     "RFC 3339 allows lower-case t and z and the offset -00:00; they are echoed exactly as written",
     req([note("lower", "2026-11-29t11:59:00z"), note("unknown-offset", "2026-11-29T11:58:00-00:00")]),
     resp("summary", "New activity on Buzz", "2 new notifications", "summary",
          shown=["lower", "unknown-offset"],
          displayed=[("lower", "2026-11-29t11:59:00z"), ("unknown-offset", "2026-11-29T11:58:00-00:00")]))

case("timestamps-leap-second",
     "23:59:60 is accepted where RFC 3339 places a leap second, on the last day of a month in UTC (here once in Z "
     "and once through +01:00): the notification at 23:59:60Z is fresh and echoed as written; the displayed entry "
     "leaves the state (the next state is the shown key alone, C10)",
     req([note("leap", "2016-12-31T23:59:60Z", thread="t", text="Happy new year")],
         displayed=[("old", "2017-01-01T00:59:60.5+01:00", "t")], now="2017-01-01T00:00:30Z"),
     resp("single", "Buzz", "Happy new year", "t", shown=["leap"],
          displayed=[("leap", "2016-12-31T23:59:60Z")]))

case("timestamps-leap-second-orders-carried-over-entries",
     "a leap second denotes 00:00:00 of the next day plus its fraction: carried over by a failed fetch, the entry at "
     "00:59:60.5+01:00 is half a second newer than the one at 23:59:60Z, and the fallback entry at now is newest; "
     "all echoed as written",
     req(displayed=[("leap", "2016-12-31T23:59:60Z", "t"), ("old", "2017-01-01T00:59:60.5+01:00", "t")],
         now="2017-01-01T00:00:30Z", fetch="failed"),
     fallback("failed", displayed=[(None, "2017-01-01T00:00:30Z", "fallback"),
                                   ("old", "2017-01-01T00:59:60.5+01:00", "t"),
                                   ("leap", "2016-12-31T23:59:60Z", "t")]))

# ---------------------------------------------------------------- keys
case("key-is-source-colon-id",
     "the key is source:id; a notification without source has the key id, a different key: both are shown (was: "
     "wiki:7 in displayed and dropped as displayed, a reason that is gone)",
     req([note("7", at(-10), source="wiki"), note("7", at(-20))]),
     resp("summary", "New activity on Buzz", "2 new notifications", "summary", shown=["wiki:7", "7"],
          displayed=[("wiki:7", at(-10)), ("7", at(-20))]))

case("key-with-empty-source-is-the-id",
     "an empty source counts as no source: the key is the id (so it duplicates the sourceless one)",
     req([note("7", at(-10), source=""), note("7", at(-20))]),
     resp("single", "Buzz", "New message", "7", shown=["7"], dropped=[("7", "duplicate")],
          displayed=[("7", at(-10))]))

case("keys-canonically-equivalent-are-distinct",
     "keys compare by code points: caf\\u00e9 and cafe\\u0301 are two keys, not duplicates, both shown, "
     "cafe\\u0301 first (e < \\u00e9) (was: cafe\\u0301 in displayed and dropped as displayed, a reason that is gone)",
     req([note("caf\u00e9", at(-10)), note("cafe\u0301", at(-10))]),
     resp("summary", "New activity on Buzz", "2 new notifications", "summary", shown=["cafe\u0301", "caf\u00e9"],
          displayed=[("cafe\u0301", at(-10)), ("caf\u00e9", at(-10))]))

# ---------------------------------------------------------------- ordering
case("order-newest-first",
     "the rest is ordered newest first, whatever the input order",
     req([note("mid", at(-20)), note("new", at(-5)), note("old", at(-300))]),
     resp("summary", "New activity on Buzz", "3 new notifications", "summary",
          shown=["new", "mid", "old"],
          displayed=[("new", at(-5)), ("mid", at(-20)), ("old", at(-300))]))

case("order-equal-instants-by-key",
     "one instant written three ways is equal; ties are broken by key, ascending",
     req([note("b", "2026-11-29T11:59:00Z"), note("c", "2026-11-29T13:59:00.000+02:00"),
          note("a", "2026-11-29T11:59:00.0Z")]),
     resp("summary", "New activity on Buzz", "3 new notifications", "summary",
          shown=["a", "b", "c"],
          displayed=[("a", "2026-11-29T11:59:00.0Z"), ("b", "2026-11-29T11:59:00Z"),
                     ("c", "2026-11-29T13:59:00.000+02:00")]))

case("order-ties-by-code-point-not-canonical-order",
     "U+03AA sorts before U+2126 OHM SIGN by code point (canonical NFC order would put OHM = U+03A9 first)",
     req([note("\u2126", at(-10)), note("\u03aa", at(-10))]),
     resp("summary", "New activity on Buzz", "2 new notifications", "summary",
          shown=["\u03aa", "\u2126"],
          displayed=[("\u03aa", at(-10)), ("\u2126", at(-10))]))

case("order-ties-by-code-point-not-utf16",
     "U+FF01 sorts before U+1F600 by code point (UTF-16 order would put the surrogate pair first)",
     req([note("\U0001F600", at(-10)), note("\uff01", at(-10))]),
     resp("summary", "New activity on Buzz", "2 new notifications", "summary",
          shown=["\uff01", "\U0001F600"],
          displayed=[("\uff01", at(-10)), ("\U0001F600", at(-10))]))

case("order-ties-by-key-with-source",
     "the tie-break uses the whole key: a:2 < b:1 < c",
     req([note("1", at(-10), source="b"), note("c", at(-10)), note("2", at(-10), source="a")]),
     resp("summary", "New activity on Buzz", "3 new notifications", "summary",
          shown=["a:2", "b:1", "c"],
          displayed=[("a:2", at(-10)), ("b:1", at(-10)), ("c", at(-10))]))

# ---------------------------------------------------------------- single
case("single-message-name-and-thread-title",
     "a message: title = sender name, subtitle = thread title, body = the /body rendering of text",
     req([note("1", at(-10), name="Ana", thread="t1", threadTitle="Design review",
               text="Hello **world**, see [the docs](https://x.io)", url="buzz://t1/1")]),
     resp("single", "Ana", "Hello world, see the docs", "t1", subtitle="Design review", url="buzz://t1/1",
          shown=["1"], displayed=[("1", at(-10))]))

case("single-reply-without-name-uses-thread-title",
     "no sender name: title = thread title and subtitle null",
     req([note("1", at(-10), type="reply", sender_id="ana", thread="t1", threadTitle="Design review", text="ok")]),
     resp("single", "Design review", "ok", "t1", shown=["1"], displayed=[("1", at(-10))]))

case("single-mention-without-name-or-thread-title-uses-app",
     "no sender name and no thread title: title = app",
     req([note("1", at(-10), type="mention", text="`@ana` look")], app="Wikipedia"),
     resp("single", "Wikipedia", "@ana look", "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-blank-name-counts-as-absent",
     "a name of only whitespace (NBSP, em space) is absent: the thread title is the title, subtitle null",
     req([note("1", at(-10), name=" \u00a0\u2003 ", thread="t1", threadTitle="Design", text="hi")]),
     resp("single", "Design", "hi", "t1", shown=["1"], displayed=[("1", at(-10))]))

case("single-blank-thread-title-with-name",
     "a blank thread title is absent: the sender name is the title and the subtitle is null",
     req([note("1", at(-10), name="Ana", threadTitle="\t\n", text="hi")]),
     resp("single", "Ana", "hi", "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-blank-thread-title-without-name",
     "no name and a blank thread title: the app is the title",
     req([note("2", at(-10), source="other", threadTitle=" ", text="hey")]),
     resp("single", "Buzz", "hey", "other:2", shown=["other:2"], displayed=[("other:2", at(-10))]))

case("single-names-and-titles-are-normalised",
     "every run of White_Space scalars becomes one space and the ends are trimmed",
     req([note("1", at(-10), name="\tAna \u00a0\u2003 Lima\n", threadTitle="  Team\r\n\u2028chat  ",
               thread="t1", text="hi")]),
     resp("single", "Ana Lima", "hi", "t1", subtitle="Team chat", shown=["1"], displayed=[("1", at(-10))]))

case("single-zero-width-space-is-not-whitespace",
     "U+200B is not White_Space: a name of it is kept as is",
     req([note("1", at(-10), name="\u200b", text="hi")]),
     resp("single", "\u200b", "hi", "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-long-name-and-thread-title-are-capped",
     "title and subtitle are capped at 256 units by the body cap rule, after normalisation",
     req([note("1", at(-10), name="n" * 150 + "   " + "m" * 150, threadTitle="t" * 256 + " ", text="hi")]),
     resp("single", "n" * 150 + " " + "m" * 104 + ELLIPSIS, "hi", "1", subtitle="t" * 256,
          shown=["1"], displayed=[("1", at(-10))]))

case("single-long-name-cap-drops-trailing-space",
     "the cap removes a space left at the end of the kept prefix before adding the ellipsis",
     req([note("1", at(-10), name="n" * 254 + " xyz", text="hi")]),
     resp("single", "n" * 254 + ELLIPSIS, "hi", "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-message-renders-empty-uses-default-text",
     "a text that renders empty falls back to the rendering of defaultText",
     req([note("1", at(-10), name="Ana", text="![](img.png)", defaultText="Ana sent a **photo**")]),
     resp("single", "Ana", "Ana sent a photo", "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-message-renders-empty-without-default-text",
     "a text that renders empty and no defaultText: New message",
     req([note("1", at(-10), name="Ana", text="![](img.png)")]),
     resp("single", "Ana", "New message", "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-message-default-text-renders-empty",
     "no text and a defaultText that renders empty: New message",
     req([note("1", at(-10), defaultText="  \n  ")]),
     resp("single", "Buzz", "New message", "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-message-empty-text",
     "an empty text renders empty: the defaultText is used",
     req([note("1", at(-10), text="", defaultText="Ana wrote")]),
     resp("single", "Buzz", "Ana wrote", "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-non-message-uses-default-text",
     "another type: title = app, subtitle null, text ignored, body = rendered defaultText",
     req([note("1", at(-10), type="thank", name="Ana", thread="p1", threadTitle="Page",
               text="ignored **text**", defaultText="Ana thanked you for your edit on *Page*.", url="wiki://p1")]),
     resp("single", "Buzz", "Ana thanked you for your edit on *Page*.", "p1", url="wiki://p1",
          shown=["1"], displayed=[("1", at(-10))]))

case("single-non-message-without-default-text",
     "another type without defaultText: You have a new notification.",
     req([note("1", at(-10), type="edit-revert", text="ignored")], app="Wikipedia"),
     resp("single", "Wikipedia", "You have a new notification.", "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-type-is-case-sensitive",
     "Message (capital M) is not a message type",
     req([note("1", at(-10), type="Message", name="Ana", text="hi")]),
     resp("single", "Buzz", "You have a new notification.", "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-empty-thread-uses-key",
     "threadIdentifier is the thread when non-empty, else the key",
     req([note("9", at(-10), source="wiki", thread="", text="hi")]),
     resp("single", "Buzz", "hi", "wiki:9", shown=["wiki:9"], displayed=[("wiki:9", at(-10))]))

case("single-blank-thread-is-an-identifier",
     "a thread of one space is non-empty: it is the threadIdentifier as is",
     req([note("9", at(-10), thread=" ", text="hi")]),
     resp("single", "Buzz", "hi", " ", shown=["9"], displayed=[("9", at(-10))]))

case("single-body-capped-at-256",
     "a 300-unit text gets the default cap: 255 units and an ellipsis",
     req([note("1", at(-10), text="x" * 300)]),
     resp("single", "Buzz", "x" * 255 + ELLIPSIS, "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-body-with-larger-max-units",
     "maxUnits 300 keeps a 300-unit text whole",
     req([note("1", at(-10), text="x" * 300)], maxUnits=300),
     resp("single", "Buzz", "x" * 300, "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-body-input-cut",
     "a 5000-unit text is cut at 4096 units and capped: 255 units and an ellipsis",
     req([note("1", at(-10), text="y" * 5000)]),
     resp("single", "Buzz", "y" * 255 + ELLIPSIS, "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-body-blank-but-cut-is-an-ellipsis",
     "a text cut at 4096 units that renders to nothing has the body \u2026, which is not empty: defaultText unused",
     req([note("1", at(-10), text=" " * 5000, defaultText="unused")]),
     resp("single", "Buzz", ELLIPSIS, "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-default-text-capped",
     "defaultText is rendered with the same cap",
     req([note("1", at(-10), type="thank", defaultText="z" * 400)]),
     resp("single", "Buzz", "z" * 255 + ELLIPSIS, "1", shown=["1"], displayed=[("1", at(-10))]))

# ---------------------------------------------------------------- bundle
def thread_msgs(specs, thread="t1", **common):
    """specs: (id, seconds, name or None, text or None) newest-first is NOT assumed."""
    out = []
    for id, seconds, name, text in specs:
        fields = dict(common)
        fields["thread"] = thread
        if name is not None:
            fields["name"] = name
        if text is not None:
            fields["text"] = text
        out.append(note(id, at(seconds), **fields))
    return out


case("bundle-two-messages-two-names",
     "two messages in one thread: title = thread title, subtitle = A and B, body = count and the newest preview",
     req(thread_msgs([("1", -60, "Ben", "older"), ("2", -10, "Ana", "Hello **world**")], threadTitle="Design")),
     resp("bundle", "Design", "2 new messages\nAna: Hello world", "t1", subtitle="Ana and Ben",
          shown=["2", "1"], displayed=[("2", at(-10)), ("1", at(-60))]))

case("bundle-one-name",
     "the same sender twice: the subtitle is that one name",
     req(thread_msgs([("1", -60, "Ana", "a"), ("2", -10, "Ana", "b")], threadTitle="Design")),
     resp("bundle", "Design", "2 new messages\nAna: b", "t1", subtitle="Ana",
          shown=["2", "1"], displayed=[("2", at(-10)), ("1", at(-60))]))

case("bundle-three-names",
     "three distinct names: A, B and C, newest first",
     req(thread_msgs([("1", -30, "Cy", "c"), ("2", -20, "Ben", "b"), ("3", -10, "Ana", "a")])),
     resp("bundle", "Buzz", "3 new messages\nAna: a", "t1", subtitle="Ana, Ben and Cy",
          shown=["3", "2", "1"], displayed=[("3", at(-10)), ("2", at(-20)), ("1", at(-30))]))

case("bundle-four-names",
     "four distinct names: A, B and 2 others",
     req(thread_msgs([("1", -40, "Dee", "d"), ("2", -30, "Cy", "c"), ("3", -20, "Ben", "b"), ("4", -10, "Ana", "a")])),
     resp("bundle", "Buzz", "4 new messages\nAna: a", "t1", subtitle="Ana, Ben and 2 others",
          shown=["4", "3", "2", "1"],
          displayed=[("4", at(-10)), ("3", at(-20)), ("2", at(-30)), ("1", at(-40))]))

case("bundle-names-distinct-in-newest-first-order",
     "six messages, five distinct names after repeats (order of first appearance, newest first): A, B and 3 others",
     req(thread_msgs([("1", -60, "Eve", "e"), ("2", -50, "Dee", "d"), ("3", -40, "Ana", "a2"),
                      ("4", -30, "Cy", "c"), ("5", -20, "Ben", "b"), ("6", -10, "Ana", "a1")])),
     resp("bundle", "Buzz", "6 new messages\nAna: a1", "t1", subtitle="Ana, Ben and 3 others",
          shown=["6", "5", "4", "3", "2", "1"],
          displayed=[("6", at(-10)), ("5", at(-20)), ("4", at(-30)), ("3", at(-40)), ("2", at(-50)), ("1", at(-60))]))

case("bundle-names-distinct-after-normalisation",
     "names are compared after normalisation; blank names are absent",
     req(thread_msgs([("1", -30, "Ana Lima", "x"), ("2", -20, " \u3000", "y"), ("3", -10, "Ana\t\tLima ", "z")])),
     resp("bundle", "Buzz", "3 new messages\nAna Lima: z", "t1", subtitle="Ana Lima",
          shown=["3", "2", "1"], displayed=[("3", at(-10)), ("2", at(-20)), ("1", at(-30))]))

case("bundle-without-names",
     "no sender names: subtitle null and the preview has no Name: prefix",
     req(thread_msgs([("1", -20, None, "first"), ("2", -10, None, "second")])),
     resp("bundle", "Buzz", "2 new messages\nsecond", "t1",
          shown=["2", "1"], displayed=[("2", at(-10)), ("1", at(-20))]))

case("bundle-newest-without-name",
     "the newest has no name: no prefix, though an older sender is listed in the subtitle",
     req(thread_msgs([("1", -20, "Ben", "first"), ("2", -10, "  ", "second")])),
     resp("bundle", "Buzz", "2 new messages\nsecond", "t1", subtitle="Ben",
          shown=["2", "1"], displayed=[("2", at(-10)), ("1", at(-20))]))

case("bundle-title-is-first-non-empty-thread-title-newest-first",
     "the newest has no thread title and the next a blank one: the third's title is used",
     req([note("1", at(-30), thread="t1", threadTitle="Older title"),
          note("2", at(-20), thread="t1", threadTitle="Design  chat"),
          note("3", at(-15), thread="t1", threadTitle=" \n "),
          note("4", at(-10), thread="t1", name="Ana", text="hi")]),
     resp("bundle", "Design chat", "4 new messages\nAna: hi", "t1", subtitle="Ana",
          shown=["4", "3", "2", "1"],
          displayed=[("4", at(-10)), ("3", at(-15)), ("2", at(-20)), ("1", at(-30))]))

case("bundle-newest-text-renders-empty",
     "the newest's text renders empty: the body is the count alone",
     req(thread_msgs([("1", -20, "Ben", "older text"), ("2", -10, "Ana", "![](photo.png)")])),
     resp("bundle", "Buzz", "2 new messages", "t1", subtitle="Ana and Ben",
          shown=["2", "1"], displayed=[("2", at(-10)), ("1", at(-20))]))

case("bundle-newest-without-text",
     "the newest has no text: the body is the count alone (defaultText is not used in a bundle)",
     req([note("1", at(-20), thread="t1", name="Ben", text="older text"),
          note("2", at(-10), thread="t1", name="Ana", defaultText="Ana wrote")]),
     resp("bundle", "Buzz", "2 new messages", "t1", subtitle="Ana and Ben",
          shown=["2", "1"], displayed=[("2", at(-10)), ("1", at(-20))]))

case("bundle-preview-cut-by-max-units",
     "count, name and a 300-unit preview are capped as one body: 255 units and an ellipsis",
     req(thread_msgs([("1", -20, "Ben", "b"), ("2", -10, "Ana", "x" * 300)])),
     resp("bundle", "Buzz", "2 new messages\nAna: " + "x" * 235 + ELLIPSIS, "t1", subtitle="Ana and Ben",
          shown=["2", "1"], displayed=[("2", at(-10)), ("1", at(-20))]))

case("bundle-preview-fits-a-larger-cap",
     "with maxUnits 320 the 320-unit body is whole",
     req(thread_msgs([("1", -20, "Ben", "b"), ("2", -10, "Ana", "x" * 300)]), maxUnits=320),
     resp("bundle", "Buzz", "2 new messages\nAna: " + "x" * 300, "t1", subtitle="Ana and Ben",
          shown=["2", "1"], displayed=[("2", at(-10)), ("1", at(-20))]))

case("bundle-preview-input-cut-ends-in-ellipsis",
     "a text cut at 4096 units whose rendering is short still ends the bundle body with an ellipsis",
     req(thread_msgs([("1", -20, "Ben", "b"), ("2", -10, "Ana", "hi" + " " * 5000)])),
     resp("bundle", "Buzz", "2 new messages\nAna: hi" + ELLIPSIS, "t1", subtitle="Ana and Ben",
          shown=["2", "1"], displayed=[("2", at(-10)), ("1", at(-20))]))

case("bundle-preview-input-cut-at-largest-cap",
     "maxUnits 4096: the 20-unit header plus 4096 cut units are capped to 4095 units and an ellipsis",
     req(thread_msgs([("1", -20, "Ben", "b"), ("2", -10, "Ana", "y" * 5000)]), maxUnits=4096),
     resp("bundle", "Buzz", "2 new messages\nAna: " + "y" * 4075 + ELLIPSIS, "t1", subtitle="Ana and Ben",
          shown=["2", "1"], displayed=[("2", at(-10)), ("1", at(-20))]))

case("bundle-preview-blank-after-input-cut-is-left-out",
     "the newest's text renders to nothing before the cap even though it was cut: no preview, so no ellipsis",
     req(thread_msgs([("1", -20, "Ben", "b"), ("2", -10, "Ana", " " * 5000)])),
     resp("bundle", "Buzz", "2 new messages", "t1", subtitle="Ana and Ben",
          shown=["2", "1"], displayed=[("2", at(-10)), ("1", at(-20))]))

case("bundle-long-names",
     "the subtitle is capped at 256 as a whole; the name in the body is normalised but not capped on its own",
     req(thread_msgs([("1", -20, "b" * 200, "older"), ("2", -10, "a" * 100 + "\n\n" + "a" * 100, "Hi")])),
     resp("bundle", "Buzz", "2 new messages\n" + "a" * 100 + " " + "a" * 100 + ": Hi", "t1",
          subtitle="a" * 100 + " " + "a" * 100 + " and " + "b" * 49 + ELLIPSIS,
          shown=["2", "1"], displayed=[("2", at(-10)), ("1", at(-20))]))

case("bundle-newest-by-key-on-equal-times",
     "equal times: the smaller key is the newest, so its text is the preview and its url the url",
     req([note("b", at(-10), thread="t1", name="Ben", text="from b", url="u://b"),
          note("a", at(-10), thread="t1", name="Ana", text="from a", url="u://a")]),
     resp("bundle", "Buzz", "2 new messages\nAna: from a", "t1", subtitle="Ana and Ben", url="u://a",
          shown=["a", "b"], displayed=[("a", at(-10)), ("b", at(-10))]))

case("bundle-of-message-mention-and-reply",
     "message, mention and reply are all message types; the url is the newest's (null when it has none)",
     req([note("1", at(-30), type="message", thread="t1", name="Cy", url="u://1"),
          note("2", at(-20), type="mention", thread="t1", name="Ben", url="u://2"),
          note("3", at(-10), type="reply", thread="t1", name="Ana", text="> quoted\nok")]),
     resp("bundle", "Buzz", "3 new messages\nAna: > quoted\nok", "t1", subtitle="Ana, Ben and Cy",
          shown=["3", "2", "1"], displayed=[("3", at(-10)), ("2", at(-20)), ("1", at(-30))]))

case("bundle-after-drops",
     "only the notifications left count: two of four remain, in one thread",
     req([note("1", at(-10), thread="t1", name="Ana", text="a"),
          note("2", at(-700), thread="t1", name="Old", text="o"),
          note("3", at(-20), thread="t1", name="Ben", text="b"),
          note("4", at(-5), thread="t1", sender_id="me", name="Me", text="m")], recipient="me"),
     resp("bundle", "Buzz", "2 new messages\nAna: a", "t1", subtitle="Ana and Ben",
          shown=["1", "3"], dropped=[("2", "stale"), ("4", "own")],
          displayed=[("1", at(-10)), ("3", at(-20))]))

# ---------------------------------------------------------------- summary
case("summary-mixed-threads",
     "messages in two threads: summary",
     req([note("1", at(-10), thread="t1", name="Ana", text="a"), note("2", at(-20), thread="t2", name="Ben", text="b")]),
     resp("summary", "New activity on Buzz", "2 new notifications", "summary",
          shown=["1", "2"], displayed=[("1", at(-10)), ("2", at(-20))]))

case("summary-non-message-in-thread",
     "one thread but one notification is not a message type: summary",
     req([note("1", at(-10), thread="t1", name="Ana", text="a"), note("2", at(-20), type="thank", thread="t1")]),
     resp("summary", "New activity on Buzz", "2 new notifications", "summary",
          shown=["1", "2"], displayed=[("1", at(-10)), ("2", at(-20))]))

case("summary-messages-without-thread",
     "messages with empty or missing threads are not bundled",
     req([note("1", at(-10), thread="", text="a"), note("2", at(-20), thread="", text="b"), note("3", at(-30), text="c")]),
     resp("summary", "New activity on Buzz", "3 new notifications", "summary",
          shown=["1", "2", "3"], displayed=[("1", at(-10)), ("2", at(-20)), ("3", at(-30))]))

case("summary-threads-compared-by-code-point",
     "threads caf\\u00e9 and cafe\\u0301 are different threads: summary",
     req([note("1", at(-10), thread="caf\u00e9", text="a"), note("2", at(-20), thread="cafe\u0301", text="b")]),
     resp("summary", "New activity on Buzz", "2 new notifications", "summary",
          shown=["1", "2"], displayed=[("1", at(-10)), ("2", at(-20))]))

case("summary-custom-app",
     "the summary title names the request's app",
     req([note("1", at(-10), type="thank"), note("2", at(-20), type="edit-revert")], app="Wikipedia"),
     resp("summary", "New activity on Wikipedia", "2 new notifications", "summary",
          shown=["1", "2"], displayed=[("1", at(-10)), ("2", at(-20))]))

case("summary-long-app-title-capped",
     "New activity on + a 300-unit app is capped at 256 units",
     req([note("1", at(-10), type="thank"), note("2", at(-20), type="thank")], app=LONG_APP),
     resp("summary", "New activity on " + "a" * 239 + ELLIPSIS, "2 new notifications", "summary",
          shown=["1", "2"], displayed=[("1", at(-10)), ("2", at(-20))]))

# ---------------------------------------------------------------- displayed state
FOUR = [("stale", at(-601)), ("edge", at(-600)), ("future", at(3600)), ("recent", at(-1))]
case("displayed-next-state-is-what-the-device-shows",
     "fetch ok: the next state is the shown keys under the answer's group and nothing else, whatever the request's "
     "entries were (was: fresh request entries kept beside the shown one; C10 now records the screen)",
     req([note("n", at(-30))], FOUR),
     resp("single", "Buzz", "New message", "n", shown=["n"], displayed=[("n", at(-30))]))

case("displayed-carried-over-when-the-fetch-fails",
     "fetch failed: the entries are carried over, none pruned (stale and future alike), entries without group "
     "written with group null, and the fallback entry at now, newest first (was: the stale one pruned)",
     req(displayed=FOUR, fetch="failed"),
     fallback("failed", displayed=[("future", at(3600), None), (None, NOW, "fallback"), ("recent", at(-1), None),
                                   ("edge", at(-600), None), ("stale", at(-601), None)]))

case("displayed-latest-time-wins",
     "one key twice in displayed: the later instant wins, wherever it is in the list (carried over by a failed "
     "fetch; was: a fallback empty, whose next state is now empty)",
     req([], [("a", at(-100)), ("b", at(-50)), ("a", "2026-11-29T12:59:50+01:00"), ("b", at(-60))], fetch="failed"),
     fallback("failed", displayed=[(None, NOW, "fallback"), ("a", "2026-11-29T12:59:50+01:00", None),
                                   ("b", at(-50), None)]))

case("displayed-equal-instants-first-written-wins",
     "one key twice at the same instant written differently: the first entry in the request is kept (carried over "
     "by a failed fetch; was: a fallback empty)",
     req([], [("a", "2026-11-29T13:59:00+02:00"), ("a", "2026-11-29T11:59:00Z"), ("b", "2026-11-29T11:59:00.000Z")],
         fetch="failed"),
     fallback("failed", displayed=[(None, NOW, "fallback"), ("a", "2026-11-29T13:59:00+02:00", None),
                                   ("b", "2026-11-29T11:59:00.000Z", None)]))

case("displayed-ties-by-code-point",
     "equal instants in the next state are ordered by key in code-point order (carried over by a failed fetch; "
     "was: a fallback empty)",
     req([], [("\U0001F600", at(-10)), ("z", at(-10)), ("\uff01", at(-10)), ("Z", at(-10))], fetch="failed"),
     fallback("failed", displayed=[(None, NOW, "fallback"), ("Z", at(-10), None), ("z", at(-10), None),
                                   ("\uff01", at(-10), None), ("\U0001F600", at(-10), None)]))

case("displayed-ties-keyed-before-group-alone-then-by-group",
     "equal instants: entries with a key before entries of a group alone, those by group in code-point order; a "
     "fallback entry already there is kept as it was and none is added",
     req(displayed=[(None, at(-10), "zeta"), (None, at(-10), "fallback"), ("k", at(-10), "t1")], fetch="timeout"),
     fallback("timeout", displayed=[("k", at(-10), "t1"), (None, at(-10), "fallback"), (None, at(-10), "zeta")]))

case("displayed-group-alone-latest-per-group",
     "two entries of the group fallback without a key: the later instant is kept, once, and no new fallback entry",
     req(displayed=[(None, at(-100), "fallback"), (None, at(-20), "fallback")], fetch="failed"),
     fallback("failed", displayed=[(None, at(-20), "fallback")]))

case("displayed-empty-answer-empties-the-state",
     "fetch ok and nothing kept: the next state is empty, whatever the entries were (everything is withdrawn)",
     req([note("1", at(-10), read=True)], [("1", at(-10), "t1"), (None, at(-5), "fallback"), ("legacy", at(-3))]),
     fallback("empty", dropped=[("1", "read")]))

# A thousand displayed entries: keys d0000..d0999, d{i} written at now - 1 - i seconds.
THOUSAND = [(f"d{i:04d}", at(-1 - i), "t1") for i in range(1000)]
case("displayed-thousand-entries-capped-at-1000",
     "1000 entries carried over by a failed fetch plus the fallback entry at now: the newest 1000 are kept (was: "
     "with a shown key, which now leaves no entry but its own)",
     req(displayed=THOUSAND, fetch="failed"),
     fallback("failed", displayed=[(None, NOW, "fallback")] + THOUSAND[:999]))

# 60 entries, the oldest 20 stale.
SIXTY = [(f"e{i:02d}", at(-1 - i), "t1") for i in range(60)]
case("displayed-keeps-stale-entries-when-the-fetch-fails",
     "60 entries one second apart, oldest first, maxAgeSeconds 40, fetch failed: all 60 stay, newest first, after "
     "the fallback entry (was: the 20 stale ones pruned; an entry now leaves when its notification leaves the device)",
     req([], SIXTY[::-1], maxAgeSeconds=40, fetch="failed"),
     fallback("failed", displayed=[(None, NOW, "fallback")] + SIXTY))

case("displayed-shown-entry-echoes-raw-timestamp",
     "a shown notification enters the next state with its timestamp exactly as written; the entry 0 leaves it",
     req([note("1", "2026-11-29T06:59:00.120-05:00")], [("0", "2026-11-29T11:59:00.12Z", "1")]),
     resp("single", "Buzz", "New message", "1", shown=["1"],
          displayed=[("1", "2026-11-29T06:59:00.120-05:00")]))

case("displayed-group-of-a-hashed-thread",
     "the next state records the group key of C14: a thread that is not a plain group key is recorded as its digest",
     req([note("1", at(-10), thread="caf\u00e9")]),
     resp("single", "Buzz", "New message", "caf\u00e9", shown=["1"], displayed=[("1", at(-10))]))


# ---------------------------------------------------------------- languages (compose.md, Part II)
# Every text below is written out by hand from the catalogs l10n/<tag>.json
# and the rules of compose.md sections 8 to 13: nothing formats messages here.
FSI, PDI = "\u2068", "\u2069"


def non_messages(count):
    """`count` fresh likes, l000 the newest; with `summary_response` below."""
    return [note(f"l{i:03d}", at(-1 - i), type="like") for i in range(count)]


def summary_response(title, body, count, locale):
    keys = [f"l{i:03d}" for i in range(count)]
    return resp("summary", title, body, "summary", shown=keys,
                displayed=[(key, at(-1 - i)) for i, key in enumerate(keys)], locale=locale)


def bundle_request(names, text=None, **fields):
    """One message per name (None: no sender), newest first in thread t; `text` on the newest only."""
    notes = []
    for i, name in enumerate(names):
        extra = {"thread": "t"}
        if name is not None:
            extra["name"] = name
        if i == 0 and text is not None:
            extra["text"] = text
        notes.append(note(f"b{i:03d}", at(-1 - i), **extra))
    return req(notes, **fields)


def bundle_response(body, subtitle, count, locale, title="Buzz"):
    keys = [f"b{i:03d}" for i in range(count)]
    return resp("bundle", title, body, "t", subtitle=subtitle, shown=keys,
                displayed=[(key, at(-1 - i)) for i, key in enumerate(keys)], locale=locale)


# One tour per catalog: its ten messages, each plural category a count of 2 or
# more reaches (compose never counts fewer: a bundle or summary has at least two
# notifications, senders.more at least two others), written in full.
#   names: senders, newest first (the pool a bundle draws from, fillers added)
#   fallback / message / notification: fallback.body with Buzz, message.fallback, notification.fallback
#   summary: summary.title with Buzz, and (count, summary.count) pairs
#   two: (bundle.count for 2, bundle.preview of the newest name and `preview`, senders.two)
#   three: (bundle.count for 3, senders.three)
#   more: (distinct names, bundle.count for them, senders.more)
TOURS = [
    dict(tag="en", names=["Ana", "Ben", "Cy", "Dee"], filler="Guest", preview="hi",
         fallback="There might be new activity on Buzz.", message="New message",
         notification="You have a new notification.",
         summary=("New activity on Buzz", [(3, "3 new notifications")]),
         two=("2 new messages", "Ana: hi", "Ana and Ben"), three=("3 new messages", "Ana, Ben and Cy"),
         more=[(4, "4 new messages", "Ana, Ben and 2 others")]),
    dict(tag="de", names=["Ana", "Ben", "Cy", "Dee"], filler="Gast", preview="hallo",
         fallback="In Buzz gibt es vielleicht Neues.", message="Neue Nachricht",
         notification="Du hast eine neue Benachrichtigung.",
         summary=("Neue Aktivit\u00e4t in Buzz", [(3, "3 neue Benachrichtigungen")]),
         two=("2 neue Nachrichten", "Ana: hallo", "Ana und Ben"), three=("3 neue Nachrichten", "Ana, Ben und Cy"),
         more=[(4, "4 neue Nachrichten", "Ana, Ben und 2 weitere Personen")]),
    dict(tag="es", names=["Ana", "Ben", "Cy", "Dee"], filler="Invitado", preview="hola",
         fallback="Puede que haya novedades en Buzz.", message="Nuevo mensaje",
         notification="Tienes una notificaci\u00f3n nueva.",
         summary=("Novedades en Buzz", [(3, "3 notificaciones nuevas")]),
         two=("2 mensajes nuevos", "Ana: hola", "Ana y Ben"), three=("3 mensajes nuevos", "Ana, Ben y Cy"),
         more=[(4, "4 mensajes nuevos", "Ana, Ben y 2 personas m\u00e1s")]),
    # bundle.preview has U+00A0 before the colon: bodies are not normalised, so it stays.
    dict(tag="fr", names=["Ana", "Ben", "Cy", "Dee"], filler="Invit\u00e9", preview="salut",
         fallback="Il y a peut-\u00eatre du nouveau sur Buzz.", message="Nouveau message",
         notification="Vous avez une nouvelle notification.",
         summary=("Nouvelle activit\u00e9 sur Buzz", [(3, "3 nouvelles notifications")]),
         two=("2 nouveaux messages", "Ana\u00a0: salut", "Ana et Ben"), three=("3 nouveaux messages", "Ana, Ben et Cy"),
         more=[(4, "4 nouveaux messages", "Ana, Ben et 2 autres personnes")]),
    dict(tag="hi", names=["\u0930\u093e\u091c", "\u0938\u0940\u0924\u093e", "\u0905\u092e\u093f\u0924", "\u0928\u0947\u0939\u093e"],
         filler="\u0905\u0924\u093f\u0925\u093f", preview="\u0928\u092e\u0938\u094d\u0924\u0947",
         fallback="Buzz \u092a\u0930 \u0928\u0908 \u0917\u0924\u093f\u0935\u093f\u0927\u093f \u0939\u094b \u0938\u0915\u0924\u0940 \u0939\u0948\u0964",
         message="\u0928\u092f\u093e \u0938\u0902\u0926\u0947\u0936",
         notification="\u0906\u092a\u0915\u094b \u090f\u0915 \u0928\u0908 \u0938\u0942\u091a\u0928\u093e \u092e\u093f\u0932\u0940 \u0939\u0948\u0964",
         summary=("Buzz \u092a\u0930 \u0928\u0908 \u0917\u0924\u093f\u0935\u093f\u0927\u093f",
                  [(3, "3 \u0928\u0908 \u0938\u0942\u091a\u0928\u093e\u090f\u0901")]),
         two=("2 \u0928\u090f \u0938\u0902\u0926\u0947\u0936", "\u0930\u093e\u091c: \u0928\u092e\u0938\u094d\u0924\u0947",
              "\u0930\u093e\u091c \u0914\u0930 \u0938\u0940\u0924\u093e"),
         three=("3 \u0928\u090f \u0938\u0902\u0926\u0947\u0936",
                "\u0930\u093e\u091c, \u0938\u0940\u0924\u093e \u0914\u0930 \u0905\u092e\u093f\u0924"),
         more=[(4, "4 \u0928\u090f \u0938\u0902\u0926\u0947\u0936",
                "\u0930\u093e\u091c, \u0938\u0940\u0924\u093e \u0914\u0930 2 \u0905\u0928\u094d\u092f")]),
    dict(tag="it", names=["Ana", "Ben", "Cy", "Dee"], filler="Ospite", preview="ciao",
         fallback="Potrebbero esserci novit\u00e0 su Buzz.", message="Nuovo messaggio",
         notification="Hai una nuova notifica.",
         summary=("Nuova attivit\u00e0 su Buzz", [(3, "3 nuove notifiche")]),
         two=("2 nuovi messaggi", "Ana: ciao", "Ana e Ben"), three=("3 nuovi messaggi", "Ana, Ben e Cy"),
         more=[(4, "4 nuovi messaggi", "Ana, Ben e 2 altre persone")]),
    dict(tag="ja", names=["\u3055\u304f\u3089", "\u5065\u592a", "\u967d\u83dc", "\u84ee"], filler="\u30b2\u30b9\u30c8",
         preview="\u3053\u3093\u306b\u3061\u306f",
         fallback="Buzz\u306b\u65b0\u7740\u60c5\u5831\u304c\u3042\u308b\u304b\u3082\u3057\u308c\u307e\u305b\u3093\u3002",
         message="\u65b0\u7740\u30e1\u30c3\u30bb\u30fc\u30b8", notification="\u65b0\u3057\u3044\u901a\u77e5\u304c\u3042\u308a\u307e\u3059\u3002",
         summary=("Buzz\u306e\u65b0\u7740\u60c5\u5831", [(3, "3\u4ef6\u306e\u65b0\u3057\u3044\u901a\u77e5")]),
         two=("2\u4ef6\u306e\u65b0\u7740\u30e1\u30c3\u30bb\u30fc\u30b8", "\u3055\u304f\u3089: \u3053\u3093\u306b\u3061\u306f",
              "\u3055\u304f\u3089\u3001\u5065\u592a"),
         three=("3\u4ef6\u306e\u65b0\u7740\u30e1\u30c3\u30bb\u30fc\u30b8", "\u3055\u304f\u3089\u3001\u5065\u592a\u3001\u967d\u83dc"),
         more=[(4, "4\u4ef6\u306e\u65b0\u7740\u30e1\u30c3\u30bb\u30fc\u30b8", "\u3055\u304f\u3089\u3001\u5065\u592a\u3001\u4ed62\u4eba")]),
    dict(tag="ko", names=["\ubbfc\uc900", "\uc11c\uc5f0", "\uc9c0\ud638", "\ud558\uc740"], filler="\uc190\ub2d8",
         preview="\uc548\ub155\ud558\uc138\uc694",
         fallback="Buzz\uc5d0 \uc0c8 \ud65c\ub3d9\uc774 \uc788\uc744 \uc218 \uc788\uc2b5\ub2c8\ub2e4.",
         message="\uc0c8 \uba54\uc2dc\uc9c0", notification="\uc0c8 \uc54c\ub9bc\uc774 \uc788\uc2b5\ub2c8\ub2e4.",
         summary=("Buzz\uc758 \uc0c8 \ud65c\ub3d9", [(3, "\uc0c8 \uc54c\ub9bc 3\uac1c")]),
         two=("\uc0c8 \uba54\uc2dc\uc9c0 2\uac1c", "\ubbfc\uc900: \uc548\ub155\ud558\uc138\uc694", "\ubbfc\uc900, \uc11c\uc5f0"),
         three=("\uc0c8 \uba54\uc2dc\uc9c0 3\uac1c", "\ubbfc\uc900, \uc11c\uc5f0, \uc9c0\ud638"),
         more=[(4, "\uc0c8 \uba54\uc2dc\uc9c0 4\uac1c", "\ubbfc\uc900, \uc11c\uc5f0 \uc678 2\uba85")]),
    # pl: few for 2-4 and 22, many for 5, 12 and 21 (one is only 1, other only fractions).
    dict(tag="pl", names=["Ola", "Piotr", "Kasia", "Marek"], filler="Go\u015b\u0107", preview="cze\u015b\u0107",
         fallback="W Buzz mog\u0105 by\u0107 nowo\u015bci.", message="Nowa wiadomo\u015b\u0107",
         notification="Masz nowe powiadomienie.",
         summary=("Nowa aktywno\u015b\u0107 w Buzz", [(3, "3 nowe powiadomienia"), (5, "5 nowych powiadomie\u0144"),
                                                    (12, "12 nowych powiadomie\u0144"), (21, "21 nowych powiadomie\u0144"),
                                                    (22, "22 nowe powiadomienia")]),
         two=("2 nowe wiadomo\u015bci", "Ola: cze\u015b\u0107", "Ola i Piotr"),
         three=("3 nowe wiadomo\u015bci", "Ola, Piotr i Kasia"),
         more=[(4, "4 nowe wiadomo\u015bci", "Ola, Piotr i 2 inne osoby"),
               (7, "7 nowych wiadomo\u015bci", "Ola, Piotr i 5 innych os\u00f3b")]),
    dict(tag="pt", names=["Ana", "Bruno", "Clara", "Davi"], filler="Convidado", preview="oi",
         fallback="Pode haver novidades em Buzz.", message="Nova mensagem",
         notification="Voc\u00ea tem uma nova notifica\u00e7\u00e3o.",
         summary=("Nova atividade em Buzz", [(3, "3 novas notifica\u00e7\u00f5es")]),
         two=("2 novas mensagens", "Ana: oi", "Ana e Bruno"), three=("3 novas mensagens", "Ana, Bruno e Clara"),
         more=[(4, "4 novas mensagens", "Ana, Bruno e mais 2 pessoas")]),
    dict(tag="pt-PT", names=["Ana", "Bruno", "Clara", "Duarte"], filler="Convidado", preview="ol\u00e1",
         fallback="Poder\u00e1 haver novidades em Buzz.", message="Nova mensagem",
         notification="Tem uma nova notifica\u00e7\u00e3o.",
         summary=("Nova atividade em Buzz", [(3, "3 novas notifica\u00e7\u00f5es")]),
         two=("2 novas mensagens", "Ana: ol\u00e1", "Ana e Bruno"), three=("3 novas mensagens", "Ana, Bruno e Clara"),
         more=[(4, "4 novas mensagens", "Ana, Bruno e mais 2 pessoas")]),
    # ru and uk: one for 21, few for 2-4 and 23, many for 5-20.
    dict(tag="ru", names=["\u0410\u043d\u043d\u0430", "\u0411\u043e\u0440\u0438\u0441", "\u0412\u0435\u0440\u0430", "\u0413\u043b\u0435\u0431"],
         filler="\u0413\u043e\u0441\u0442\u044c", preview="\u043f\u0440\u0438\u0432\u0435\u0442",
         fallback="\u0412\u043e\u0437\u043c\u043e\u0436\u043d\u043e, \u0432 Buzz \u0435\u0441\u0442\u044c \u0447\u0442\u043e-\u0442\u043e \u043d\u043e\u0432\u043e\u0435.",
         message="\u041d\u043e\u0432\u043e\u0435 \u0441\u043e\u043e\u0431\u0449\u0435\u043d\u0438\u0435",
         notification="\u0423 \u0432\u0430\u0441 \u043d\u043e\u0432\u043e\u0435 \u0443\u0432\u0435\u0434\u043e\u043c\u043b\u0435\u043d\u0438\u0435.",
         summary=("\u041d\u043e\u0432\u044b\u0435 \u0441\u043e\u0431\u044b\u0442\u0438\u044f \u0432 Buzz",
                  [(3, "3 \u043d\u043e\u0432\u044b\u0445 \u0443\u0432\u0435\u0434\u043e\u043c\u043b\u0435\u043d\u0438\u044f"),
                   (11, "11 \u043d\u043e\u0432\u044b\u0445 \u0443\u0432\u0435\u0434\u043e\u043c\u043b\u0435\u043d\u0438\u0439"),
                   (21, "21 \u043d\u043e\u0432\u043e\u0435 \u0443\u0432\u0435\u0434\u043e\u043c\u043b\u0435\u043d\u0438\u0435")]),
         two=("2 \u043d\u043e\u0432\u044b\u0445 \u0441\u043e\u043e\u0431\u0449\u0435\u043d\u0438\u044f",
              "\u0410\u043d\u043d\u0430: \u043f\u0440\u0438\u0432\u0435\u0442", "\u0410\u043d\u043d\u0430 \u0438 \u0411\u043e\u0440\u0438\u0441"),
         three=("3 \u043d\u043e\u0432\u044b\u0445 \u0441\u043e\u043e\u0431\u0449\u0435\u043d\u0438\u044f",
                "\u0410\u043d\u043d\u0430, \u0411\u043e\u0440\u0438\u0441 \u0438 \u0412\u0435\u0440\u0430"),
         more=[(4, "4 \u043d\u043e\u0432\u044b\u0445 \u0441\u043e\u043e\u0431\u0449\u0435\u043d\u0438\u044f",
                "\u0410\u043d\u043d\u0430, \u0411\u043e\u0440\u0438\u0441 \u0438 \u0435\u0449\u0451 2 \u0447\u0435\u043b\u043e\u0432\u0435\u043a\u0430"),
               (7, "7 \u043d\u043e\u0432\u044b\u0445 \u0441\u043e\u043e\u0431\u0449\u0435\u043d\u0438\u0439",
                "\u0410\u043d\u043d\u0430, \u0411\u043e\u0440\u0438\u0441 \u0438 \u0435\u0449\u0451 5 \u0447\u0435\u043b\u043e\u0432\u0435\u043a"),
               (23, "23 \u043d\u043e\u0432\u044b\u0445 \u0441\u043e\u043e\u0431\u0449\u0435\u043d\u0438\u044f",
                "\u0410\u043d\u043d\u0430, \u0411\u043e\u0440\u0438\u0441 \u0438 \u0435\u0449\u0451 21 \u0447\u0435\u043b\u043e\u0432\u0435\u043a")]),
    dict(tag="tr", names=["Ay\u015fe", "Mehmet", "Zeynep", "Can"], filler="Misafir", preview="merhaba",
         fallback="Buzz uygulamas\u0131nda yeni etkinlik olabilir.", message="Yeni mesaj",
         notification="Yeni bir bildiriminiz var.",
         summary=("Buzz uygulamas\u0131nda yeni etkinlik", [(3, "3 yeni bildirim")]),
         two=("2 yeni mesaj", "Ay\u015fe: merhaba", "Ay\u015fe ve Mehmet"), three=("3 yeni mesaj", "Ay\u015fe, Mehmet ve Zeynep"),
         more=[(4, "4 yeni mesaj", "Ay\u015fe, Mehmet ve 2 ki\u015fi daha")]),
    dict(tag="uk", names=["\u041e\u043a\u0441\u0430\u043d\u0430", "\u0411\u043e\u0433\u0434\u0430\u043d", "\u0406\u0440\u0438\u043d\u0430", "\u0422\u0430\u0440\u0430\u0441"],
         filler="\u0413\u0456\u0441\u0442\u044c", preview="\u043f\u0440\u0438\u0432\u0456\u0442",
         fallback="\u041c\u043e\u0436\u043b\u0438\u0432\u043e, \u0432 Buzz \u0454 \u0449\u043e\u0441\u044c \u043d\u043e\u0432\u0435.",
         message="\u041d\u043e\u0432\u0435 \u043f\u043e\u0432\u0456\u0434\u043e\u043c\u043b\u0435\u043d\u043d\u044f",
         notification="\u0423 \u0432\u0430\u0441 \u043d\u043e\u0432\u0435 \u0441\u043f\u043e\u0432\u0456\u0449\u0435\u043d\u043d\u044f.",
         summary=("\u041d\u043e\u0432\u0456 \u043f\u043e\u0434\u0456\u0457 \u0432 Buzz",
                  [(3, "3 \u043d\u043e\u0432\u0456 \u0441\u043f\u043e\u0432\u0456\u0449\u0435\u043d\u043d\u044f"),
                   (11, "11 \u043d\u043e\u0432\u0438\u0445 \u0441\u043f\u043e\u0432\u0456\u0449\u0435\u043d\u044c"),
                   (21, "21 \u043d\u043e\u0432\u0435 \u0441\u043f\u043e\u0432\u0456\u0449\u0435\u043d\u043d\u044f")]),
         two=("2 \u043d\u043e\u0432\u0456 \u043f\u043e\u0432\u0456\u0434\u043e\u043c\u043b\u0435\u043d\u043d\u044f",
              "\u041e\u043a\u0441\u0430\u043d\u0430: \u043f\u0440\u0438\u0432\u0456\u0442", "\u041e\u043a\u0441\u0430\u043d\u0430 \u0456 \u0411\u043e\u0433\u0434\u0430\u043d"),
         three=("3 \u043d\u043e\u0432\u0456 \u043f\u043e\u0432\u0456\u0434\u043e\u043c\u043b\u0435\u043d\u043d\u044f",
                "\u041e\u043a\u0441\u0430\u043d\u0430, \u0411\u043e\u0433\u0434\u0430\u043d \u0456 \u0406\u0440\u0438\u043d\u0430"),
         more=[(4, "4 \u043d\u043e\u0432\u0456 \u043f\u043e\u0432\u0456\u0434\u043e\u043c\u043b\u0435\u043d\u043d\u044f",
                "\u041e\u043a\u0441\u0430\u043d\u0430, \u0411\u043e\u0433\u0434\u0430\u043d \u0456 \u0449\u0435 2 \u043e\u0441\u043e\u0431\u0438"),
               (7, "7 \u043d\u043e\u0432\u0438\u0445 \u043f\u043e\u0432\u0456\u0434\u043e\u043c\u043b\u0435\u043d\u044c",
                "\u041e\u043a\u0441\u0430\u043d\u0430, \u0411\u043e\u0433\u0434\u0430\u043d \u0456 \u0449\u0435 5 \u043e\u0441\u0456\u0431"),
               (23, "23 \u043d\u043e\u0432\u0456 \u043f\u043e\u0432\u0456\u0434\u043e\u043c\u043b\u0435\u043d\u043d\u044f",
                "\u041e\u043a\u0441\u0430\u043d\u0430, \u0411\u043e\u0433\u0434\u0430\u043d \u0456 \u0449\u0435 21 \u043e\u0441\u043e\u0431\u0430")]),
    dict(tag="zh-Hans", names=["\u738b\u82b3", "\u674e\u96f7", "\u5f20\u4f1f", "\u5218\u6d0b"], filler="\u8bbf\u5ba2",
         preview="\u4f60\u597d", fallback="Buzz\u53ef\u80fd\u6709\u65b0\u52a8\u6001\u3002", message="\u65b0\u6d88\u606f",
         notification="\u4f60\u6709\u4e00\u6761\u65b0\u901a\u77e5\u3002",
         summary=("Buzz\u6709\u65b0\u52a8\u6001", [(3, "3\u6761\u65b0\u901a\u77e5")]),
         two=("2\u6761\u65b0\u6d88\u606f", "\u738b\u82b3\uff1a\u4f60\u597d", "\u738b\u82b3\u548c\u674e\u96f7"),
         three=("3\u6761\u65b0\u6d88\u606f", "\u738b\u82b3\u3001\u674e\u96f7\u548c\u5f20\u4f1f"),
         more=[(4, "4\u6761\u65b0\u6d88\u606f", "\u738b\u82b3\u3001\u674e\u96f7\u53ca\u5176\u4ed62\u4eba")]),
    dict(tag="zh-Hant", names=["\u9673\u7f8e\u73b2", "\u6797\u5fd7\u660e", "\u9ec3\u6dd1\u82ac", "\u5f35\u5bb6\u8c6a"],
         filler="\u8a2a\u5ba2", preview="\u4f60\u597d", fallback="Buzz\u53ef\u80fd\u6709\u65b0\u52d5\u614b\u3002",
         message="\u65b0\u8a0a\u606f", notification="\u4f60\u6709\u4e00\u5247\u65b0\u901a\u77e5\u3002",
         summary=("Buzz\u6709\u65b0\u52d5\u614b", [(3, "3\u5247\u65b0\u901a\u77e5")]),
         two=("2\u5247\u65b0\u8a0a\u606f", "\u9673\u7f8e\u73b2\uff1a\u4f60\u597d", "\u9673\u7f8e\u73b2\u548c\u6797\u5fd7\u660e"),
         three=("3\u5247\u65b0\u8a0a\u606f", "\u9673\u7f8e\u73b2\u3001\u6797\u5fd7\u660e\u548c\u9ec3\u6dd1\u82ac"),
         more=[(4, "4\u5247\u65b0\u8a0a\u606f", "\u9673\u7f8e\u73b2\u3001\u6797\u5fd7\u660e\u53ca\u5176\u4ed62\u4eba")]),
    # ar (rtl): the app Buzz is isolated; two for 2, few for 3-10, many for 11-99, other for 100 and up.
    dict(tag="ar", names=["\u0633\u0627\u0631\u0629", "\u0639\u0645\u0631", "\u0644\u064a\u0644\u0649", "\u064a\u0648\u0633\u0641"],
         filler="\u0636\u064a\u0641", preview="\u0645\u0631\u062d\u0628\u0627",
         fallback="\u0642\u062f \u064a\u0643\u0648\u0646 \u0647\u0646\u0627\u0643 \u0646\u0634\u0627\u0637 \u062c\u062f\u064a\u062f \u0641\u064a " + FSI + "Buzz" + PDI + ".",
         message="\u0631\u0633\u0627\u0644\u0629 \u062c\u062f\u064a\u062f\u0629",
         notification="\u0644\u062f\u064a\u0643 \u0625\u0634\u0639\u0627\u0631 \u062c\u062f\u064a\u062f.",
         summary=("\u0646\u0634\u0627\u0637 \u062c\u062f\u064a\u062f \u0641\u064a " + FSI + "Buzz" + PDI,
                  [(2, "\u0625\u0634\u0639\u0627\u0631\u0627\u0646 \u062c\u062f\u064a\u062f\u0627\u0646"),
                   (3, "3 \u0625\u0634\u0639\u0627\u0631\u0627\u062a \u062c\u062f\u064a\u062f\u0629"),
                   (11, "11 \u0625\u0634\u0639\u0627\u0631\u064b\u0627 \u062c\u062f\u064a\u062f\u064b\u0627"),
                   (100, "100 \u0625\u0634\u0639\u0627\u0631 \u062c\u062f\u064a\u062f")]),
         two=("\u0631\u0633\u0627\u0644\u062a\u0627\u0646 \u062c\u062f\u064a\u062f\u062a\u0627\u0646",
              "\u0633\u0627\u0631\u0629: \u0645\u0631\u062d\u0628\u0627", "\u0633\u0627\u0631\u0629 \u0648\u0639\u0645\u0631"),
         three=("3 \u0631\u0633\u0627\u0626\u0644 \u062c\u062f\u064a\u062f\u0629",
                "\u0633\u0627\u0631\u0629\u060c \u0639\u0645\u0631 \u0648\u0644\u064a\u0644\u0649"),
         more=[(4, "4 \u0631\u0633\u0627\u0626\u0644 \u062c\u062f\u064a\u062f\u0629",
                "\u0633\u0627\u0631\u0629\u060c \u0639\u0645\u0631 \u0648\u0634\u062e\u0635\u0627\u0646 \u0622\u062e\u0631\u0627\u0646"),
               (5, "5 \u0631\u0633\u0627\u0626\u0644 \u062c\u062f\u064a\u062f\u0629",
                "\u0633\u0627\u0631\u0629\u060c \u0639\u0645\u0631 \u06483 \u0623\u0634\u062e\u0627\u0635 \u0622\u062e\u0631\u064a\u0646"),
               (13, "13 \u0631\u0633\u0627\u0644\u0629 \u062c\u062f\u064a\u062f\u0629",
                "\u0633\u0627\u0631\u0629\u060c \u0639\u0645\u0631 \u064811 \u0634\u062e\u0635\u064b\u0627 \u0622\u062e\u0631"),
               (102, "102 \u0631\u0633\u0627\u0644\u0629 \u062c\u062f\u064a\u062f\u0629",
                "\u0633\u0627\u0631\u0629\u060c \u0639\u0645\u0631 \u0648100 \u0634\u062e\u0635 \u0622\u062e\u0631")]),
    # he (rtl): two for 2, other for 3 and up.
    dict(tag="he", names=["\u05d3\u05e0\u05d4", "\u05d9\u05d5\u05e1\u05d9", "\u05e0\u05d5\u05e2\u05d4", "\u05d0\u05d9\u05ea\u05d9"],
         filler="\u05d0\u05d5\u05e8\u05d7", preview="\u05e9\u05dc\u05d5\u05dd",
         fallback="\u05d9\u05d9\u05ea\u05db\u05df \u05e9\u05d9\u05e9 \u05e4\u05e2\u05d9\u05dc\u05d5\u05ea \u05d7\u05d3\u05e9\u05d4 \u05d1\u05be" + FSI + "Buzz" + PDI + ".",
         message="\u05d4\u05d5\u05d3\u05e2\u05d4 \u05d7\u05d3\u05e9\u05d4", notification="\u05d9\u05e9 \u05dc\u05da \u05d4\u05ea\u05e8\u05d0\u05d4 \u05d7\u05d3\u05e9\u05d4.",
         summary=("\u05e4\u05e2\u05d9\u05dc\u05d5\u05ea \u05d7\u05d3\u05e9\u05d4 \u05d1\u05be" + FSI + "Buzz" + PDI,
                  [(2, "\u05e9\u05ea\u05d9 \u05d4\u05ea\u05e8\u05d0\u05d5\u05ea \u05d7\u05d3\u05e9\u05d5\u05ea"),
                   (3, "3 \u05d4\u05ea\u05e8\u05d0\u05d5\u05ea \u05d7\u05d3\u05e9\u05d5\u05ea")]),
         two=("\u05e9\u05ea\u05d9 \u05d4\u05d5\u05d3\u05e2\u05d5\u05ea \u05d7\u05d3\u05e9\u05d5\u05ea",
              "\u05d3\u05e0\u05d4: \u05e9\u05dc\u05d5\u05dd", "\u05d3\u05e0\u05d4 \u05d5\u05be\u05d9\u05d5\u05e1\u05d9"),
         three=("3 \u05d4\u05d5\u05d3\u05e2\u05d5\u05ea \u05d7\u05d3\u05e9\u05d5\u05ea",
                "\u05d3\u05e0\u05d4, \u05d9\u05d5\u05e1\u05d9 \u05d5\u05be\u05e0\u05d5\u05e2\u05d4"),
         more=[(4, "4 \u05d4\u05d5\u05d3\u05e2\u05d5\u05ea \u05d7\u05d3\u05e9\u05d5\u05ea",
                "\u05d3\u05e0\u05d4, \u05d9\u05d5\u05e1\u05d9 \u05d5\u05e2\u05d5\u05d3 \u05e9\u05e0\u05d9\u05d9\u05dd"),
               (5, "5 \u05d4\u05d5\u05d3\u05e2\u05d5\u05ea \u05d7\u05d3\u05e9\u05d5\u05ea",
                "\u05d3\u05e0\u05d4, \u05d9\u05d5\u05e1\u05d9 \u05d5\u05e2\u05d5\u05d3 3")]),
]
TOUR = {tour["tag"]: tour for tour in TOURS}


def senders(tour, count):
    """`count` distinct names: the tour's, then numbered fillers."""
    return (tour["names"] + [f"{tour['filler']} {i}" for i in range(1, count + 1)])[:count]


for tour in TOURS:
    tag = tour["tag"]
    slug = "l10n-" + tag.lower()
    names = tour["names"]
    case(f"{slug}-fallback", f"{tag}: a fallback's body is fallback.body with the app; its title is the app",
         req(fetch="failed", locale=tag), fallback("failed", body=tour["fallback"], locale=tag))
    case(f"{slug}-single-message-without-text", f"{tag}: a message without a body is message.fallback",
         req([note("m", at(-1), name=names[0])], locale=tag),
         resp("single", names[0], tour["message"], "m", shown=["m"], displayed=[("m", at(-1))], locale=tag))
    case(f"{slug}-single-non-message", f"{tag}: a non-message without defaultText is notification.fallback",
         req([note("n", at(-1), type="like")], locale=tag),
         resp("single", "Buzz", tour["notification"], "n", shown=["n"], displayed=[("n", at(-1))], locale=tag))
    title, counts = tour["summary"]
    for count, body in counts:
        case(f"{slug}-summary-{count}", f"{tag}: summary.title, and summary.count for {count}",
             req(non_messages(count), locale=tag), summary_response(title, body, count, tag))
    header, line, subtitle = tour["two"]
    case(f"{slug}-bundle-two-names", f"{tag}: bundle.count for 2, bundle.preview and senders.two",
         bundle_request(names[:2], tour["preview"], locale=tag),
         bundle_response(header + "\n" + line, subtitle, 2, tag))
    header, subtitle = tour["three"]
    case(f"{slug}-bundle-three-names", f"{tag}: bundle.count for 3 and senders.three; no text, so no preview",
         bundle_request(names[:3], locale=tag), bundle_response(header, subtitle, 3, tag))
    for count, header, subtitle in tour["more"]:
        case(f"{slug}-bundle-{count}-names", f"{tag}: bundle.count for {count} and senders.more with {count - 2} others",
             bundle_request(senders(tour, count), locale=tag), bundle_response(header, subtitle, count, tag))

RU = TOUR["ru"]
case("l10n-ru-bundle-21-messages-one-sender",
     "ru: 21 messages is the one branch of bundle.count; a single sender is the subtitle as is",
     bundle_request([RU["names"][0]] * 21, RU["preview"], locale="ru"),
     bundle_response("21 \u043d\u043e\u0432\u043e\u0435 \u0441\u043e\u043e\u0431\u0449\u0435\u043d\u0438\u0435\n"
                     + RU["two"][1], RU["names"][0], 21, "ru"))

# ---------------------------------------------------------------- choosing the catalog (compose.md section 10)
NEGOTIATION = [
    (None, "en", "null is the default locale"),
    ("", "en", "the empty string is the default locale"),
    ("en-GB", "en", "rule 3: the parent en_001 has no catalog"),
    ("en-AU", "en", "rule 3 through en_001"),
    ("pt-BR", "pt", "rule 1: pt maximises to pt-Latn-BR"),
    ("pt_PT", "pt-PT", "an underscore reads as a hyphen; rule 1"),
    ("pt-AO", "pt-PT", "rule 2: the CLDR parent of pt_AO is pt_PT"),
    ("es-MX", "es", "rule 3: the parent es_419 has no catalog"),
    ("zh-TW", "zh-Hant", "rule 1: zh-Hant maximises to zh-Hant-TW"),
    ("zh-HK", "zh-Hant", "rule 3: zh-HK is zh-Hant-HK"),
    ("zh-MO", "zh-Hant", "rule 3: zh-MO is zh-Hant-MO (its parent zh_Hant_HK has no catalog)"),
    ("zh", "zh-Hans", "rule 1: zh maximises to zh-Hans-CN"),
    ("zh-CN", "zh-Hans", "rule 1"),
    ("zh-SG", "zh-Hans", "rule 3: zh-SG is zh-Hans-SG"),
    ("ZH-hant-tw", "zh-Hant", "subtags are case-insensitive"),
    ("de-CH-1996", "de", "the variant is ignored; rule 3"),
    ("en-u-ca-buddhist", "en", "an extension is ignored"),
    ("iw", "he", "the alias iw is he"),
    ("und", "en", "und maximises to en-Latn-US"),
    ("sr", "en", "well-formed, but no catalog fits: the default"),
    ("xx-YY", "en", "unknown language: the default"),
]
for locale, tag, why in NEGOTIATION:
    slug = "absent" if locale is None else (locale or "empty").lower().replace("_", "-")
    case(f"l10n-choose-{'null' if locale is None else slug}", f"locale {json.dumps(locale)} -> catalog {tag}: {why}",
         req(fetch="failed", locale=locale), fallback("failed", body=TOUR[tag]["fallback"], locale=tag))

# ---------------------------------------------------------------- isolation (compose.md section 12.3)
MUHAMMAD = "\u0645\u062d\u0645\u062f"
WIKI_AR = "\u0648\u064a\u0643\u064a"
SARA = TOUR["ar"]["names"][0]
AR_TWO = TOUR["ar"]["two"][0]
case("l10n-en-rtl-name-isolated-in-list-and-preview",
     "ltr catalog: an Arabic name filled into senders.two and bundle.preview is wrapped in FSI/PDI; Ana is not",
     bundle_request([MUHAMMAD, "Ana"], "hi"),
     bundle_response("2 new messages\n" + FSI + MUHAMMAD + PDI + ": hi", FSI + MUHAMMAD + PDI + " and Ana", 2, "en"))
case("l10n-en-single-rtl-name-not-isolated",
     "a name or thread title used as a title or subtitle is not filled into a message: never wrapped",
     req([note("1", at(-1), name=MUHAMMAD, threadTitle="\u05e6\u05d5\u05d5\u05ea", text="hi")]),
     resp("single", MUHAMMAD, "hi", "1", subtitle="\u05e6\u05d5\u05d5\u05ea", shown=["1"], displayed=[("1", at(-1))]))
case("l10n-en-bundle-one-rtl-sender",
     "one distinct name is the subtitle as is (not a message), but the same name in bundle.preview is wrapped",
     bundle_request([MUHAMMAD, MUHAMMAD], "hi"),
     bundle_response("2 new messages\n" + FSI + MUHAMMAD + PDI + ": hi", MUHAMMAD, 2, "en"))
case("l10n-en-rtl-text-not-isolated",
     "the rendered text filled into bundle.preview is never wrapped, whatever its direction",
     bundle_request(["Ana", "Ben"], "\u0645\u0631\u062d\u0628\u0627"),
     bundle_response("2 new messages\nAna: \u0645\u0631\u062d\u0628\u0627", "Ana and Ben", 2, "en"))
case("l10n-en-summary-rtl-app",
     "the app filled into summary.title is wrapped when it holds an R or AL character",
     req(non_messages(2), app=WIKI_AR),
     summary_response("New activity on " + FSI + WIKI_AR + PDI, "2 new notifications", 2, "en"))
case("l10n-en-fallback-rtl-app",
     "a fallback's title is the app itself; the app in fallback.body is wrapped",
     req(fetch="timeout", app=WIKI_AR),
     fallback("timeout", app=WIKI_AR, body="There might be new activity on " + FSI + WIKI_AR + PDI + "."))
case("l10n-en-mixed-mark-and-neutral-names",
     "a name with any R/AL character is wrapped whole, RLM counts as strong R, digits are neutral and stay bare",
     bundle_request(["Ana " + MUHAMMAD, "\u200fBo", "123"]),
     bundle_response("3 new messages", FSI + "Ana " + MUHAMMAD + PDI + ", " + FSI + "\u200fBo" + PDI + " and 123", 3, "en"))
case("l10n-de-hebrew-name-isolated",
     "another ltr catalog: a Hebrew name in senders.two is wrapped",
     bundle_request(["Ana", "\u05d3\u05e0\u05d4"], locale="de"),
     bundle_response("2 neue Nachrichten", "Ana und " + FSI + "\u05d3\u05e0\u05d4" + PDI, 2, "de"))
case("l10n-ar-latin-name-isolated",
     "rtl catalog: a Latin name (Bidi_Class L) is wrapped in senders.two and bundle.preview; the Arabic one is not",
     bundle_request(["Ana", SARA], TOUR["ar"]["preview"], locale="ar"),
     bundle_response(AR_TWO + "\n" + FSI + "Ana" + PDI + ": " + TOUR["ar"]["preview"],
                     FSI + "Ana" + PDI + " \u0648" + SARA, 2, "ar"))
case("l10n-ar-arabic-app-not-isolated",
     "rtl catalog: an Arabic app is of the catalog's direction and stays bare",
     req(non_messages(2), app=WIKI_AR, locale="ar"),
     summary_response("\u0646\u0634\u0627\u0637 \u062c\u062f\u064a\u062f \u0641\u064a " + WIKI_AR,
                      "\u0625\u0634\u0639\u0627\u0631\u0627\u0646 \u062c\u062f\u064a\u062f\u0627\u0646", 2, "ar"))
case("l10n-ar-neutral-name-not-isolated",
     "rtl catalog: a name of digits only has no strong character and stays bare",
     bundle_request(["123", SARA], locale="ar"),
     bundle_response(AR_TWO, "123 \u0648" + SARA, 2, "ar"))
case("l10n-he-lrm-and-latin-name-isolated",
     "rtl catalog: LRM counts as strong L, so a Hebrew name after an LRM is wrapped, and so is Bo",
     bundle_request(["\u200e\u05d3\u05e0\u05d4", "Bo"], locale="he"),
     bundle_response(TOUR["he"]["two"][0], FSI + "\u200e\u05d3\u05e0\u05d4" + PDI + " \u05d5\u05be" + FSI + "Bo" + PDI,
                     2, "he"))

# ---------------------------------------------------------------- caps with isolates (compose.md section 12.3, L15)
MIM = "\u0645"
case("l10n-en-summary-title-exactly-256-units-with-isolates",
     "New activity on (16) + FSI + 238 letters + PDI is exactly 256 units: kept whole",
     req(non_messages(2), app=MIM * 238),
     summary_response("New activity on " + FSI + MIM * 238 + PDI, "2 new notifications", 2, "en"))
case("l10n-en-summary-title-cut-leaves-isolate-open",
     "one letter more is 257 units: the cap keeps 255 (the FSI among them), drops the PDI and adds the ellipsis",
     req(non_messages(2), app=MIM * 239),
     summary_response("New activity on " + FSI + MIM * 238 + ELLIPSIS, "2 new notifications", 2, "en"))
case("l10n-en-fallback-body-cut-inside-isolate",
     "a 300-letter Arabic app: the title is the app capped; the body cap cuts inside the isolate",
     req(fetch="failed", app=MIM * 300),
     fallback("failed", title=MIM * 255 + ELLIPSIS, body="There might be new activity on " + FSI + MIM * 223 + ELLIPSIS))
case("l10n-en-subtitle-cut-inside-isolate",
     "senders.two with a 260-letter Arabic name: the subtitle is capped at 256 units, the isolate left open",
     bundle_request(["Ana", MIM * 260]),
     bundle_response("2 new messages", "Ana and " + FSI + MIM * 246 + ELLIPSIS, 2, "en"))
case("l10n-en-bundle-body-cap-counts-isolates",
     "the isolates around the name in bundle.preview count as units of the body cap",
     bundle_request([MUHAMMAD, "Ana"], "x" * 300),
     bundle_response("2 new messages\n" + FSI + MUHAMMAD + PDI + ": " + "x" * 232 + ELLIPSIS,
                     FSI + MUHAMMAD + PDI + " and Ana", 2, "en"))
case("l10n-ar-summary-title-cut-in-isolated-app",
     "rtl catalog: a 300-letter Latin app is wrapped and the title cap cuts inside the isolate",
     req(non_messages(2), app="a" * 300, locale="ar"),
     summary_response("\u0646\u0634\u0627\u0637 \u062c\u062f\u064a\u062f \u0641\u064a " + FSI + "a" * 241 + ELLIPSIS,
                      "\u0625\u0634\u0639\u0627\u0631\u0627\u0646 \u062c\u062f\u064a\u062f\u0627\u0646", 2, "ar"))
case("l10n-ar-bundle-body-cap-counts-isolates",
     "rtl catalog: header (16 units with the line break), the wrapped Latin name and a 300-unit text, capped at 256",
     bundle_request(["Ana", SARA], "x" * 300, locale="ar"),
     bundle_response(AR_TWO + "\n" + FSI + "Ana" + PDI + ": " + "x" * 232 + ELLIPSIS,
                     FSI + "Ana" + PDI + " \u0648" + SARA, 2, "ar"))


def dumps(value, indent=""):
    """JSON with every value that fits in 100 characters on one line; big ones expanded."""
    compact = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if len(compact) <= 100 or not isinstance(value, (dict, list)) or not value:
        return compact
    inner = indent + " "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {dumps(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    items = [inner + dumps(v, inner) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + indent + "]"


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    fixture = {
        "comment": [
            "Shared cases of POST /compose (docs/spec/compose.md), written by hand from the spec.",
            "Each case: send `request` as the JSON body of POST /compose to a server whose default app is Buzz",
            "and default locale en, with the catalogs of l10n/ (the `l10n-` cases test the texts of each language);",
            "expect `response` exactly (every member, null included; arrays in order; strings compared by code points).",
            "Every request has an explicit `now`. Generated by scripts/gen-compose-fixture.py; edit the script, not this file.",
        ],
        "cases": CASES,
    }
    path = os.path.join(root, "test-fixtures", "compose.json")
    with open(path, "w", encoding="utf-8") as f:
        f.write(readable(dumps(fixture)) + "\n")
    with open(path, encoding="utf-8") as f:
        assert json.load(f) == fixture
    print(f"{len(CASES)} cases -> {os.path.relpath(path, root)}")


if __name__ == "__main__":
    main()
