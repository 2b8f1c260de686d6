"""The relay's core through the relay's module (notification-text-relay.wasm,
`nt_relay`: `relay` in Node, `NotificationRelay.relay` in Python) against the command line's `notification-text
relay --json-lines`, byte for byte: the requests of relay_requests.py
(played relay lives covering every op and push answer, the problems, and
mutations), each answer the CLI's line. The lives are played through the
Python host; a wrong answer there shows as a difference all the same, since
every request is then given to the CLI and to both hosts."""

import collections
import json
import subprocess
import sys
import time

from hosts import ROOT, node_answers
from relay_requests import relay_requests


def run_relay(args, tally):
    started = time.monotonic()
    sys.path.insert(0, str(ROOT / "wasm/python"))
    import notification_text

    core = notification_text.NotificationRelay()
    requests = relay_requests(core.relay, args.seed, args.relay_lives, args.relay_mutations)
    run = subprocess.run([args.binary, "relay", "--json-lines"], input="".join(r + "\n" for r in requests).encode(),
                         capture_output=True)
    cli = run.stdout.decode().split("\n")[:-1]
    calls = [{"route": "/relay", "request": request} for request in requests]
    hosts = {"node": node_answers(args.wasm_dir, calls)[0],
             "python": [tuple(core.relay(request)) for request in requests]}
    failed = 0
    if len(cli) != len(requests):
        failed += 1
        print(f"FAIL relay: the CLI answered {len(cli)} lines for {len(requests)} requests")
    for host, answers in hosts.items():
        for index, (request, want, (status, body)) in enumerate(zip(requests, cli, answers)):
            problem = body.startswith('{"type"')
            if body != want or (status == 200) == problem:
                failed += 1
                if failed <= 10:
                    print(f"FAIL relay {host} {index}\n  request {request[:300]}\n  cli    {want[:300]}\n"
                          f"  module {status} {body[:300]}")
    covered = collections.Counter()
    for request, (status, body) in zip(requests, hosts["node"]):
        try:
            operation, event = json.loads(request).get("do"), json.loads(request).get("event")
        except (ValueError, AttributeError):
            operation = event = None
        answer = json.loads(body)
        named = operation in ("event", "loop", "gave-up", "answer", "wake")
        covered[f"{operation if named else 'other'} {status}"] += 1
        if status == 200 and operation == "event" and isinstance(event, dict):
            covered[f"event {event.get('type')}"] += 1
        if status == 200 and "outcome" in answer:
            covered[f"outcome {answer['outcome']}"] += 1
        if status == 200 and answer.get("sends"):
            covered["with sends"] += 1
        if status != 200:
            covered[f"problem {answer['code']}"] += 1
    total = len(requests) * len(hosts)
    tally.add(total - failed, failed)
    summary = ", ".join(f"{key}: {count}" for key, count in sorted(covered.items()))
    print(f"relay (seed {args.seed}): {total - failed} of {total} answers identical to `relay --json-lines` "
          f"({len(requests)} requests through the Node and the Python host; {summary}); "
          f"{time.monotonic() - started:.1f} s")
