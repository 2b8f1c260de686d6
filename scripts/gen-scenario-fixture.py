#!/usr/bin/env python3
"""Writes test-fixtures/scenarios.json: sequences of events and, after each
step, what every device shows (docs/spec/screen.md). The expected screens are
written by hand below from docs/spec/compose.md, push.md and screen.md, and
the catalogs of l10n/; nothing here runs the service. Edit this script and
run it (`python3 scripts/gen-scenario-fixture.py`), never the JSON.
"""
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent

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

# 1. Messages arriving one by one into a bundle (screen.md section 5, first table).
single1 = note("t1", "single", "Ana", "Hello world", ["chat:1"], subtitle="Design")
case("bundle-one-by-one",
     "three messages of one thread arrive one by one: a single, then bundles that cover every earlier message",
     [PHONE, LAPTOP], [
         step(create("1", text="Hello **world**"), screen=[single1], badge=1),
         step(create("2", sender=("ben", "Ben"), text="Lunch?"),
              screen=[note("t1", "bundle", "Design", "2 new messages\nBen: Lunch?", ["chat:2", "chat:1"],
                           subtitle="Ben and Ana")], badge=2),
         step(time(30), screen=[note("t1", "bundle", "Design", "2 new messages\nBen: Lunch?", ["chat:2", "chat:1"],
                                     subtitle="Ben and Ana")], badge=2),
         step(create("3", text="On my way"),
              screen=[note("t1", "bundle", "Design", "3 new messages\nAna: On my way", ["chat:3", "chat:2", "chat:1"],
                           subtitle="Ana and Ben")], badge=3),
     ])

# 2. A summary across threads, and back to a single.
case("summary-across-threads",
     "a message in a second thread turns the single into a summary (t1 withdrawn); a wiki edit joins it; reads"
     " elsewhere shrink it quietly, down to a single under t1",
     [TABLET], [
         step(create("1", text="Hello **world**"), screen=[single1], badge=1),
         step(create("2", thread="t2", threadTitle="Lunch", sender=("ben", "Ben"), text="Pizza?"),
              screen=[note("summary", "summary", "New activity on Buzz", "2 new notifications", ["chat:2", "chat:1"])],
              badge=2),
         step(create("7", source="wiki", type="edit", thread=None, threadTitle=None, sender=("cleo", "Cleo"),
                     defaultText="Cleo edited Main Page"),
              screen=[note("summary", "summary", "New activity on Buzz", "3 new notifications",
                           ["wiki:7", "chat:2", "chat:1"])], badge=3),
         step(read("chat:2"),
              screen=[note("summary", "summary", "New activity on Buzz", "2 new notifications", ["wiki:7", "chat:1"],
                           alert=False)], badge=2),
         step(read("wiki:7"), screen=[dict(single1, alert=False)], badge=1),
     ])

# 3. Read elsewhere with an unread sibling, then everything read (the badge cleared).
case("read-elsewhere-unread-sibling",
     "message 1 of a bundle is read elsewhere: the bundle is replaced quietly by a single of message 2; when 2 is"
     " read too, the single is withdrawn and the badge set to 0",
     [PHONE, TABLET], [
         step(create("1", text="Hello **world**"), screen=[single1], badge=1),
         step(create("2", sender=("ben", "Ben"), text="Lunch?"),
              screen=[note("t1", "bundle", "Design", "2 new messages\nBen: Lunch?", ["chat:2", "chat:1"],
                           subtitle="Ben and Ana")], badge=2),
         step(read("chat:1"), screen=[note("t1", "single", "Ben", "Lunch?", ["chat:2"], subtitle="Design",
                                           alert=False)], badge=1),
         step(read("chat:2"), screen=[], badge=0),
     ])

# 4. Read elsewhere while a new message arrives in the same group.
bundle3 = note("t1", "bundle", "Design", "3 new messages\nCy: three", ["chat:3", "chat:2", "chat:1"],
               subtitle="Cy, Ben and Ana")
first_three = [create("1", text="one"), create("2", sender=("ben", "Ben"), text="two"),
               create("3", sender=("cy", "Cy"), text="three")]
case("read-elsewhere-while-new-arrives-same-group",
     "messages 1 to 3 are read elsewhere and message 4 of the same thread arrives before the relay runs: one answer"
     " sends a single of 4 under t1 and withdraws nothing, so nothing can remove it",
     [PHONE, LAPTOP], [
         step(first_three[0]), step(first_three[1]),
         step(first_three[2], screen=[bundle3], badge=3),
         step(read("chat:1", "chat:2", "chat:3", run=False), settle=False, screen=[bundle3], badge=3),
         step(create("4", sender=("ben", "Ben"), text="four"),
              screen=[note("t1", "single", "Ben", "four", ["chat:4"], subtitle="Design")], badge=1),
     ])
case("withdrawal-delayed-past-a-new-alert",
     "messages 1 to 3 are read elsewhere; the withdrawal of t1 is delayed by the push service past the alert of"
     " message 4 in t1: older than message 4's single by its stamp, it removes nothing, and its badge (0) is"
     " older than the single's (1), so the device keeps 1 (screen.md section 2)",
     [PHONE, TABLET], [
         step(first_three[0]), step(first_three[1]),
         step(first_three[2], screen=[bundle3], badge=3),
         step(time(1), screen=[bundle3]),
         step({"do": "delay-withdrawals", "device": "phone", "seconds": 20}, screen=[bundle3]),
         step({"do": "delay-withdrawals", "device": "tablet", "seconds": 20}, screen=[bundle3]),
         step(read("chat:1", "chat:2", "chat:3"), settle=False, screen=[bundle3], badge=3),
         step(time(1), settle=False, screen=[bundle3], badge=3),
         step(create("4", sender=("ben", "Ben"), text="four"), settle=False,
              screen=[note("t1", "single", "Ben", "four", ["chat:4"], subtitle="Design")], badge=1),
         step(time(30), screen=[note("t1", "single", "Ben", "four", ["chat:4"], subtitle="Design")], badge=1),
     ])

# 5. A relay restart while a retry is pending.
bundle2 = note("t1", "bundle", "Design", "2 new messages\nBen: Lunch?", ["chat:2", "chat:1"], subtitle="Ben and Ana")
case("relay-restart-with-a-retry-pending",
     "the tablet fails transiently; the relay restarts before its retry: the stored outbox is sent after the"
     " restart, and the stored displayed state makes message 3 join the bundle",
     [PHONE, TABLET], [
         step(create("1", text="Hello **world**"), screen=[single1]),
         step({"do": "device-fails", "device": "tablet", "count": 2}, screen=[single1]),
         step(create("2", sender=("ben", "Ben"), text="Lunch?"), settle=False,
              screens={"phone": [bundle2], "tablet": [single1]}),
         step({"do": "restart"}, screen=[bundle2], badge=2),
         step({"do": "restart"}, screen=[bundle2], badge=2),
         step(create("3", text="On my way"),
              screen=[note("t1", "bundle", "Design", "3 new messages\nAna: On my way", ["chat:3", "chat:2", "chat:1"],
                           subtitle="Ana and Ben")], badge=3),
     ])

# 6. A transient failure on one of two devices.
case("transient-failure-one-of-two-devices",
     "the laptop's push service fails three times (503, 500, 429 with Retry-After): the phone shows the bundle at"
     " once, the laptop after the retries; reads then clear both",
     [PHONE, LAPTOP], [
         step(create("1", text="Hello **world**"), screen=[single1], badge=1),
         step({"do": "device-fails", "device": "laptop", "count": 3}),
         step(create("2", sender=("ben", "Ben"), text="Lunch?"), settle=False,
              screens={"phone": [bundle2], "laptop": [single1]}, badges={"phone": 2, "laptop": 1}),
         step(time(60), screen=[bundle2], badge=2),
         step(read("chat:1", "chat:2"), screens={"phone": [], "laptop": [bundle2]}, badges={"phone": 0, "laptop": 2},
              limits={"laptop": ["web-no-withdrawal"]}),
     ])

summary2 = note("summary", "summary", "New activity on Buzz", "2 new notifications", ["chat:2", "chat:1"])
case("two-devices-one-behind",
     "the tablet misses message 1's single (a 503) and a message in another thread comes before its retry: the answer"
     " withdraws t1 from both, which also takes the tablet's pending single back, and both end with the summary",
     [PHONE, TABLET], [
         step({"do": "device-fails", "device": "tablet", "count": 3}),
         step(create("1", text="Hello **world**"), settle=False, screens={"phone": [single1], "tablet": []}),
         step(create("2", thread="t2", threadTitle="Lunch", sender=("ben", "Ben"), text="Pizza?"), settle=False,
              screens={"phone": [summary2], "tablet": []}),
         step(time(60), screen=[summary2], badge=2),
     ])

# 7. Stale expiry.
case("stale-expiry",
     "a message grows stale and stays until the next answer; a message in another thread then withdraws it",
     [PHONE], [
         step(create("1", text="Hello **world**"), screen=[single1]),
         step(time(601), screen=[single1]),
         step(create("2", thread="t2", threadTitle="Lunch", sender=("ben", "Ben"), text="Pizza?"),
              screen=[note("t2", "single", "Ben", "Pizza?", ["chat:2"], subtitle="Lunch")], badge=2),
         step(time(601), screen=[note("t2", "single", "Ben", "Pizza?", ["chat:2"], subtitle="Lunch")]),
         step(read("chat:2"), screen=[], badge=1),
     ])

case("alert-lifetime-ends-during-retries",
     "with maxAgeSeconds 60 the tablet fails for longer than the single's lifetime: the relay drops the alert, runs"
     " the loop again, and its answer (message 1 is stale) withdraws t1 from the phone too; the tablet takes the"
     " withdrawal when it recovers",
     [PHONE, TABLET], [
         step({"do": "device-fails", "device": "tablet", "count": 12}),
         step(create("1", text="Hello **world**"), settle=False, screens={"phone": [single1], "tablet": []}),
         step(time(30), screens={"phone": [single1], "tablet": []}, settle=False),
         step(time(3600), screen=[], badge=1),
     ], maxAgeSeconds=60)

# 8. preview none, and a preview change.
case("preview-none",
     "with preview none no name, thread title or text is shown; switching to none replaces what the device shows"
     " quietly",
     [PHONE, TABLET], [
         step(create("1", text="Secret **plan**"),
              screen=[note("t1", "single", "Ana", "Secret plan", ["chat:1"], subtitle="Design")]),
         step({"do": "settings", "preview": "none"},
              screen=[note("t1", "single", "Buzz", "New message", ["chat:1"], alert=False)]),
         step(create("2", sender=("ben", "Ben"), text="at noon"),
              screen=[note("t1", "bundle", "Buzz", "2 new messages", ["chat:2", "chat:1"])]),
         step({"do": "settings", "preview": "sender"},
              screen=[note("t1", "bundle", "Design", "2 new messages", ["chat:2", "chat:1"], subtitle="Ben and Ana",
                           alert=False)]),
     ], settings={"preview": "full"})

# 9. A locale change mid-thread.
case("locale-change-mid-thread",
     "the recipient switches to German between two messages of a thread: the next answer's bundle is German",
     [LAPTOP, TABLET], [
         step(create("1", text="Hello **world**"), screen=[single1]),
         step(create("2", sender=("ben", "Ben"), text="Lunch?"), screen=[bundle2]),
         step({"do": "settings", "locale": "de"},
              screen=[note("t1", "bundle", "Design", "2 neue Nachrichten\nBen: Lunch?", ["chat:2", "chat:1"],
                           subtitle="Ben und Ana", alert=False)]),
         step(create("3", source="wiki", type="edit", thread=None, threadTitle=None, sender=("cleo", "Cleo"),
                     defaultText="Cleo edited Main Page"),
              screen=[note("summary", "summary", "Neue Aktivität in Buzz", "3 neue Benachrichtigungen",
                           ["wiki:3", "chat:2", "chat:1"])]),
     ])

# 10. A fetch failure and the recovery (screen.md section 5).
fallback_apns = note("fallback", "fallback", "Buzz", FALLBACK_BODY, [], alert=False)  # P9: a fallback is passive
fallback_other = note("fallback", "fallback", "Buzz", FALLBACK_BODY, [])
case("fetch-fails-then-recovers",
     "the fetch fails twice: a fallback joins what the device shows (passive on APNs), is not sent again, and the"
     " first successful fetch withdraws it and shows the bundle",
     [PHONE, TABLET], [
         step(create("1", text="Hello **world**"), screen=[single1]),
         step(time(1), screen=[single1]),
         step({"do": "fetch-fails", "count": 2}),
         step(create("2", sender=("ben", "Ben"), text="Lunch?"), settle=False,
              screens={"phone": [fallback_apns, single1], "tablet": [fallback_other, single1]}),
         step(time(60), screen=[bundle2], badge=2),
     ])
case("fetch-timeout-with-nothing-shown",
     "the fetch times out while nothing is shown: the fallback alone, then the bundle once the fetch succeeds",
     [LAPTOP], [
         step({"do": "fetch-fails", "count": 1, "as": "timeout"}, screen=[]),
         step(create("1", text="Hello **world**"), settle=False, screen=[fallback_other]),
         step(time(60), screen=[single1], badge=1),
     ])

# 11. Read here.
case("read-here-sibling-comes-back",
     "the recipient opens the summary on the phone and reads message 1: the phone removes it, the tablet's summary is"
     " withdrawn, and both show message 2 quietly",
     [PHONE, TABLET], [
         step(create("1", text="Hello **world**"), screen=[single1]),
         step(create("2", thread="t2", threadTitle="Lunch", sender=("ben", "Ben"), text="Pizza?"),
              screen=[note("summary", "summary", "New activity on Buzz", "2 new notifications",
                           ["chat:2", "chat:1"])]),
         step(read("chat:1", on="phone"),
              screen=[note("t2", "single", "Ben", "Pizza?", ["chat:2"], subtitle="Lunch", alert=False)], badge=1),
         step(read("chat:2", on="tablet"), screen=[], badge=0),
     ])

# 12. Own messages, and a compose the service refuses for a while.
case("own-message-not-shown",
     "a message the recipient sent from another device shows nothing and does not count in the badge",
     [PHONE], [
         step(create("1", sender=("me", "Me"), text="on my way"), screen=[], badge=0),
         step(create("2", sender=("ben", "Ben"), text="ok"),
              screen=[note("t1", "single", "Ben", "ok", ["chat:2"], subtitle="Design")], badge=1),
     ])
case("compose-unavailable-then-served",
     "the service answers 503 too-many-connections (Retry-After: 1) three times: the relay retries once after a"
     " second, gives the round up, and runs the loop again after its backoff",
     [TABLET], [
         step({"do": "compose-unavailable", "count": 3}, screen=[]),
         step(create("1", text="Hello **world**"), settle=False, screen=[]),
         step(time(120), screen=[single1], badge=1),
     ])
case("device-gone",
     "the laptop's subscription is gone (410): the relay deletes it and goes on with the phone",
     [PHONE, LAPTOP], [
         step(create("1", text="Hello **world**"), screen=[single1]),
         step({"do": "device-gone", "device": "laptop"}, screen=[single1]),
         step(create("2", sender=("ben", "Ben"), text="Lunch?"), screens={"phone": [bundle2], "laptop": [single1]}),
     ])

# 13. Issue 41: what latency, reordering, crashes and the platforms do (screen.md section 2: the
# stamp rule; docs/relay.md: the outbox).
IPHONE_PLAIN = dict(PHONE, platform="ios-plain")
single2_t2 = note("t2", "single", "Ben", "Pizza?", ["chat:2"], subtitle="Lunch")


def delay(device, seconds, payload="any", count=1):
    return {"do": "delay", "device": device, "seconds": seconds, "payload": payload, "count": count}


def crash(at, count=1):
    return {"do": "crash", "at": at, "count": count}


case("late-alert-after-a-withdrawal",
     "issue 41, 1: message 1's single reaches the phone 2 s late, after message 2's answer (a summary, t1"
     " withdrawn) arrived: older by its stamp than the summary and than the withdrawal of t1, it is ignored; no"
     " message shows twice",
     [PHONE, TABLET, LAPTOP], [
         step(delay("phone", 2, "alert")),
         step(create("1", text="Hello **world**"), settle=False, screens={"phone": [], "tablet": [single1],
                                                                         "laptop": [single1]}),
         step(time(0.5), settle=False, screens={"phone": [], "tablet": [single1], "laptop": [single1]}),
         step(create("2", thread="t2", threadTitle="Lunch", sender=("ben", "Ben"), text="Pizza?"), settle=False,
              screens={"phone": [summary2], "laptop": [summary2]}),
         step(time(5), screen=[summary2], badge=2),
     ])

bundle2_t1 = note("t1", "bundle", "Design", "2 new messages\nBen: Lunch?", ["chat:2", "chat:1"],
                  subtitle="Ben and Ana")
case("two-alerts-of-one-group-out-of-order",
     "issue 41, 2: message 1's single is delayed 3 s on every device and message 2's bundle of the same group"
     " arrives first: the single, older by its stamp than what the group shows, is ignored",
     [PHONE, TABLET, LAPTOP], [
         step(delay("phone", 3, "alert")), step(delay("tablet", 3, "alert")), step(delay("laptop", 3, "alert")),
         step(create("1", text="Hello **world**"), settle=False, screen=[]),
         step(time(1), settle=False, screen=[]),
         step(create("2", sender=("ben", "Ben"), text="Lunch?"), settle=False,
              screens={"phone": [bundle2_t1], "laptop": [bundle2_t1]}),
         step(time(5), screen=[bundle2_t1], badge=2),
     ])

case("crash-between-send-and-store",
     "issue 41, 3: the relay stores the answer and the outboxes before it sends. It dies once after storing"
     " (nothing sent yet: the restart sends the stored outboxes), then, with the fetch failing, after APNs accepted"
     " the phone's fallback but before recording it: the restarted relay sends the stored outboxes again (the phone"
     " ignores the copy by its stamp; the tablet gets its fallback), and since `displayed` records the"
     " fallback, the answer after both messages are read withdraws it with t1",
     [PHONE, TABLET], [
         step(crash("after-store")),
         step(create("1", text="Hello **world**"), screen=[single1], badge=1),
         step(time(1)),
         step({"do": "fetch-fails", "count": 1}),
         step(crash("after-send")),
         step(create("2", sender=("ben", "Ben"), text="Lunch?"), settle=False,
              screens={"phone": [fallback_apns, single1], "tablet": [fallback_other, single1]}),
         step(read("chat:1", "chat:2"), screen=[], badge=0),
     ])

single1_none = note("t1", "single", "Buzz", "New message", ["chat:1"], alert=False)
case("preview-change-with-a-failed-fetch-and-a-restart",
     "issue 41, 4: the recipient chooses preview none while the fetch fails: that loop's answer is a fallback, the"
     " refresh stays in the stored record, the relay restarts, and the first successful fetch replaces the single"
     " quietly in the tier none and withdraws the fallback",
     [PHONE, TABLET], [
         step(create("1", text="Secret **plan**"),
              screen=[note("t1", "single", "Ana", "Secret plan", ["chat:1"], subtitle="Design")]),
         step(time(1)),
         step({"do": "fetch-fails", "count": 1}),
         step({"do": "settings", "preview": "none"}, settle=False,
              screens={"phone": [fallback_apns, note("t1", "single", "Ana", "Secret plan", ["chat:1"],
                                                     subtitle="Design")],
                       "tablet": [fallback_other, note("t1", "single", "Ana", "Secret plan", ["chat:1"],
                                                       subtitle="Design")]}),
         step({"do": "restart"}, screen=[single1_none], badge=1),
     ])

single3 = note("t1", "single", "Cy", "three", ["chat:3"], subtitle="Design")
case("badge-withdrawal-retried-after-a-newer-alert",
     "issue 41, 5: the phone's push service fails once when message 1 is read elsewhere: the withdrawal (badge 0)"
     " waits in the outbox; message 3 arrives before the retry and its single (badge 1) is queued behind it, in"
     " stamp order: the phone ends with the single and the badge 1",
     [PHONE, TABLET], [
         step(create("1", text="one"), badge=1),
         step(time(1)),
         step({"do": "device-fails", "device": "phone", "count": 1}),
         step(read("chat:1"), settle=False,
              screens={"phone": [note("t1", "single", "Ana", "one", ["chat:1"], subtitle="Design")], "tablet": []},
              badges={"tablet": 0}),
         step(create("3", sender=("cy", "Cy"), text="three"), screen=[single3], badge=1),
     ])
case("badge-of-a-stale-message-while-a-withdrawal-waits",
     "issue 41, 5: the phone's withdrawal of message 1 (badge 0) waits for a retry when a message older than"
     " maxAgeSeconds arrives: nothing to show, but the unread count is 1 again; the device's stored badge is the"
     " queued 0, so the relay queues a badge-only withdrawal (badge 1) behind it",
     [PHONE, TABLET], [
         step(create("1", text="one"), badge=1),
         step(time(1)),
         step({"do": "device-fails", "device": "phone", "count": 1}),
         step(read("chat:1"), settle=False, badges={"tablet": 0}),
         {"event": {"do": "create", "notification": {"id": "2", "source": "chat", "type": "message", "thread": "t1",
                                                     "threadTitle": "Design",
                                                     "sender": {"id": "ben", "name": "Ben"}, "text": "old"},
                    "ago": 700},
          "screen": [], "badge": 1},
     ])

# 14. Issue 41, 6: the platforms' limits: a rule where one helps, a measured limit where none can.
bundle7 = note("t1", "bundle", "Design", "7 new messages\nAna: m7", [f"chat:{i}" for i in range(7, 0, -1)],
               subtitle="Ana")
case("android-rate-coalesced",
     "Android sheds a package's updates above 5 a second; seven messages 0.12 s apart: the app coalesces its posts"
     " (one every 200 ms, the newest of each group), so the tablet ends with the bundle of 7",
     [TABLET], [x for i in range(1, 8) for x in (step(create(str(i), text=f"m{i}"), settle=False),
                                                step(time(0.12), settle=False))] + [
         step(time(1), screen=[bundle7], badge=7),
     ])
case("apns-offline-keeps-the-last",
     "APNs keeps only the last notification for an offline device: the withdrawal of t1 (message 1 read"
     " elsewhere) is replaced by the badge-only withdrawal of a stale message, so the phone keeps the single of"
     " a read message: a measured limit (its shadow, given every payload, holds the invariant); the tablet, on"
     " FCM, gets both",
     [PHONE, TABLET], [
         step(create("1", text="one"), badge=1),
         step({"do": "offline", "device": "phone", "seconds": 60}, settle=False),
         step(read("chat:1"), settle=False),
         {"event": {"do": "create", "notification": {"id": "2", "source": "chat", "type": "message", "thread": "t1",
                                                     "threadTitle": "Design",
                                                     "sender": {"id": "ben", "name": "Ben"}, "text": "old"},
                    "ago": 700},
          "screens": {"phone": [note("t1", "single", "Ana", "one", ["chat:1"], subtitle="Design")], "tablet": []},
          "badge": 1, "limits": {"phone": ["apns-keep-last"]}},
     ])
case("ios-force-quit",
     "iOS does not launch a force-quit app for a background push: the withdrawal of message 1 (read elsewhere)"
     " never runs and the phone keeps it (a measured limit; the laptop gets no withdrawal either); the next"
     " alert's extension removes it",
     [PHONE, LAPTOP], [
         step(create("1", text="one"), badge=1),
         step(time(1)),
         step({"do": "force-quit", "device": "phone"}),
         step(read("chat:1"), screen=[note("t1", "single", "Ana", "one", ["chat:1"], subtitle="Design")], badge=1,
              limits={"phone": ["force-quit"], "laptop": ["web-no-withdrawal"]}),
         step({"do": "open-app", "device": "phone"}, limits={"phone": ["force-quit"], "laptop": ["web-no-withdrawal"]}),
         step(create("2", thread="t2", threadTitle="Lunch", sender=("ben", "Ben"), text="Pizza?"),
              screen=[single2_t2], badge=1, limits={"phone": ["force-quit"], "laptop": ["web-no-withdrawal"]}),
     ])
case("accepted-but-timed-out",
     "the push services accept message 1's single but the relay's requests time out: it retries, each device gets"
     " the single twice and ignores the copy by its stamp",
     [PHONE, TABLET, LAPTOP], [
         step({"do": "device-timeouts", "device": "phone", "count": 1}),
         step({"do": "device-timeouts", "device": "tablet", "count": 1}),
         step({"do": "device-timeouts", "device": "laptop", "count": 1}),
         step(create("1", text="Hello **world**"), screen=[single1], badge=1),
         step(time(1)),
         step(create("2", sender=("ben", "Ben"), text="Lunch?"), screen=[bundle2_t1], badge=2),
     ])
case("fcm-collapse-while-offline",
     "the tablet is offline while messages 1 and 2 of t1 arrive: FCM keeps the newest message of the collapse key"
     " t1, so the tablet gets the bundle alone when it is back",
     [TABLET, LAPTOP], [
         step({"do": "offline", "device": "tablet", "seconds": 30}, settle=False),
         step(create("1", text="Hello **world**"), settle=False, screens={"tablet": [], "laptop": [single1]}),
         step(create("2", sender=("ben", "Ben"), text="Lunch?"), settle=False, screens={"tablet": []}),
         step(time(31), screen=[bundle2_t1], badge=2),
     ])
case("web-gets-no-withdrawal",
     "a push must show a notification on the Web (Safari ends a subscription after pushes that show none, Chrome"
     " shows a generic one), so the relay sends the laptop no withdrawal: when message 1 is read elsewhere the"
     " laptop keeps its single and its badge (a measured limit) until message 2's alert, newer, removes it",
     [LAPTOP], [
         step(create("1", text="Hello **world**"), screen=[single1], badge=1, silent=0),
         step(read("chat:1"), screen=[single1], badge=1, silent=0, limits={"laptop": ["web-no-withdrawal"]}),
         step(create("2", thread="t2", threadTitle="Lunch", sender=("ben", "Ben"), text="Pizza?"),
              screen=[single2_t2], badge=1, silent=0, limits={"laptop": ["web-no-withdrawal"]}),
     ])
case("ios-plain-stale-alert-shows",
     "without the filtering entitlement the extension cannot suppress a stale alert: message 1's single, 3 s late,"
     " arrives after the summary withdrew t1 and shows beside it (a measured limit); the next answer's alert removes"
     " it",
     [IPHONE_PLAIN], [
         step(delay("phone", 3, "alert")),
         step(create("1", text="Hello **world**"), settle=False, screen=[]),
         step(time(1), settle=False, screen=[]),
         step(create("2", thread="t2", threadTitle="Lunch", sender=("ben", "Ben"), text="Pizza?"), settle=False,
              screen=[summary2]),
         step(time(5), screen=[summary2, single1], badge=2, limits={"phone": ["ios-plain"]}),
         step(create("3", thread="t3", threadTitle="Ops", sender=("cy", "Cy"), text="deploy"),
              screen=[note("summary", "summary", "New activity on Buzz", "3 new notifications",
                           ["chat:3", "chat:2", "chat:1"])], badge=3, limits={"phone": ["ios-plain"]}),
     ])
case("device-registered-gets-what-shows",
     "a laptop registers while message 1 shows on the phone: the loop runs with refresh, and the laptop gets the"
     " single quietly; the phone's is replaced quietly too",
     [PHONE], [
         step(create("1", text="Hello **world**"), screen=[single1], badge=1),
         step({"do": "register", "device": LAPTOP}, screen=[dict(single1, alert=False)], badge=1),
     ])

# 15. A withdrawal takes back only the groups it names: an answer that keeps its group without
# sending it (`send` false) still shows that group's older alert.
stale2 = {"event": {"do": "create", "notification": {"id": "2", "source": "chat", "type": "message", "thread": "t1",
                                                     "threadTitle": "Design", "sender": {"id": "ben", "name": "Ben"},
                                                     "text": "old"}, "ago": 700}}
case("fallback-withdrawn-while-the-group-stays",
     "message 1's single shows; a fetch fails and message 2 brings a fallback; message 2 is read and the next fetch"
     " succeeds: the answer keeps message 1 under t1 without sending it (send false) and withdraws the fallback. The"
     " withdrawal removes the fallback only: the single of t1, older than it, stays",
     [PHONE, TABLET], [
         step(create("1", text="Hello **world**"), screen=[single1], badge=1),
         step(time(1)),
         step({"do": "fetch-fails", "count": 1}),
         step(create("2", sender=("ben", "Ben"), text="Lunch?"), settle=False,
              screens={"phone": [fallback_apns, single1], "tablet": [fallback_other, single1]}),
         step(read("chat:2"), screen=[single1], badge=1),
     ])
case("late-alert-after-a-badge-only-withdrawal",
     "message 1's single is delayed 2 s; a message already stale arrives meanwhile: its answer keeps message 1"
     " under t1 without sending it and sends a badge-only withdrawal (badge 2), which arrives first. The single,"
     " older than the withdrawal, still shows (a withdrawal raises no floor), and its badge (1), older, is not"
     " applied",
     [PHONE, TABLET], [
         step(delay("phone", 2, "alert")), step(delay("tablet", 2, "alert")),
         step(create("1", text="Hello **world**"), settle=False, screen=[]),
         dict(stale2, settle=False, screen=[], badge=2),
         step(time(5), screen=[single1], badge=2),
     ])
case("badge-only-withdrawal-keeps-a-queued-alert",
     "the phone's push service fails once, so message 1's single waits in its outbox; a stale message's answer"
     " queues a badge-only withdrawal behind it, which drops no alert of a group it does not name: the phone gets"
     " the single, then the badge 2",
     [PHONE, TABLET], [
         step({"do": "device-fails", "device": "phone", "count": 1}),
         step(create("1", text="Hello **world**"), settle=False, screens={"phone": [], "tablet": [single1]}),
         dict(stale2, screen=[single1], badge=2),
     ])

# 16. The notification follows the conversation (compose.md C15, S3, S6; screen.md I8 to I10).
def edit(key, run=True, **members):
    event = {"do": "edit", "key": key, **members}
    if not run:
        event["run"] = False
    return event


def active(seconds):
    return {"do": "active", "seconds": seconds}


secret = note("t1", "single", "Ana", "my password is hunter2", ["chat:1"], subtitle="Design")
case("edit-replaces-the-text-quietly",
     "message 1 is shown, then edited: the single is replaced with the new text, quietly, so the old text leaves"
     " the lock screen",
     [PHONE, TABLET, LAPTOP], [
         step(create("1", text="my password is hunter2"), screen=[secret], badge=1),
         step(edit("chat:1", text="(edited: removed)"),
              screen=[dict(secret, body="(edited: removed)", alert=False)], badge=1),
     ])
mention1 = note("t1", "single", "Ana", "@bob look", ["chat:1"], subtitle="Design")
case("edit-removes-the-mention",
     "a mention is shown; an edit makes it a message without the mention: replaced quietly with the new text",
     [PHONE, TABLET], [
         step(create("1", type="mention", text="@bob look"), screen=[mention1], badge=1),
         step(edit("chat:1", type="message", text="look"), screen=[dict(mention1, body="look", alert=False)], badge=1),
     ])
look = note("t1", "single", "Ana", "look", ["chat:1"], subtitle="Design")
case("edit-adds-a-mention-and-alerts",
     "a message is shown; ten seconds later an edit makes it a mention: it alerts again, inside the alert window,"
     " because it became direct",
     [PHONE, TABLET], [
         step(create("1", text="look"), screen=[look], badge=1),
         step(time(10), screen=[look], badge=1),
         step(edit("chat:1", type="mention", text="@bob look"), screen=[dict(look, body="@bob look")], badge=1),
     ])
pair = note("t1", "bundle", "Design", "2 new messages\nBen: Lunch?", ["chat:2", "chat:1"], subtitle="Ben and Ana")
case("delete-replaces-the-bundle",
     "message 2 of a bundle is deleted: the single of message 1 replaces the bundle quietly and the badge drops",
     [PHONE, TABLET, LAPTOP], [
         step(create("1", text="Hello **world**"), screen=[single1], badge=1),
         step(create("2", sender=("ben", "Ben"), text="Lunch?"), screen=[dict(pair, alert=False)], badge=2),
         step({"do": "delete", "key": "chat:2"}, screen=[dict(single1, alert=False)], badge=1),
     ])
burst = [step(create("1", text="m1"), screen=[note("t1", "single", "Ana", "m1", ["chat:1"], subtitle="Design")],
              badge=1)]
for i in range(2, 11):
    burst.append(step(time(3)))
    burst.append(step(create(str(i), text=f"m{i}"),
                      screen=[note("t1", "bundle", "Design", f"{i} new messages\nAna: m{i}",
                                   [f"chat:{j}" for j in range(i, 0, -1)], subtitle="Ana", alert=False)],
                      badge=i))
case("burst-of-ten-alerts-once",
     "ten messages of one thread three seconds apart: the first alerts, the other nine replace the notification"
     " quietly (the 60-second alert window of its group)",
     [PHONE, TABLET, LAPTOP], burst)
case("active-elsewhere-then-read",
     "the recipient is active on another client for two minutes; message 1 arrives (held: nothing is sent) and is"
     " read there: it never shows nor alerts",
     [PHONE, TABLET], [
         step(active(120)),
         step(create("1", text="Hello **world**"), settle=False, screen=[]),
         step(time(30), settle=False, screen=[]),
         step(read("chat:1"), screen=[], badge=0),
     ])
case("active-elsewhere-then-not-read",
     "the recipient is active on another client for a minute; message 1 arrives and is held; nobody reads it: when"
     " the activity ends the relay composes again and the single alerts",
     [PHONE, TABLET], [
         step(active(60)),
         step(create("1", text="Hello **world**"), settle=False, screen=[]),
         step(time(90), screen=[single1], badge=1),
     ])

# The cases of sections 1 to 15 are about replacement, withdrawal, order and the platforms' limits, and
# expect every new message to alert; they run with the recipient's alert window off (`alertWindowSeconds`
# 0 in the relay's settings, compose.md S3), and section 16 has the window's own cases at its default.
WINDOW_OFF = {
    "bundle-one-by-one", "summary-across-threads", "read-elsewhere-unread-sibling",
    "read-elsewhere-while-new-arrives-same-group", "withdrawal-delayed-past-a-new-alert",
    "relay-restart-with-a-retry-pending", "transient-failure-one-of-two-devices", "preview-none",
    "locale-change-mid-thread", "fetch-fails-then-recovers", "device-gone", "two-alerts-of-one-group-out-of-order",
    "android-rate-coalesced", "accepted-but-timed-out", "fcm-collapse-while-offline", "ios-plain-stale-alert-shows",
    "badge-withdrawal-retried-after-a-newer-alert",
}
for c in CASES:
    if c["id"] in WINDOW_OFF:
        c["settings"] = dict(c.get("settings", {}), alertWindowSeconds=0)
assert WINDOW_OFF <= {c["id"] for c in CASES}

document = {
    "comment": "Sequences of events and what each device shows after each step (docs/spec/screen.md; the runner"
               " is in test-fixtures/README.md). Written by scripts/gen-scenario-fixture.py; edit that, not this.",
    "cases": CASES,
}
(ROOT / "test-fixtures" / "scenarios.json").write_text(
    json.dumps(document, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
print(f"test-fixtures/scenarios.json: {len(CASES)} cases")
