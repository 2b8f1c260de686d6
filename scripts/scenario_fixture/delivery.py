"""Sections 13 to 15: latency, reordering, crashes and the platforms' limits (screen.md section 2, the
stamp rule; docs/relay.md, the outbox), and withdrawals that take back only the groups they name."""
from scenario_fixture.build import (
    IPHONE_PLAIN, LAPTOP, PHONE, TABLET, case, crash, create, delay, fallback_apns, fallback_other, note, read,
    single1, step, summary2, time)

# 13. Issue 41: what latency, reordering, crashes and the platforms do (screen.md section 2: the
# stamp rule; docs/relay.md: the outbox).
single2_t2 = note("t2", "single", "Ben", "Pizza?", ["chat:2"], subtitle="Lunch")


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
