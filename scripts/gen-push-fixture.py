#!/usr/bin/env python3
"""Writes test-fixtures/push.json: the cases below, each with the answer
checks/push/oracle.py (an independent reading of docs/spec/push.md) gives it.

The full tier's notification (compose.md, Part I, already pinned by
compose.json) comes from `notification-text compose` on the request without
`preview` and `push`; everything push.md and compose.md C11/C12 add is the
oracle's. Edit the cases here and run

  .venv/bin/python scripts/gen-push-fixture.py .build/debug/notification-text

never the JSON.
"""
import importlib.util
import json
import sys
from pathlib import Path

from readable_json import dumps as readable_dumps

REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("push_oracle", REPO / "checks" / "push" / "oracle.py")
oracle = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(oracle)
import push_fixture_conversation  # noqa: E402  (after the oracle: it puts checks/push on the path)
import push_fixture_identity  # noqa: E402

NOW = "2026-11-29T12:00:00Z"
T = "2026-11-29T11:59:00Z"
CJK = "\u4e2d\u6587\u6d88\u606f\u6d4b\u8bd5"  # 中文消息测试
FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467"  # 👨‍👩‍👧, one grapheme of 8 units, 18 bytes
THUMB = "\U0001F44D\U0001F3FD"  # 👍🏽
E_ACUTE = "e\u0301"

CASES = []


def case(id, description, request):
    CASES.append((id, description, {"now": NOW, **request}))


def msg(id="1", type="message", ts=T, **extra):
    return {"id": id, "type": type, "timestamp": ts, **extra}


SINGLE = msg(sender={"name": "Ana"}, threadTitle="Design", thread="t1", text="Secret **plan** at noon",
             defaultText="Ana wrote in Design", url="https://chat.example/t1/1")
MENTION = msg(type="mention", sender={"name": "Ana"}, threadTitle="Design", thread="t1", text="@you look at this")
REPLY = msg(type="reply", sender={"name": "Ben"}, thread="t2", text="Yes, agreed entirely")
EDIT = msg(type="wiki-edit", source="wiki", sender={"name": "Cleo"}, threadTitle="Main Page", text="ignored text",
           defaultText="Cleo edited Main Page", url="https://wiki.example/Main")
BUNDLE = [msg("1", ts="2026-11-29T11:58:00Z", sender={"name": "Ben"}, threadTitle="Design", thread="t1",
              text="older words here"),
          msg("2", ts="2026-11-29T11:59:30Z", sender={"name": "Ana"}, threadTitle="Design", thread="t1",
              text="Hello **world**", url="https://chat.example/t1/2")]
SUMMARY = [msg("1", sender={"name": "Ana"}, thread="t1", text="one text here"),
           msg("2", ts="2026-11-29T11:59:10Z", sender={"name": "Ben"}, thread="t2", text="two text here"),
           msg("3", ts="2026-11-29T11:59:20Z", type="wiki-edit", source="wiki", defaultText="Page changed now")]

# Each tier, every kind.
KINDS = {
    "single-message": [SINGLE],
    "single-mention": [MENTION],
    "single-reply": [REPLY],
    "single-non-message": [EDIT],
    "bundle": BUNDLE,
    "summary": SUMMARY,
}
for tier in ("full", "sender", "none"):
    for name, notes in KINDS.items():
        case(f"tier-{tier}-{name}", f"preview {tier}: a {name.replace('-', ' ')}",
             {"preview": tier, "notifications": notes, "push": {}})
    case(f"tier-{tier}-fallback-empty", f"preview {tier}: nothing kept, send false",
         {"preview": tier, "notifications": [], "push": {}})
    case(f"tier-{tier}-fallback-failed", f"preview {tier}: the fetch failed, a fallback that is sent",
         {"preview": tier, "fetch": "failed", "push": {}})
case("tier-default-is-full", "no preview member: the full tier", {"notifications": [SINGLE], "push": {}})
case("tier-null-is-full", "preview null: the full tier", {"preview": None, "notifications": [SINGLE], "push": {}})
case("tier-sender-single-without-body", "preview sender: a message without text or name keeps its thread title",
     {"preview": "sender", "notifications": [msg(threadTitle="Ops", thread="ops")], "push": {}})
case("tier-none-long-app", "preview none: the title is the app, through the title cap",
     {"preview": "none", "app": "A" * 300, "notifications": [SINGLE], "push": {}})
case("tier-sender-bundle-ru-21", "preview sender in ru: 21 messages, the one branch of bundle.count",
     {"preview": "sender", "locale": "ru", "push": {},
      "notifications": [msg(str(i), ts=f"2026-11-29T11:5{i % 10}:{i:02d}Z", sender={"name": f"N{i}"}, thread="t",
                            text=f"secret {i}") for i in range(21)]})
case("tier-none-summary-ja", "preview none in ja: a summary titled with the app",
     {"preview": "none", "locale": "ja", "notifications": SUMMARY, "push": {}})
case("no-push-member", "without push the answer has no push (direction still)", {"notifications": [SINGLE]})
case("push-null", "push null counts as absent", {"notifications": [SINGLE], "push": None})

# Languages and direction.
for loc in ("ar", "he"):
    case(f"rtl-{loc}-bundle", f"{loc}: direction rtl, lang {loc}",
         {"locale": loc, "notifications": [dict(n, sender={"name": "\u0645\u062d\u0645\u062f"}) for n in BUNDLE],
          "push": {}})
case("rtl-ar-sender-tier", "ar, preview sender: the Arabic catalog's body",
     {"locale": "ar", "preview": "sender", "notifications": BUNDLE, "push": {}})
case("rtl-hebrew-text-en", "en catalog, Hebrew text: direction stays ltr (the catalog's)",
     {"notifications": [msg(text="\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd", sender={"name": "\u05d3\u05e0\u05d4"})],
      "push": {}})
case("locale-zh-hant", "zh-TW chooses zh-Hant: lang zh-Hant", {"locale": "zh-TW", "notifications": SUMMARY, "push": {}})

# Fitting: long texts and cuts.
case("cjk-4096", "maxUnits 4096 of CJK: 12,288 bytes of body cut to the room of each transport",
     {"maxUnits": 4096, "notifications": [msg(sender={"name": "Ana"}, text=CJK * 700)], "push": {}})
case("cjk-4096-with-url", "CJK body and a short url: the url stays, the body is cut",
     {"maxUnits": 4096, "notifications": [msg(sender={"name": "Ana"}, text=CJK * 700,
                                              url="https://chat.example/t/1")], "push": {}})
case("cjk-4096-reserve-2048", "reserveBytes 2048: every limit 2,048 bytes lower",
     {"maxUnits": 4096, "notifications": [msg(sender={"name": "Ana"}, text=CJK * 700)],
      "push": {"reserveBytes": 2048}})
case("cjk-bundle-4096", "a bundle whose preview line is long CJK",
     {"maxUnits": 4096, "notifications": [dict(BUNDLE[0]), dict(BUNDLE[1], text=CJK * 700)], "push": {}})
case("ascii-4096", "maxUnits 4096 of ASCII: 4,096 bytes of body do not fit beside the rest",
     {"maxUnits": 4096, "notifications": [msg(text="word " * 1000)], "push": {}})
case("ascii-fits-exactly-under", "a 3,000-byte body fits everywhere: nothing cut",
     {"maxUnits": 4096, "notifications": [msg(text="x" * 3000)], "push": {}})
case("ascii-3900-webpush-only", "a 3,900-byte body fits APNs and FCM but not Web Push",
     {"maxUnits": 4096, "notifications": [msg(text="y" * 3900)], "push": {}})
case("emoji-zwj-4096", "ZWJ families: the cut keeps whole families",
     {"maxUnits": 4096, "notifications": [msg(text=FAMILY * 512)], "push": {}})
case("emoji-skin-tone", "thumbs with skin tones: never split from their modifier",
     {"maxUnits": 4096, "notifications": [msg(text=THUMB * 1024)], "push": {}})
case("combining-marks", "e + combining acute: the mark stays with its letter",
     {"maxUnits": 4096, "notifications": [msg(text=E_ACUTE * 1365)], "push": {}})
case("flags", "regional indicator pairs are cut between flags only",
     {"maxUnits": 4096, "notifications": [msg(text="\U0001F1EB\U0001F1F7" * 1024)], "push": {}})
case("control-characters-body", "U+0001 costs 6 bytes escaped: the room counts escapes",
     {"maxUnits": 4096, "notifications": [msg(text="a\u0001" * 2000)], "push": {}})
case("quotes-and-backslashes", "quote and backslash cost 2 bytes each",
     {"maxUnits": 4096, "notifications": [msg(text="\"\\" * 2000)], "push": {}})
case("control-title-subtitle", "title and subtitle of 256 control characters (1,536 bytes each) and a long body: "
     "all three cut",
     {"maxUnits": 4096, "notifications": [msg(sender={"name": "\u0001" * 300}, threadTitle="\u0002" * 300,
                                              text="z" * 4096)], "push": {"reserveBytes": 2048}})
case("control-title-only", "a 1,536-byte title with reserveBytes 2048: the body and subtitle are cut first",
     {"maxUnits": 4096, "notifications": [msg(sender={"name": "\u0003" * 300}, threadTitle="T" * 300,
                                              text="w" * 3000)], "push": {"reserveBytes": 2048}})
case("trailing-space-before-cut", "the cut drops trailing whitespace before the ellipsis",
     {"maxUnits": 4096, "notifications": [msg(text="abc " * 1024)], "push": {}})
case("newlines-in-body", "LF costs 2 bytes (\\n)",
     {"maxUnits": 4096, "notifications": [msg(text="line\n\n" * 800)], "push": {}})

# Urls.
case("url-5000", "a 5,000-character url cannot fit: left out and named",
     {"notifications": [msg(text="hi", url="https://e.example/" + "u" * 5000)], "push": {}})
case("url-3000-long-body", "a 3,000-byte url beside a long body: left out, the body keeps more",
     {"maxUnits": 4096, "notifications": [msg(text="b" * 4000, url="https://e.example/" + "u" * 3000)], "push": {}})
case("url-2000-long-body", "a 2,000-byte url beside a long body: kept, the body cut to what is left",
     {"maxUnits": 4096, "notifications": [msg(text="b" * 4000, url="https://e.example/" + "u" * 2000)], "push": {}})
case("url-with-quote", "a url is escaped like any string", {"notifications": [msg(text="hi", url="https://e.example/\"q\"")],
                                                           "push": {}})
case("url-none-tier", "preview none keeps the url (a link, not shown text)",
     {"preview": "none", "notifications": [SINGLE], "push": {}})

# Group keys.
case("thread-64-bytes", "a 64-byte thread is its own key",
     {"notifications": [msg(thread="k" * 64, text="hi")], "push": {}})
case("thread-65-bytes", "a 65-byte thread is hashed",
     {"notifications": [msg(thread="k" * 65, text="hi")], "push": {}})
case("thread-5000", "a 5,000-character thread: thread-id, collapse id, tag all the hash",
     {"notifications": [msg(thread="t" * 5000, text="hi")], "push": {}})
case("thread-non-ascii", "a thread with non-ASCII is hashed",
     {"notifications": [msg(thread="caf\u00e9", text="hi")], "push": {}})
case("thread-space", "a thread with a space is hashed", {"notifications": [msg(thread="a b", text="hi")], "push": {}})
case("thread-quote", "a thread with a quote is hashed", {"notifications": [msg(thread="a\"b", text="hi")], "push": {}})
case("thread-matrix-room", "a Matrix room id is its own key",
     {"notifications": [msg(thread="!abc:example.org", text="hi")], "push": {}})
case("key-with-source", "no thread: the key source:id is the group",
     {"notifications": [msg(source="chat", text="hi")], "push": {}})

# Request members.
case("badge-zero", "badge 0 clears the badge", {"notifications": [SINGLE], "push": {"badge": 0}})
case("badge-large", "badge 2147483647", {"notifications": [SINGLE], "push": {"badge": 2147483647}})
case("android-channel", "androidChannel goes into FCM data",
     {"notifications": [SINGLE], "push": {"androidChannel": "messages"}})
case("android-channel-escaped", "a channel with quotes and backslashes",
     {"notifications": [SINGLE], "push": {"androidChannel": "\"\\" * 64}})
case("all-members-long", "badge, channel, reserveBytes 1000 and a long body together",
     {"maxUnits": 4096, "notifications": [msg(text=CJK * 700, url="https://e.example/1")],
      "push": {"badge": 7, "androidChannel": "chat", "reserveBytes": 1000}})
case("reserve-1", "reserveBytes 1: a payload one byte short of the limit is cut by one grapheme more",
     {"maxUnits": 4096, "notifications": [msg(text="r" * 4096)], "push": {"reserveBytes": 1}})

# From one screen to the next (compose.md S1 to S5, screen.md): send, alert, withdraw and the withdrawal payloads.
# The cases of the old P1/P2 (withdraw listed read keys) are gone: withdraw now lists group keys.
def shown(key, ts, group):
    """A displayed entry as a relay stores it: key None is a fallback notification's entry."""
    entry = {} if key is None else {"key": key}
    return entry | {"timestamp": ts, "group": group}


T1 = "2026-11-29T11:58:00Z"
case("displayed-and-unread-rebundled", "message 1 is on the device under t1 and still unread, message 2 arrives: "
     "both are kept, a bundle that replaces the single; a new key, so it alerts",
     {"notifications": [msg("1", ts=T1, thread="t1", text="first"), msg("2", thread="t1", text="second")],
      "displayed": [shown("1", T1, "t1")], "push": {}})
case("send-false-unchanged", "the device already shows exactly 1 and 2 under t1: nothing to send or withdraw",
     {"notifications": [msg("1", ts=T1, thread="t1"), msg("2", thread="t1")],
      "displayed": [shown("2", T, "t1"), shown("1", T1, "t1")], "push": {}})
case("alert-false-quiet-correction", "message 1 read elsewhere, 2 still unread: the single of 2 replaces the bundle "
     "quietly (passive, alert false), nothing withdrawn",
     {"notifications": [msg("1", ts=T1, thread="t1", read=True), msg("2", thread="t1", text="second")],
      "displayed": [shown("2", T, "t1"), shown("1", T1, "t1")], "push": {"badge": 1}})
case("withdraw-excludes-own-group", "1 to 3 read elsewhere while 4 arrives in t1, and 9 of t2 read: only t2 is "
     "withdrawn, never t1, the answer's own group",
     {"notifications": [msg(str(i), ts=f"2026-11-29T11:5{i}:00Z", thread="t1", read=True) for i in (1, 2, 3)]
      + [msg("9", ts=T1, thread="t2", read=True), msg("4", thread="t1", text="fourth")],
      "displayed": [shown(str(i), f"2026-11-29T11:5{i}:00Z", "t1") for i in (3, 2, 1)] + [shown("9", T1, "t2")],
      "push": {}})
case("group-change-single-to-summary", "a single under t1 on the device, a message of t2 arrives: a summary, t1 "
     "withdrawn",
     {"notifications": [msg("1", ts=T1, thread="t1"), msg("3", thread="t2")],
      "displayed": [shown("1", T1, "t1")], "push": {}})
case("group-change-without-new-key", "the same key under another group (its thread changed): sent quietly, the "
     "old group withdrawn",
     {"notifications": [msg("1", thread="t2")], "displayed": [shown("1", T, "t1")], "push": {}})
case("fallback-recorded", "the fetch fails: a fallback is sent and alerts, nothing withdrawn, the device's entries "
     "carried over",
     {"fetch": "failed", "displayed": [shown("1", T1, "t1")], "push": {}})
case("fallback-recorded-not-resent", "the fetch fails again while a fallback is on the device: not sent again",
     {"fetch": "timeout", "displayed": [shown(None, T, "fallback"), shown("1", T1, "t1")], "push": {}})
case("fallback-withdrawn-after-recovery", "the first successful fetch after a failure withdraws the fallback",
     {"notifications": [msg("1", ts=T1, thread="t1"), msg("2", thread="t1")],
      "displayed": [shown(None, T, "fallback"), shown("1", T1, "t1")], "push": {"badge": 2}})
case("empty-withdraws-all", "everything read: a fallback empty, not sent, every group of the state withdrawn in "
     "its order (a legacy entry contributes none); the badge rides on the withdrawal",
     {"notifications": [msg("1", ts=T1, thread="t1", read=True), msg("2", thread="t2", read=True)],
      "displayed": [shown("1", T1, "summary"), shown("2", T, "summary"), shown(None, "2026-11-29T11:59:30Z", "fallback"),
                    {"key": "old", "timestamp": T1}],
      "push": {"badge": 0}})
case("legacy-entries-without-group", "entries stored without group: never withdrawn; a kept key that has one "
     "makes a quiet send (it is not new, but not known to be shown under t1)",
     {"notifications": [msg("1", thread="t1")], "displayed": [{"key": "1", "timestamp": T}, {"key": "x", "timestamp": T}],
      "push": {}})
# The notification follows the conversation (compose.md C15, S2, S3, S6; ADR 0044).
push_fixture_conversation.add(case, msg, shown, T, T1, NOW)
push_fixture_identity.add(case, msg, T, NOW)


GROUPS_16 = [f"{i:02d}" + "g" * 62 for i in range(16)]
case("withdrawal-sizes-max", "16 groups of 64 bytes withdrawn, the largest badge and stamp, reserveBytes 2048: the "
     "withdrawal payloads at their bound (1,160, 1,158 and 1,133 bytes)",
     {"now": "9999-12-31T23:59:60.999Z",
      "notifications": [msg(f"k{i}", ts="9999-12-31T23:59:00Z", read=True) for i in range(16)],
      "displayed": [shown(f"k{i}", "9999-12-31T23:59:00Z", group) for i, group in enumerate(GROUPS_16)],
      "push": {"badge": 2147483647, "reserveBytes": 2048, "stamp": 9007199254740991}})
case("withdrawal-before-1970", "now before 1970 and no stamp given: the stamp is ⌊now⌋ in milliseconds, negative "
     "(floored), the withdrawal's expiration a day after the floored now",
     {"now": "1969-12-31T23:59:59.5Z", "notifications": [msg("1", ts="1969-12-31T23:59:00Z", read=True)],
      "displayed": [shown("1", "1969-12-31T23:59:00Z", "t1")], "push": {}})

# P22: the stamp orders a recipient's payloads on the device.
case("stamp-given", "the relay's stamp in every payload, alert and withdrawal (FCM data as a string)",
     {"notifications": [SINGLE], "displayed": [shown("9", T, "summary")], "push": {"stamp": 1795953600001, "badge": 1}})
case("stamp-zero", "a stamp of 0 is a stamp, not an absent one",
     {"notifications": [msg(text="zero")], "push": {"stamp": 0}})
case("stamp-max-cjk-4096", "the largest stamp (2^53 - 1) with the largest texts: the payloads still fit",
     {"maxUnits": 4096, "notifications": [msg(sender={"name": "Ana"}, text=CJK * 700)],
      "push": {"stamp": 9007199254740991, "badge": 2147483647}})
case("stamp-null", "a null stamp is an absent one: ⌊now⌋ in milliseconds",
     {"notifications": [msg(text="null")], "push": {"stamp": None}})

# Freshness: expiration and TTL.
case("ttl-window-0", "maxAgeSeconds 0 and a notification at now: TTL 0",
     {"maxAgeSeconds": 0, "notifications": [msg(ts=NOW, text="now")], "push": {}})
case("ttl-window-86400", "maxAgeSeconds 86400", {"maxAgeSeconds": 86400, "notifications": [SINGLE], "push": {}})
case("ttl-future", "a notification 200 s ahead: the TTL runs past the window",
     {"notifications": [msg(ts="2026-11-29T12:03:20Z", text="later")], "push": {}})
case("ttl-fractions", "fractions: the expiration is floored, the TTL counted from the floored now",
     {"now": "2026-11-29T12:00:00.9Z", "notifications": [msg(ts="2026-11-29T11:59:59.5+00:00", text="f")],
      "push": {}})
case("ttl-offset", "an offset timestamp", {"notifications": [msg(ts="2026-11-29T13:59:00+02:00", text="o")],
                                         "push": {}})
case("ttl-leap-second", "a leap second is the next day's first second",
     {"now": "2016-12-31T23:59:60Z", "notifications": [msg(ts="2016-12-31T23:59:60Z", text="leap")], "push": {}})
case("ttl-fallback", "a fallback's expiration is now plus the window",
     {"fetch": "timeout", "maxAgeSeconds": 120, "push": {}})
case("android-channel-128-bytes", "a channel of 128 bytes (64 two-byte letters) is accepted",
     {"notifications": [SINGLE], "push": {"androidChannel": "\u00e9" * 64}})

# P23: the declarative Web Push payload (push.webPush "declarative"), beside the classic one of P12.
APP_URL = "https://chat.example/"
DECL = {"webPush": "declarative", "navigate": APP_URL}
case("declarative-single", "a declarative payload: the url in navigate, the subtitle leading the body, the stamp "
     "and kind in data", {"notifications": [SINGLE], "push": DECL})
case("declarative-badge-mutable", "badge and mutable written inside notification (WebKit) and at the top level "
     "(the Push API)", {"notifications": [SINGLE], "push": DECL | {"badge": 3, "mutable": True}})
case("declarative-mutable-false", "mutable false is left out, as absent",
     {"notifications": [SINGLE], "push": DECL | {"mutable": False}})
case("declarative-quiet", "alert false: silent true, the group's notification replaced quietly",
     {"notifications": [msg("1", ts=T1, thread="t1", read=True), msg("2", thread="t1", text="second")],
      "displayed": [shown("2", T, "t1"), shown("1", T1, "t1")], "push": DECL | {"badge": 1}})
case("declarative-summary-app-url", "a summary has no url: navigate is the app URL",
     {"notifications": SUMMARY, "push": DECL})
case("declarative-fallback", "the fetch failed: a fallback opens the app URL",
     {"fetch": "failed", "push": DECL})
case("declarative-relative-url", "a url that is not navigable is not carried, and not named cut",
     {"notifications": [msg(sender={"name": "Ana"}, thread="t1", text="hi", url="/t1/1")], "push": DECL})
case("declarative-rtl-ar", "ar: lang ar, dir rtl",
     {"locale": "ar", "notifications": BUNDLE, "push": DECL})
case("declarative-preview-none", "preview none: the app's title, no subtitle, the url kept",
     {"preview": "none", "notifications": [SINGLE], "push": DECL})
case("declarative-cjk-4096", "a long CJK body with a subtitle: the body cut, the subtitle whole before it",
     {"maxUnits": 4096, "notifications": [msg(sender={"name": "Ana"}, threadTitle="Design", thread="t1",
                                              text=CJK * 700, url="https://chat.example/t1/1")], "push": DECL})
case("declarative-url-3000", "a 3,000-byte url beside a long body: left out, navigate is the app URL",
     {"maxUnits": 4096, "notifications": [msg(text="a " * 2000, url="https://e.example/" + "u" * 2982)],
      "push": DECL})
case("declarative-url-shorter-than-app-url", "a url shorter than the app URL costs less than none",
     {"maxUnits": 4096, "notifications": [msg(text="b " * 2000, url="https://e.x/1")],
      "push": {"webPush": "declarative", "navigate": "https://a.example/" + "p" * 494}})
case("declarative-largest-fixed-part", "the largest fixed part: a 512-byte app URL, the largest badge and stamp, "
     "mutable, a 64-byte group, reserveBytes 2048, long texts",
     {"maxUnits": 4096, "fetch": "ok",
      "notifications": [msg(sender={"name": "\u0001" * 300}, threadTitle="\u0002" * 300, thread="k" * 64,
                            text="z" * 4096, url="https://e.example/" + "u" * 3000)],
      "push": {"webPush": "declarative", "navigate": "https://a.example/" + "p" * 494, "badge": 2147483647,
               "stamp": 9007199254740991, "mutable": True, "reserveBytes": 2048}})
case("declarative-classic-named", "webPush classic is the default's payload",
     {"notifications": [SINGLE], "push": {"webPush": "classic", "navigate": APP_URL, "mutable": True}})

# Requests compose.md 2.2 rejects with 400 and a problem code (C11, C13).
INVALID = [
    ("preview-unknown", "a preview other than full, sender, none", {"preview": "FULL"}, "invalid-value"),
    ("preview-number", "a preview that is not a string", {"preview": 1}, "invalid-type"),
    ("push-string", "push is an object", {"push": "yes"}, "invalid-type"),
    ("push-array", "push is an object, not an array", {"push": []}, "invalid-type"),
    ("badge-negative", "badge below 0", {"push": {"badge": -1}}, "out-of-range"),
    ("badge-too-large", "badge above 2147483647", {"push": {"badge": 2147483648}}, "out-of-range"),
    ("badge-fraction", "an integer written with a fraction", {"push": {"badge": 1.0}}, "invalid-type"),
    ("badge-string", "badge as a string", {"push": {"badge": "3"}}, "invalid-type"),
    ("reserve-negative", "reserveBytes below 0", {"push": {"reserveBytes": -1}}, "out-of-range"),
    ("reserve-2049", "reserveBytes above 2048", {"push": {"reserveBytes": 2049}}, "out-of-range"),
    ("stamp-negative", "a stamp below 0", {"push": {"stamp": -1}}, "out-of-range"),
    ("stamp-2-53", "a stamp above 2^53 - 1 (a JavaScript number would not hold it exactly)",
     {"push": {"stamp": 9007199254740992}}, "out-of-range"),
    ("stamp-beyond-64-bits", "a stamp past 64 bits", {"push": {"stamp": 99999999999999999999}}, "out-of-range"),
    ("stamp-fraction", "a stamp written with a fraction", {"push": {"stamp": 1000.0}}, "invalid-type"),
    ("stamp-string", "a stamp as a string", {"push": {"stamp": "1"}}, "invalid-type"),
    ("channel-empty", "an empty channel", {"push": {"androidChannel": ""}}, "invalid-value"),
    ("channel-129-bytes", "a channel over 128 bytes", {"push": {"androidChannel": "c" * 129}}, "invalid-value"),
    ("channel-130-bytes-65-letters", "65 two-byte letters are 130 bytes",
     {"push": {"androidChannel": "\u00e9" * 65}}, "invalid-value"),
    ("channel-line-feed", "a C0 control in the channel", {"push": {"androidChannel": "a\nb"}}, "invalid-value"),
    ("channel-c1", "a C1 control (U+0085) in the channel", {"push": {"androidChannel": "a\u0085b"}}, "invalid-value"),
    ("channel-number", "a channel that is not a string", {"push": {"androidChannel": 5}}, "invalid-type"),
    ("window-negative", "alertWindowSeconds below 0", {"push": {"alertWindowSeconds": -1}}, "out-of-range"),
    ("window-86401", "alertWindowSeconds above a day", {"push": {"alertWindowSeconds": 86401}}, "out-of-range"),
    ("window-string", "alertWindowSeconds as a string", {"push": {"alertWindowSeconds": "60"}}, "invalid-type"),
    ("active-until-not-a-time", "activeUntil that is not an RFC 3339 timestamp",
     {"push": {"activeUntil": "in a minute"}}, "invalid-timestamp"),
    ("active-until-number", "activeUntil as a number", {"push": {"activeUntil": 60}}, "invalid-type"),
    # compose.md 2.2: a displayed entry's digest, alerted and direct.
    ("displayed-digest-upper-case", "a digest in upper case",
     {"displayed": [{"key": "a", "timestamp": T, "group": "t1", "digest": "ABCDEF0123456789"}]}, "invalid-value"),
    ("displayed-digest-15", "a digest of 15 characters",
     {"displayed": [{"key": "a", "timestamp": T, "group": "t1", "digest": "abcdef012345678"}]}, "invalid-value"),
    ("displayed-digest-number", "a digest that is not a string",
     {"displayed": [{"key": "a", "timestamp": T, "group": "t1", "digest": 7}]}, "invalid-type"),
    ("displayed-alerted-not-a-time", "alerted that is not a timestamp",
     {"displayed": [{"key": "a", "timestamp": T, "group": "t1", "alerted": "yesterday"}]}, "invalid-timestamp"),
    ("displayed-direct-string", "direct as a string",
     {"displayed": [{"key": "a", "timestamp": T, "group": "t1", "direct": "yes"}]}, "invalid-type"),
    # P23: the declarative Web Push members.
    ("webpush-unknown", "a webPush other than classic, declarative", {"push": {"webPush": "Declarative"}},
     "invalid-value"),
    ("webpush-boolean", "webPush is a word", {"push": {"webPush": True}}, "invalid-type"),
    ("declarative-without-navigate", "a declarative payload needs an app URL",
     {"push": {"webPush": "declarative"}}, "missing-field"),
    ("declarative-navigate-null", "a null navigate is an absent one",
     {"push": {"webPush": "declarative", "navigate": None}}, "missing-field"),
    ("navigate-relative", "navigate is an absolute http(s) URL", {"push": {"navigate": "/inbox"}}, "invalid-value"),
    ("navigate-scheme", "navigate's scheme is https or http", {"push": {"navigate": "javascript:alert(1)"}},
     "invalid-value"),
    ("navigate-space", "navigate has no space", {"push": {"navigate": "https://a.example/a b"}}, "invalid-value"),
    ("navigate-513-bytes", "navigate is at most 512 bytes",
     {"push": {"navigate": "https://a.example/" + "p" * 495}}, "invalid-value"),
    ("navigate-number", "navigate is a string", {"push": {"navigate": 1}}, "invalid-type"),
    ("mutable-string", "mutable is a boolean", {"push": {"mutable": "true"}}, "invalid-type"),
    # compose.md 2.2: a displayed entry's group.
    ("displayed-group-invalid", "a group that is not a group key (a space)",
     {"displayed": [{"key": "a", "timestamp": T, "group": "a b"}]}, "invalid-value"),
    ("displayed-group-65-bytes", "a group of 65 bytes", {"displayed": [{"key": "a", "timestamp": T, "group": "g" * 65}]},
     "invalid-value"),
    ("displayed-group-17", "a 17th distinct group",
     {"displayed": [{"key": f"k{i}", "timestamp": T, "group": f"g{i}"} for i in range(17)]}, "out-of-range"),
    ("displayed-neither-key-nor-group", "an entry with neither key nor group",
     {"displayed": [{"timestamp": T}]}, "missing-field"),
]


def main():
    cli = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/notification-text"
    catalogs = oracle.Catalogs()
    cases = []
    for id, description, request in CASES:
        base = oracle.base_answer(cli, request)
        answer = oracle.expected(request, base, catalogs)
        problems = oracle.invariants(request, answer)
        assert not problems, (id, problems)
        entry = {"id": id, "description": description, "request": request, "response": answer}
        if "push" in answer:
            entry["sizes"] = oracle.sizes(answer)
        cases.append(entry)
    invalid = []
    for id, description, members, code in INVALID + push_fixture_identity.INVALID:
        request = {"now": NOW, "notifications": [], **members}
        assert oracle.problem(request) == code, id
        invalid.append({"id": id, "description": description, "request": request, "status": 400, "code": code})
    assert len({c["id"] for c in cases + invalid}) == len(cases) + len(invalid)
    fixture = {
        "comment": "The push contract (docs/spec/push.md; compose.md sections 6.4 to 6.8 for preview, direction, "
                   "push and the transition). Each case: a POST /compose request and the members of its answer that "
                   "push.md decides (kind, reason, notification, locale, direction, push); sizes are the bytes of "
                   "each payload, alert and withdrawal, written as push.md P20 says. invalid: requests answered 400 with the problem code. "
                   "Written by scripts/gen-push-fixture.py with checks/push/oracle.py; never edit by hand.",
        "cases": cases,
        "invalid": invalid,
    }
    text = readable_dumps(fixture, indent=1) + "\n"
    (REPO / "test-fixtures" / "push.json").write_text(text, encoding="utf-8")
    print(f"{len(cases)} cases")


if __name__ == "__main__":
    main()
