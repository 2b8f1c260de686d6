"""The relay's core through the relay's module (notification-text-relay.wasm,
`nt_relay`: `relay` in Node, `NotificationRelay.relay` in Python) against the command line's `notification-text
relay --json-lines`, byte for byte: the requests of relay_requests.py
(played relay lives covering every op and push answer, the problems, and
mutations), each answer the CLI's line. The lives are played through the
Python host; a wrong answer there shows as a difference all the same, since
every request is then given to the CLI and to both hosts. Then the same
requests again with the modules configured (`configure`: an app name and
`de` as the default locale) against `relay --json-lines --app-name
--default-locale`: what a compose without `app`, or in a language no
catalog fits, gets."""

import collections
import json
import subprocess
import sys
import time

from hosts import ROOT, node_answers, text
from relay_requests import relay_requests

CONFIGURED = {"appName": "Chat Pro", "defaultLocale": "de"}


def run_relay(args, tally):
    started = time.monotonic()
    sys.path.insert(0, str(ROOT / "wasm/python"))
    import notification_text

    core = notification_text.NotificationRelay()
    requests = relay_requests(core.relay, args.seed, args.relay_lives, args.relay_mutations)
    failed, hosts = compare(args, notification_text, requests, None)
    configured_failed, _ = compare(args, notification_text, requests, CONFIGURED)
    failed += configured_failed
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
    total = 2 * len(requests) * len(hosts)
    tally.add(total - failed, failed)
    summary = ", ".join(f"{key}: {count}" for key, count in sorted(covered.items()))
    print(f"relay (seed {args.seed}): {total - failed} of {total} answers identical to `relay --json-lines` "
          f"({len(requests)} requests through the Node and the Python host, then again configured with "
          f"{CONFIGURED} against --app-name and --default-locale; {summary}); "
          f"{time.monotonic() - started:.1f} s")


def compare(args, notification_text, requests, settings):
    """The failures of the relay's module in both hosts against the CLI on `requests`, configured with
    `settings` (None: as loaded), and the hosts' answers."""
    flags = [] if settings is None else ["--app-name", settings["appName"], "--default-locale", settings["defaultLocale"]]
    run = subprocess.run([args.binary, "relay", "--json-lines", *flags],
                         input="".join(r + "\n" for r in requests).encode(), capture_output=True)
    cli = run.stdout.decode().split("\n")[:-1]
    core = notification_text.NotificationRelay()
    calls = [{"route": "/relay", "request": request} for request in requests]
    if settings is not None:
        core.configure(settings)
        calls.insert(0, {"route": "/configure", "request": text(settings)})
    node = node_answers(args.wasm_dir, calls)[0]
    hosts = {"node": node[1:] if settings is not None else node,
             "python": [tuple(core.relay(request)) for request in requests]}
    failed = 0
    where = "" if settings is None else " configured"
    if len(cli) != len(requests):
        failed += 1
        print(f"FAIL relay{where}: the CLI answered {len(cli)} lines for {len(requests)} requests")
    for host, answers in hosts.items():
        for index, (request, want, (status, body)) in enumerate(zip(requests, cli, answers)):
            problem = body.startswith('{"type"')
            if body != want or (status == 200) == problem:
                failed += 1
                if failed <= 10:
                    print(f"FAIL relay{where} {host} {index}\n  request {request[:300]}\n  cli    {want[:300]}\n"
                          f"  module {status} {body[:300]}")
    return failed, hosts
