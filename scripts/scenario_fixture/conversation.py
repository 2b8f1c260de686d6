"""Section 16: the notification follows the conversation: edits, deletes, the alert window and activity
elsewhere (compose.md C15, S3, S6; screen.md I8 to I10)."""
from scenario_fixture.build import LAPTOP, PHONE, TABLET, active, case, create, edit, note, read, single1, step, time

# 16. The notification follows the conversation (compose.md C15, S3, S6; screen.md I8 to I10).
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
