"""push.json's cases of the sender's and the conversation's identity (push.md P24) and of a notification's
importance (compose.md C16, S3; push.md P9). `add(case, msg, T, NOW)` adds them through gen-push-fixture.py's
helpers."""

AVATAR = "https://chat.example/a/ana.png"


def add(case, msg, T, NOW):
    ana = {"id": "u-ana", "name": " Ana ", "avatar": AVATAR}
    group_msg = msg(thread="t1", threadTitle="Design", threadIsGroup=True, sender=ana, text="hi")

    # P24: the lead's sender and conversation, in every payload.
    case("identity-group-full", "Ana writes in the group conversation Design: sender (name normalised) and "
         "conversation in every payload, and in the answer's push", {"notifications": [group_msg], "push": {}})
    case("identity-group-declarative", "the same with a declarative Web Push payload: the identity in its data",
         {"notifications": [group_msg], "push": {"webPush": "declarative", "navigate": "https://chat.example/"}})
    case("identity-group-tier-sender", "preview sender keeps the names and the picture",
         {"preview": "sender", "notifications": [group_msg], "push": {}})
    case("identity-group-tier-none", "preview none: no sender, the conversation without its title",
         {"preview": "none", "notifications": [group_msg], "push": {}})
    case("identity-one-to-one", "a conversation of two (threadIsGroup absent): group false",
         {"notifications": [msg(thread="dm-ana", sender={"id": "u-ana", "name": "Ana"}, text="hi")], "push": {}})
    case("identity-hashed-id", "a sender id that is not a group key is carried as its digest; no thread, no "
         "conversation", {"notifications": [msg(sender={"id": "user 42"}, text="hi")], "push": {}})
    case("identity-long-id", "a sender id of 65 bytes is carried as its digest",
         {"notifications": [msg(thread="t1", sender={"id": "u" * 65, "name": "Ana"}, text="hi")], "push": {}})
    case("identity-bundle-newest", "a bundle: the newest message's sender leads",
         {"notifications": [msg("1", ts="2026-11-29T11:58:00Z", thread="t1", threadTitle="Design",
                                threadIsGroup=True, sender={"id": "u-ben", "name": "Ben"}, text="older"),
                            msg("2", thread="t1", threadTitle="Design", threadIsGroup=True, sender=ana,
                                text="newer")], "push": {}})
    case("identity-summary-none", "a summary has no lead: sender and conversation null",
         {"notifications": [msg("1", thread="t1", sender=ana, text="one"),
                            msg("2", thread="t2", sender=ana, text="two")], "push": {}})
    case("identity-non-message-none", "a single non-message has no lead",
         {"notifications": [msg(type="wiki-edit", thread="Main", sender=ana, defaultText="Ana edited Main")],
          "push": {}})
    case("identity-control-name", "a name of controls: escaped in the payloads, the title cap applied",
         {"notifications": [msg(thread="t1", sender={"id": "u1", "name": "\u0001" * 300}, text="hi")], "push": {}})
    case("identity-cut-with-url", "a 3,000-byte url and a 4,000-character body: the url is left out, the "
         "identity stays beside the body",
         {"maxUnits": 4096, "notifications": [msg(thread="t1", threadTitle="Design", threadIsGroup=True, sender=ana,
                                                  text="z" * 4000, url="https://chat.example/" + "u" * 2980)],
          "push": {}})
    case("identity-cut-reserve", "the same with reserveBytes 2040: the identity is left out too, named in cut",
         {"maxUnits": 4096, "notifications": [msg(thread="t1", threadTitle="T" * 250, threadIsGroup=True,
                                                  sender={"id": "u" * 64, "name": "N" * 250, "avatar": AVATAR},
                                                  text="z" * 4000, url="https://chat.example/" + "u" * 2980)],
          "push": {"reserveBytes": 2040}})

    # compose.md C16 and S3, push.md P9: importance.
    recent = "2026-11-29T11:59:50Z"
    shown_t1 = {"key": "1", "timestamp": T, "group": "t1", "alerted": recent}
    case("importance-high-in-window", "a high message new to the device in a group that alerted 10 s ago: alerts, "
         "time-sensitive, Urgency high, FCM data importance high",
         {"notifications": [msg("1", thread="t1", sender={"name": "Ana"}, text="one"),
                            msg("2", ts="2026-11-29T11:59:30Z", thread="t1", sender={"name": "Ben"}, text="urgent",
                                importance="high")],
          "displayed": [shown_t1], "push": {}})
    case("importance-normal-in-window", "the same message of importance normal: sent quietly inside the window",
         {"notifications": [msg("1", thread="t1", sender={"name": "Ana"}, text="one"),
                            msg("2", ts="2026-11-29T11:59:30Z", thread="t1", sender={"name": "Ben"}, text="urgent",
                                importance="normal")],
          "displayed": [shown_t1], "push": {}})
    case("importance-low-quiet", "a low message alone, new to the device: sent, alert false, passive, relevance "
         "0.1, priority 5, FCM normal, Urgency low",
         {"notifications": [msg(thread="t1", sender={"name": "Ana"}, text="digest", importance="low")], "push": {}})
    case("importance-low-declarative", "the same, declarative: silent true",
         {"notifications": [msg(thread="t1", sender={"name": "Ana"}, text="digest", importance="low")],
          "push": {"webPush": "declarative", "navigate": "https://chat.example/"}})
    case("importance-low-mention", "a low mention: not even a direct message alerts when low",
         {"notifications": [msg(type="mention", thread="t1", sender={"name": "Ana"}, text="@you fyi",
                                importance="low")], "push": {}})
    case("importance-summary-mixed", "a summary of a low message and a normal one: alerts, importance normal",
         {"notifications": [msg("1", thread="t1", sender={"name": "Ana"}, text="one", importance="low"),
                            msg("2", thread="t2", sender={"name": "Ben"}, text="two")], "push": {}})
    case("importance-summary-low", "a summary of two low messages: quiet, importance low",
         {"notifications": [msg("1", thread="t1", sender={"name": "Ana"}, text="one", importance="low"),
                            msg("2", thread="t2", sender={"name": "Ben"}, text="two", importance="low")],
          "push": {}})
    case("importance-high-bundle-lead-is-newest", "a bundle whose older message is high: urgent, and the newest "
         "still leads the body",
         {"notifications": [msg("1", ts="2026-11-29T11:58:00Z", thread="t1", sender={"name": "Ben"},
                                text="the server is down", importance="high"),
                            msg("2", thread="t1", sender={"name": "Ana"}, text="lunch?")], "push": {}})
    case("importance-high-held", "a high message while active elsewhere is held, as any alert",
         {"notifications": [msg(thread="t1", sender={"name": "Ana"}, text="urgent", importance="high")],
          "push": {"activeUntil": "2026-11-29T12:05:00Z"}})
    case("importance-fallback-normal", "a fallback has the importance normal whatever it covered",
         {"fetch": "failed", "notifications": [msg(importance="high")], "push": {}})


INVALID = [
    ("importance-unknown-word", "an importance other than low, normal, high",
     {"notifications": [{"id": "1", "type": "message", "timestamp": "2026-11-29T11:59:00Z", "importance": "urgent"}]},
     "invalid-value"),
    ("importance-not-a-string", "an importance that is a number",
     {"notifications": [{"id": "1", "type": "message", "timestamp": "2026-11-29T11:59:00Z", "importance": 2}]},
     "invalid-type"),
    ("avatar-relative", "a sender avatar that is not a navigable URL",
     {"notifications": [{"id": "1", "type": "message", "timestamp": "2026-11-29T11:59:00Z",
                         "sender": {"avatar": "/a/ana.png"}}]}, "invalid-value"),
    ("avatar-513-bytes", "a sender avatar of 513 bytes",
     {"notifications": [{"id": "1", "type": "message", "timestamp": "2026-11-29T11:59:00Z",
                         "sender": {"avatar": "https://a.example/" + "v" * 495}}]}, "invalid-value"),
    ("thread-is-group-not-boolean", "a threadIsGroup that is a string",
     {"notifications": [{"id": "1", "type": "message", "timestamp": "2026-11-29T11:59:00Z",
                         "threadIsGroup": "yes"}]}, "invalid-type"),
]
