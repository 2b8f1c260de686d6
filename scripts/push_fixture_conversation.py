"""push.json's cases of the notification that follows the conversation (compose.md C15, S2, S3, S6;
ADR 0044): entries record the text digest F of what was sent, when the group last alerted, and whether
the message was direct. `add(case, msg, shown, T, T1, NOW)` adds them through gen-push-fixture.py's helpers."""
from push_state import text_digest  # checks/push, on the path once the oracle is loaded


def add(case, msg, shown, T, T1, NOW):


    def sent(key, ts, group, title, body, subtitle=None, url=None, alerted=None, direct=False):
        """A displayed entry as an answer with push writes it: F of the texts it was sent with."""
        return shown(key, ts, group) | {"digest": text_digest({"title": title, "subtitle": subtitle, "body": body,
                                                               "url": url}),
                                        "alerted": alerted, "direct": direct}


    SECRET = "my password is hunter2"
    case("edit-replaces-quietly", "message 1 is shown with its old text and edited since: the digest differs, so the "
         "single is sent again, quietly (the keys are the same)",
         {"notifications": [msg("1", thread="t1", sender={"name": "Ana"}, text="(edited: removed)")],
          "displayed": [sent("1", T, "t1", "Ana", SECRET, alerted=T)], "push": {}})
    case("edit-same-text-not-sent", "the device shows exactly what the answer says (same keys, same digest): not sent",
         {"notifications": [msg("1", thread="t1", sender={"name": "Ana"}, text=SECRET)],
          "displayed": [sent("1", T, "t1", "Ana", SECRET, alerted=T)], "push": {}})
    case("edit-renamed-thread", "the thread was renamed: the subtitle and so the digest change, a quiet send",
         {"notifications": [msg("1", thread="t1", threadTitle="Launch", sender={"name": "Ana"}, text="hi")],
          "displayed": [sent("1", T, "t1", "Ana", "hi", subtitle="Design", alerted=T)], "push": {}})
    case("edit-tier-changed", "the recipient chose preview none: the generic text differs from the full one sent, a "
         "quiet send that takes the text off the lock screen",
         {"preview": "none", "notifications": [msg("1", thread="t1", sender={"name": "Ana"}, text=SECRET)],
          "displayed": [sent("1", T, "t1", "Ana", SECRET, alerted=T)], "push": {}})
    case("edit-made-direct-alerts", "an edit added a mention to message 1 (type mention now, recorded not direct): sent "
         "and alerts, though inside the window",
         {"notifications": [msg("1", type="mention", thread="t1", sender={"name": "Ana"}, text="@you look")],
          "displayed": [sent("1", T, "t1", "Ana", "look", alerted="2026-11-29T11:59:50Z")], "push": {}})
    case("edit-unmention-quiet", "an edit removed the mention (recorded direct, a message now): the text changed, sent "
         "quietly",
         {"notifications": [msg("1", thread="t1", sender={"name": "Ana"}, text="look")],
          "displayed": [sent("1", T, "t1", "Ana", "@you look", alerted=T, direct=True)], "push": {}})
    case("edit-deleted-message-withdrawn", "message 2 was deleted (no longer fetched), 1 of t2 remains: t1 withdrawn",
         {"notifications": [msg("1", ts=T1, thread="t2", sender={"name": "Ana"}, text="hi")],
          "displayed": [sent("2", T, "t1", "Ben", "bye", alerted=T), sent("1", T1, "t2", "Ana", "hi", alerted=T1)],
          "push": {}})
    case("burst-inside-window-quiet", "message 1 alerted 30 s ago under t1, message 2 arrives: a new key inside the "
         "60 s window, sent quietly, the window's start carried",
         {"notifications": [msg("1", ts=T1, thread="t1", text="first"), msg("2", thread="t1", text="second")],
          "displayed": [sent("1", T1, "t1", "New message", "first", alerted="2026-11-29T11:59:30Z")], "push": {}})
    case("burst-window-over-alerts", "the group alerted 61 s ago: outside the window, the new key alerts",
         {"notifications": [msg("1", ts=T1, thread="t1", text="first"), msg("2", thread="t1", text="second")],
          "displayed": [sent("1", T1, "t1", "New message", "first", alerted="2026-11-29T11:58:59Z")], "push": {}})
    case("burst-window-edge-alerts", "the group alerted exactly 60 s ago: not later than now minus the window, alerts",
         {"notifications": [msg("1", ts=T1, thread="t1", text="first"), msg("2", thread="t1", text="second")],
          "displayed": [sent("1", T1, "t1", "New message", "first", alerted="2026-11-29T11:59:00Z")], "push": {}})
    case("burst-window-zero", "alertWindowSeconds 0: every new key alerts",
         {"notifications": [msg("1", ts=T1, thread="t1", text="first"), msg("2", thread="t1", text="second")],
          "displayed": [sent("1", T1, "t1", "New message", "first", alerted="2026-11-29T11:59:59Z")],
          "push": {"alertWindowSeconds": 0}})
    case("burst-window-long", "alertWindowSeconds 3600: a group that alerted 20 minutes ago stays quiet",
         {"notifications": [msg("1", ts=T1, thread="t1", text="first"), msg("2", thread="t1", text="second")],
          "displayed": [sent("1", T1, "t1", "New message", "first", alerted="2026-11-29T11:40:00Z")],
          "push": {"alertWindowSeconds": 3600}})
    case("burst-direct-alerts-inside-window", "a mention arrives inside the window: a direct message always alerts",
         {"notifications": [msg("1", ts=T1, thread="t1", text="first"), msg("2", type="mention", thread="t1",
                                                                             text="@you now")],
          "displayed": [sent("1", T1, "t1", "New message", "first", alerted="2026-11-29T11:59:30Z")], "push": {}})
    case("burst-other-group-alerts", "the window is per group: t1 alerted 10 s ago, a message of t2 makes a summary, "
         "a group that never alerted",
         {"notifications": [msg("1", ts=T1, thread="t1", text="first"), msg("2", thread="t2", text="second")],
          "displayed": [sent("1", T1, "t1", "New message", "first", alerted="2026-11-29T11:59:50Z")], "push": {}})
    case("active-elsewhere-held", "the recipient is active on another client for another minute: the alert is held, "
         "nothing sent or withdrawn, the state kept, heldUntil the instant to compose again",
         {"notifications": [msg("1", ts=T1, thread="t1", text="first"), msg("2", thread="t2", text="second")],
          "displayed": [sent("1", T1, "t1", "New message", "first", alerted=T1)],
          "push": {"activeUntil": "2026-11-29T12:01:00Z"}})
    case("active-elsewhere-direct-held", "a mention while active elsewhere is held too",
         {"notifications": [msg("1", type="mention", thread="t1", text="@you")],
          "push": {"activeUntil": "2026-11-29T12:01:00.5+00:00"}})
    case("active-elsewhere-quiet-not-held", "active elsewhere, message 1 read there while 2 stays unread: a quiet "
         "correction is not held",
         {"notifications": [msg("1", ts=T1, thread="t1", read=True), msg("2", thread="t1", text="second")],
          "displayed": [sent("2", T, "t1", "New message", "second", alerted=T1),
                        sent("1", T1, "t1", "New message", "first", alerted=T1)],
          "push": {"activeUntil": "2026-11-29T12:01:00Z"}})
    case("active-elsewhere-over", "activeUntil is not later than now: the new key alerts",
         {"notifications": [msg("1", thread="t1", text="first")], "push": {"activeUntil": NOW}})
    case("active-elsewhere-fallback-held", "the fetch fails while the recipient is active elsewhere: the fallback's "
         "alert is held, no fallback entry recorded",
         {"fetch": "timeout", "displayed": [sent("1", T1, "t1", "New message", "first", alerted=T1)],
          "push": {"activeUntil": "2026-11-29T12:00:30Z"}})
    case("entries-without-digests-read-as-before", "entries stored before digests were recorded: same keys under the "
         "group, not sent (the upgrade sends nothing); the answer records all six members",
         {"notifications": [msg("1", ts=T1, thread="t1"), msg("2", thread="t1")],
          "displayed": [shown("2", T, "t1"), shown("1", T1, "t1")], "push": {}})
