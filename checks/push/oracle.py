#!/usr/bin/env python3
"""Independent reading of docs/spec/push.md (and compose.md's `preview`,
`direction` and `push` members) in Python.

Given a compose request and the service's answer to the same request without
`preview` and `push` (the full tier, from `notification-text compose`), the
oracle writes what push.md says the answer becomes: the preview tier's
`notification`, `direction`, and the `push` object. Grapheme clusters come
from the PyPI package `regex` (`\\X`), hashes from hashlib, sizes from
json.dumps(ensure_ascii=False, separators=(",", ":")), which escapes exactly
what push.md P20 escapes.

  --self-test --cli PATH   every case of test-fixtures/push.json: the full-tier
                           answer from `PATH compose`, the oracle's answer
                           compared with the fixture's, and the invariants
                           (fits, cuts on grapheme boundaries, no tier leaks)
                           checked on every case.
  --random N --cli PATH    N random hostile requests, half of them with a
                           declarative Web Push payload (P23): the oracle's own
                           answer must fit and keep the invariants (a
                           declarative payload passes push_declarative.py's
                           validator), and the service's `push` (one
                           `compose --json-lines` run) must be the oracle's.
  --encrypt                with --random: every Web Push payload, alert and
                           withdrawal, encrypted by pywebpush into one
                           4,096-byte aes128gcm record (push_encrypt.py).
  --fcm                    with --random: every FCM message, alert and
                           withdrawal, built by firebase-admin with the token
                           merged, as the service wrote it (push_fcm.py).

Exit status: 0 when everything agrees, 1 otherwise.
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parent))
from push_declarative import self_test as validator_self_test  # noqa: E402
from push_fit import group_key  # noqa: E402
from push_invariants import invariants  # noqa: E402
from push_problems import problem  # noqa: E402
from push_rules import REPO, Catalogs, expected, sizes  # noqa: E402
from push_state import next_state  # noqa: E402

# MARK: running

def base_answer(cli, request):
    plain_request = {k: v for k, v in request.items() if k not in ("preview", "push")}
    run = subprocess.run([cli, "compose"], input=json.dumps(plain_request).encode(), capture_output=True, timeout=60)
    if run.returncode != 0:
        raise RuntimeError(f"compose exited {run.returncode}: {run.stderr.decode()[:200]}")
    return json.loads(run.stdout)


def self_test(cli, catalogs):
    fixture = json.loads((REPO / "test-fixtures" / "push.json").read_text(encoding="utf-8"))
    failed = 0
    for case in fixture["cases"]:
        base = base_answer(cli, case["request"])
        got = expected(case["request"], base, catalogs)
        problems = invariants(case["request"], got)
        source = base["notification"]["threadIdentifier"]
        state = next_state(case["request"], base, group_key(source if source is not None else "fallback"))
        if base["displayed"] != state:
            problems.append(f"displayed {json.dumps(base['displayed'])[:300]}, C10 gives {json.dumps(state)[:300]}")
        if json.dumps(got, sort_keys=True) != json.dumps(case["response"], sort_keys=True):
            problems.append(f"want {json.dumps(case['response'], ensure_ascii=False)[:400]}\n  got  "
                            f"{json.dumps(got, ensure_ascii=False)[:400]}")
        if "push" in got and sizes(got) != case["sizes"]:
            problems.append(f"sizes {sizes(got)}, fixture {case['sizes']}")
        if problems:
            failed += 1
            print(f"FAIL {case['id']}\n  " + "\n  ".join(problems))
    for case in fixture["cases"]:
        if problem(case["request"]) is not None:
            failed += 1
            print(f"FAIL {case['id']}: the oracle rejects it ({problem(case['request'])})")
    for case in fixture["invalid"]:
        if problem(case["request"]) != case["code"]:
            failed += 1
            print(f"FAIL {case['id']}: want {case['code']}, the oracle gives {problem(case['request'])}")
    print(f"push oracle: {len(fixture['cases']) - failed} of {len(fixture['cases'])} cases agree, "
          f"{len(fixture['invalid'])} invalid requests checked")
    return failed == 0


def hostile_text(rng, n):
    pool = ["a", " ", "\n", "\"", "\\", "\u0001", "\u001f", "\u00e9", "e\u0301", "\u4e2d", "\u6587", "\U0001F44D",
            "\U0001F468\u200d\U0001F469\u200d\U0001F467", "\U0001F1EB\U0001F1F7", "\u05e9", "\u0627", "\u2068",
            "*", "`", "\u2028", "\U0001F3FD", "\r\n"]
    return "".join(rng.choice(pool) for _ in range(n))


def random_request(rng, locales):
    big = rng.random() < 0.7
    notes = []
    thread = rng.choice(["t1", hostile_text(rng, rng.randint(1, 90)), "x" * 64, "x" * 65])
    for j in range(rng.choice([0, 1, 1, 2, 3])):
        notes.append({"id": f"n{j}", "type": rng.choice(["message", "mention", "reply", "wiki-edit"]),
                      "timestamp": f"2026-11-29T11:5{rng.randint(0, 9)}:0{rng.randint(0, 9)}Z",
                      "thread": thread, "threadTitle": hostile_text(rng, rng.randint(0, 300)),
                      "sender": {"name": hostile_text(rng, rng.randint(0, 300)),
                                 "id": rng.choice([None, "u1", hostile_text(rng, rng.randint(1, 200))]),
                                 "avatar": rng.choice([None, "https://a.example/" + "v" * rng.randint(1, 494)])},
                      "threadIsGroup": rng.choice([None, False, True]),
                      "importance": rng.choice([None, "low", "normal", "high"]),
                      "text": hostile_text(rng, rng.randint(0, 5000 if big else 50)),
                      "url": rng.choice([None, "https://e.example/" + "u" * rng.randint(0, 5000),
                                         "/relative/" + hostile_text(rng, 3)]),
                      "read": rng.random() < 0.1})
    request = {"now": "2026-11-29T12:00:00Z", "notifications": notes, "maxUnits": rng.choice([256, 1024, 4096]),
               "locale": rng.choice(locales), "preview": rng.choice(["full", "sender", "none"]),
               "app": hostile_text(rng, rng.randint(0, 300)),
               "push": {"reserveBytes": rng.choice([0, 1, 500, 2048]), "badge": rng.choice([None, 0, 2147483647]),
                        "androidChannel": rng.choice([None, "m", "\"\\" * 64]),
                        "stamp": rng.choice([None, 0, 1795953600001, 2**53 - 1])}}
    if rng.random() < 0.5:  # P23: half of them declarative, with app URLs up to the longest allowed
        request["push"] |= {"webPush": "declarative", "mutable": rng.choice([None, False, True]),
                            "navigate": "https://a.example/" + "p" * rng.choice([0, 40, 512 - 18])}
    request["notifications"] = [{k: v for k, v in n.items() if v is not None} for n in notes]
    for n in request["notifications"]:
        n["sender"] = {k: v for k, v in n["sender"].items() if v is not None}
    request["push"] = {k: v for k, v in request["push"].items() if v is not None}
    return request


def answers(cli, requests):
    """The service's answers to `requests`, through one `compose --json-lines`."""
    lines = "".join(json.dumps(r) + "\n" for r in requests).encode()
    run = subprocess.run([cli, "compose", "--json-lines"], input=lines, capture_output=True, timeout=1800)
    if run.returncode != 0:
        raise RuntimeError(f"compose --json-lines exited {run.returncode}: {run.stderr.decode()[:200]}")
    return [json.loads(line) for line in run.stdout.decode().split("\n") if line]


def random_requests(cli, catalogs, count, seed, payloads=None, fcm=None):
    """`count` random hostile requests: the oracle's answer keeps the invariants and the service's `push`
    is the oracle's, byte for byte in size. `payloads`, when given, collects every Web Push payload, `fcm`
    every FCM message."""
    rng = random.Random(seed)
    locales = sorted(catalogs.files)
    requests = [random_request(rng, locales) for _ in range(count)]
    plain = answers(cli, [{k: v for k, v in r.items() if k not in ("preview", "push")} for r in requests])
    served = answers(cli, requests)
    failed = declarative = 0
    largest = {}
    for i, (request, base, got) in enumerate(zip(requests, plain, served)):
        answer = expected(request, base, catalogs)
        problems = invariants(request, answer)
        if json.dumps(got.get("push"), sort_keys=True) != json.dumps(answer["push"], sort_keys=True):
            problems.append(f"the service's push differs: {json.dumps(got.get('push'), ensure_ascii=False)[:300]}")
        else:
            for name, value in sizes(got).items():
                if name.startswith("withdrawal"):
                    continue  # never cut: push.md P21 bounds them
                largest[name] = max(largest.get(name, 0), value + (request["push"].get("reserveBytes") or 0))
        declarative += "web_push" in answer["push"]["webpush"]["payload"]
        if payloads is not None:
            payloads.append(got["push"]["webpush"]["payload"])
            payloads.append(got["push"]["withdrawal"]["webpush"]["payload"])
        if fcm is not None:
            fcm.append(got["push"]["fcm"]["message"])
            fcm.append(got["push"]["withdrawal"]["fcm"]["message"])
        if problems:
            failed += 1
            print(f"FAIL random {i}\n  " + "\n  ".join(problems))
    print(f"push oracle: {count - failed} of {count} random requests ({declarative} declarative) keep the "
          f"invariants and match the service; the largest alert payload plus its reserveBytes: "
          + ", ".join(f"{k} {v}" for k, v in sorted(largest.items())))
    return failed == 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("--random", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cli", required=True)
    parser.add_argument("--encrypt", action="store_true",
                        help="encrypt every Web Push payload of the random requests with pywebpush (push_encrypt.py)")
    parser.add_argument("--fcm", action="store_true",
                        help="build every FCM message of the random requests with firebase-admin (push_fcm.py)")
    args = parser.parse_args()
    catalogs = Catalogs()
    ok = True
    if args.self_test:
        ok = validator_self_test() and self_test(args.cli, catalogs) and ok
    if args.random:
        payloads = [] if args.encrypt else None
        fcm = [] if args.fcm else None
        ok = random_requests(args.cli, catalogs, args.random, args.seed, payloads, fcm) and ok
        if payloads is not None:
            from push_encrypt import encrypt_all
            ok = encrypt_all(payloads) and ok
        if fcm is not None:
            from push_fcm import build_all
            ok = build_all(fcm) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
