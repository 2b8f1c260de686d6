"""Sections 1 to 12: bundles, summaries, reads, retries, restarts, preview and locale, failures (screen.md
section 5)."""
from scenario_fixture.build import (
    LAPTOP, PHONE, TABLET, case, create, fallback_apns, fallback_other, note, read, single1, step, summary2, time)

# 1. Messages arriving one by one into a bundle (screen.md section 5, first table).
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
