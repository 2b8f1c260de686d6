#!/usr/bin/env python3
"""Writes test-fixtures/scenarios.json: sequences of events and, after each
step, what every device shows (docs/spec/screen.md). The expected screens are
written by hand in the sections of scripts/scenario_fixture/ from docs/spec/compose.md, push.md and
screen.md, and the catalogs of l10n/; nothing here runs the service. Edit those and run this script
(`python3 scripts/gen-scenario-fixture.py`), never the JSON.
"""
import importlib
import json
import pathlib

from scenario_fixture.build import CASES

ROOT = pathlib.Path(__file__).resolve().parent.parent

SECTIONS = ["replacement", "delivery", "conversation"]
for section in SECTIONS:
    importlib.import_module("scenario_fixture." + section)

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
