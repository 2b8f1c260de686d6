#!/usr/bin/env python3
"""Writes test-fixtures/compose.json, the shared contract of POST /compose.

Every expected response below is written out by hand from
docs/spec/compose.md and docs/spec/body.md; nothing here runs the Swift
implementation. Python only builds repetitive inputs (long names, a thousand
displayed entries) and lays the JSON out. Run: python3 scripts/gen-compose-fixture.py
"""
import json
import os
from datetime import datetime, timedelta, timezone

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


def req(notifications=None, displayed=None, now=NOW, **fields):
    r = {"now": now}
    if notifications is not None:
        r["notifications"] = notifications
    if displayed is not None:
        r["displayed"] = [{"key": k, "timestamp": t} for k, t in displayed]
    r.update(fields)
    return r


def resp(kind, title, body, tid, subtitle=None, url=None, shown=(), dropped=(), displayed=(), reason=None):
    return {
        "kind": kind,
        "reason": reason,
        "notification": {"title": title, "subtitle": subtitle, "body": body, "threadIdentifier": tid, "url": url},
        "shown": list(shown),
        "dropped": [{"key": k, "reason": r} for k, r in dropped],
        "displayed": [{"key": k, "timestamp": t} for k, t in displayed],
    }


def fallback(reason, app="Buzz", body=None, title=None, dropped=(), displayed=()):
    return resp("fallback", title if title is not None else app,
                body if body is not None else f"There might be new activity on {app}.",
                None, dropped=dropped, displayed=displayed, reason=reason)


CASES = []


def case(id, description, request, response):
    assert all(c.islower() or c.isdigit() or c == "-" for c in id), id
    assert id not in [c["id"] for c in CASES], id
    CASES.append({"id": id, "description": description, "request": request, "response": response})


# ---------------------------------------------------------------- fallbacks
case("fallback-fetch-failed",
     "fetch failed: fallback with reason failed, app texts, nothing shown",
     req(fetch="failed"),
     fallback("failed"))

case("fallback-fetch-timeout-ignores-notifications-and-prunes-displayed",
     "fetch timeout: notifications are not looked at, no drops; displayed still loses its stale entries",
     req([note("1", at(-10))], [("old", at(-601)), ("kept", at(-600))], fetch="timeout"),
     fallback("timeout", displayed=[("kept", at(-600))]))

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
     "each notification gets the first reason that applies: duplicate, read, own, stale, future, displayed",
     req([note("k", at(-10)),
          note("k", at(-700), read=True, sender_id="me"),
          note("r", at(-700), read=True, sender_id="me"),
          note("o", at(-700), sender_id="me"),
          note("s", at(-700)),
          note("f", at(400)),
          note("d", at(-20))],
         [("s", at(-30)), ("f", at(-30)), ("d", at(-30))], recipient="me"),
     resp("single", "Buzz", "New message", "k", shown=["k"],
          dropped=[("k", "duplicate"), ("r", "read"), ("o", "own"), ("s", "stale"), ("f", "future"), ("d", "displayed")],
          displayed=[("k", at(-10)), ("d", at(-30)), ("f", at(-30)), ("s", at(-30))]))

case("drop-displayed",
     "a key in displayed is dropped; the entry stays in the next state while fresh",
     req([note("1", at(-10)), note("2", at(-20), text="new")], [("1", at(-10))]),
     resp("single", "Buzz", "new", "2", shown=["2"], dropped=[("1", "displayed")],
          displayed=[("1", at(-10)), ("2", at(-20))]))

case("displayed-entry-drops-even-when-the-entry-itself-is-stale",
     "the displayed drop looks at the key only; the entry's own stale time removes it from the next state",
     req([note("1", at(-10))], [("1", at(-601))]),
     fallback("empty", dropped=[("1", "displayed")]))

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

# ---------------------------------------------------------------- keys
case("key-is-source-colon-id",
     "the key is source:id; a notification without source has the key id, a different key",
     req([note("7", at(-10), source="wiki"), note("7", at(-20))], [("wiki:7", at(-10))]),
     resp("single", "Buzz", "New message", "7", shown=["7"], dropped=[("wiki:7", "displayed")],
          displayed=[("wiki:7", at(-10)), ("7", at(-20))]))

case("key-with-empty-source-is-the-id",
     "an empty source counts as no source: the key is the id (so it duplicates the sourceless one)",
     req([note("7", at(-10), source=""), note("7", at(-20))]),
     resp("single", "Buzz", "New message", "7", shown=["7"], dropped=[("7", "duplicate")],
          displayed=[("7", at(-10))]))

case("keys-canonically-equivalent-are-distinct",
     "keys compare by code points: caf\\u00e9 and cafe\\u0301 are two keys, so only the second is in displayed",
     req([note("caf\u00e9", at(-10)), note("cafe\u0301", at(-10))], [("cafe\u0301", at(-500))]),
     resp("single", "Buzz", "New message", "caf\u00e9", shown=["caf\u00e9"],
          dropped=[("cafe\u0301", "displayed")],
          displayed=[("caf\u00e9", at(-10)), ("cafe\u0301", at(-500))]))

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
case("displayed-prunes-stale-and-keeps-fresh-and-future",
     "the next state keeps request entries not stale (the boundary included, future ones too) plus the shown one, newest first",
     req([note("n", at(-30))],
         [("stale", at(-601)), ("edge", at(-600)), ("future", at(3600)), ("recent", at(-1))]),
     resp("single", "Buzz", "New message", "n", shown=["n"],
          displayed=[("future", at(3600)), ("recent", at(-1)), ("n", at(-30)), ("edge", at(-600))]))

case("displayed-latest-time-wins",
     "one key twice in displayed: the later instant wins, wherever it is in the list",
     req([], [("a", at(-100)), ("b", at(-50)), ("a", "2026-11-29T12:59:50+01:00"), ("b", at(-60))]),
     fallback("empty", displayed=[("a", "2026-11-29T12:59:50+01:00"), ("b", at(-50))]))

case("displayed-equal-instants-first-written-wins",
     "one key twice at the same instant written differently: the first entry in the request is kept",
     req([], [("a", "2026-11-29T13:59:00+02:00"), ("a", "2026-11-29T11:59:00Z"), ("b", "2026-11-29T11:59:00.000Z")]),
     fallback("empty", displayed=[("a", "2026-11-29T13:59:00+02:00"), ("b", "2026-11-29T11:59:00.000Z")]))

case("displayed-ties-by-code-point",
     "equal instants in the next state are ordered by key in code-point order",
     req([], [("\U0001F600", at(-10)), ("z", at(-10)), ("\uff01", at(-10)), ("Z", at(-10))]),
     fallback("empty", displayed=[("Z", at(-10)), ("z", at(-10)), ("\uff01", at(-10)), ("\U0001F600", at(-10))]))

# A thousand displayed entries: keys d0000..d0999, d{i} written at now - 1 - i seconds.
THOUSAND = [(f"d{i:04d}", at(-1 - i)) for i in range(1000)]
case("displayed-thousand-entries-capped-at-1000",
     "1000 fresh entries (two of them hit by notifications) plus one shown: the newest 1000 are kept",
     req([note("d0005", at(-6)), note("n", at(0), text="new"), note("d0500", at(-501))],
         THOUSAND, maxAgeSeconds=3600),
     resp("single", "Buzz", "new", "n", shown=["n"], dropped=[("d0005", "displayed"), ("d0500", "displayed")],
          displayed=[("n", at(0))] + THOUSAND[:999]))

# 60 entries, the oldest 20 stale: 40 fresh remain.
SIXTY = [(f"e{i:02d}", at(-1 - i)) for i in range(60)]
case("displayed-prunes-many-stale-entries",
     "60 entries one second apart, oldest first, maxAgeSeconds 40: the 40 entries at most 40 s old remain, newest first",
     req([], SIXTY[::-1], maxAgeSeconds=40),
     fallback("empty", displayed=SIXTY[:40]))

case("displayed-shown-entry-echoes-raw-timestamp",
     "a shown notification enters the next state with its timestamp exactly as written",
     req([note("1", "2026-11-29T06:59:00.120-05:00")], [("0", "2026-11-29T11:59:00.12Z")]),
     resp("single", "Buzz", "New message", "1", shown=["1"],
          displayed=[("0", "2026-11-29T11:59:00.12Z"), ("1", "2026-11-29T06:59:00.120-05:00")]))


def dumps(value, indent=""):
    """JSON with every value that fits in 100 characters on one line; big ones expanded."""
    compact = json.dumps(value, ensure_ascii=True, separators=(", ", ": "))
    if len(compact) <= 100 or not isinstance(value, (dict, list)) or not value:
        return compact
    inner = indent + " "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k, ensure_ascii=True)}: {dumps(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    items = [inner + dumps(v, inner) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + indent + "]"


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    fixture = {
        "comment": [
            "Shared cases of POST /compose (docs/spec/compose.md), written by hand from the spec.",
            "Each case: send `request` as the JSON body of POST /compose to a server whose default app is Buzz;",
            "expect `response` exactly (every member, null included; arrays in order; strings compared by code points).",
            "Every request has an explicit `now`. Generated by scripts/gen-compose-fixture.py; edit the script, not this file.",
        ],
        "cases": CASES,
    }
    path = os.path.join(root, "test-fixtures", "compose.json")
    with open(path, "w", encoding="ascii") as f:
        f.write(dumps(fixture) + "\n")
    with open(path, encoding="ascii") as f:
        assert json.load(f) == fixture
    print(f"{len(CASES)} cases -> {os.path.relpath(path, root)}")


if __name__ == "__main__":
    main()
