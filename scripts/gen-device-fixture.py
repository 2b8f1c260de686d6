#!/usr/bin/env python3
"""Writes test-fixtures/device.json: payloads as a device receives them, in
any order, late or twice, and what it must show after each (screen.md
section 2, push.md P22). The expected screens are written by hand below from
the spec; nothing here runs a model. Edit this script and run it
(`python3 scripts/gen-device-fixture.py`), never the JSON.
"""
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
CASES = []


def case(id, description, steps):
    CASES.append({"id": id, "description": description, "steps": steps})


def alert(group, stamp, kind="single", badge=None):
    payload = {"do": "alert", "group": group, "stamp": stamp, "kind": kind}
    if badge is not None:
        payload["badge"] = badge
    return payload


def withdrawal(groups, stamp, badge=None):
    payload = {"do": "withdrawal", "groups": list(groups), "stamp": stamp}
    if badge is not None:
        payload["badge"] = badge
    return payload


def open_(group):
    return {"do": "open", "group": group}


def step(payload, screen, badge=None, posted=True):
    """`screen`: the groups shown after the payload, each with the stamp of
    the payload that posted it, in group key order; `posted`, for an alert:
    whether the rule posts it (false: ignored whole)."""
    s = {"payload": payload}
    if payload["do"] == "alert":
        s["posted"] = posted
    s["screen"] = [{"group": g, "stamp": st} for g, st in sorted(screen)]
    if badge is not None:
        s["badge"] = badge
    return s


case("in-order", "a single, then a bundle of its group, then everything read",
     [step(alert("t1", 5), [("t1", 5)]),
      step(alert("t1", 6, "bundle"), [("t1", 6)]),
      step(withdrawal(["t1"], 7), [])])
case("late-alert-after-its-withdrawal", "message 1's single (5) arrives after the answer that withdrew it (6) and "
     "its summary: ignored, below the floor",
     [step(withdrawal(["t1"], 6), []),
      step(alert("summary", 6, "summary"), [("summary", 6)]),
      step(alert("t1", 5), [("summary", 6)], posted=False)])
case("summary-before-the-withdrawal", "the summary (6) arrives first and removes the older single by its floor; the "
     "withdrawal of t1 (6) then finds nothing older",
     [step(alert("t1", 5), [("t1", 5)]),
      step(alert("summary", 6, "summary"), [("summary", 6)]),
      step(withdrawal(["t1"], 6), [("summary", 6)])])
case("one-group-out-of-order", "the bundle (7) arrives before the single it replaced (6): the single is ignored",
     [step(alert("t1", 7, "bundle"), [("t1", 7)]),
      step(alert("t1", 6), [("t1", 7)], posted=False)])
case("withdrawal-after-a-newer-alert", "a withdrawal of t1 (6) delayed past a new alert of t1 (7): it removes nothing",
     [step(alert("t1", 5), [("t1", 5)]),
      step(alert("t1", 7), [("t1", 7)]),
      step(withdrawal(["t1"], 6), [("t1", 7)])])
case("duplicate-after-open", "the user opens the notification; a retry of the same payload (a timed-out request "
     "the push service had accepted) is ignored",
     [step(alert("t1", 5), [("t1", 5)]),
      step(open_("t1"), []),
      step(alert("t1", 5), [], posted=False)])
case("fallback-beside-the-notification", "a fallback (a failed fetch) keeps what is shown; the next answer of a "
     "successful fetch removes the fallback by its floor",
     [step(alert("t1", 5), [("t1", 5)]),
      step(alert("fallback", 6, "fallback"), [("fallback", 6), ("t1", 5)]),
      step(alert("t1", 7, "bundle"), [("t1", 7)])])
case("late-fallback", "a fallback (6) delivered after the recovery's bundle (7): ignored",
     [step(alert("t1", 7, "bundle"), [("t1", 7)]),
      step(alert("fallback", 6, "fallback"), [("t1", 7)], posted=False)])
case("withdrawal-removes-only-its-groups", "a withdrawal of the fallback alone (its answer keeps t1 without sending it "
     "again) leaves t1's notification, older than it",
     [step(alert("t1", 5), [("t1", 5)]),
      step(alert("fallback", 6, "fallback"), [("fallback", 6), ("t1", 5)]),
      step(withdrawal(["fallback"], 7), [("t1", 5)])])
case("badge-only-withdrawal-leaves-the-floor", "a badge-only withdrawal (7) arrives before the alert of t1 (6) still "
     "on its way: the alert is still posted, and sets no older badge",
     [step(withdrawal([], 7, badge=0), [], badge=0),
      step(alert("t1", 6, badge=1), [("t1", 6)], badge=0)])
case("late-alert-of-a-withdrawn-group", "the withdrawal of t1 (6) arrives before an older alert of t1 (5): ignored",
     [step(withdrawal(["t1"], 6), []),
      step(alert("t1", 5), [], posted=False)])
case("badge-in-stamp-order", "a badge-0 withdrawal (6) retried after a newer alert's badge 2 (7) does not set the "
     "badge back; a payload without badge leaves it",
     [step(alert("t1", 7, badge=2), [("t1", 7)], badge=2),
      step(withdrawal([], 6, badge=0), [("t1", 7)], badge=2),
      step(alert("fallback", 8, "fallback"), [("fallback", 8), ("t1", 7)], badge=2),
      step(alert("t2", 9, badge=3), [("t2", 9)], badge=3)])
case("older-alert-after-open", "an older alert of a group the user opened stays ignored",
     [step(alert("t1", 5), [("t1", 5)]),
      step(open_("t1"), []),
      step(alert("t1", 4), [], posted=False)])
case("fallback-replaced", "a fallback replaces the fallback; the next alert of a successful fetch removes it",
     [step(alert("fallback", 1, "fallback"), [("fallback", 1)]),
      step(alert("fallback", 2, "fallback"), [("fallback", 2)]),
      step(alert("t9", 3, "summary"), [("t9", 3)])])


def main():
    out = {"comment": "Payloads as a device receives them and what it shows after each: docs/spec/screen.md "
                          "section 2 (the stamp rule). See test-fixtures/README.md, device.json.",
           "cases": CASES}
    path = ROOT / "test-fixtures" / "device.json"
    path.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(CASES)} cases to {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
