#!/usr/bin/env python3
"""Resilience suite: hostile input, faults and load against a live server.

Starts `notification-text serve --port 0` on 127.0.0.1 (one fresh server per
scenario), reads its JSON start line for the port and pid, and checks that it
keeps serving and loses nothing:

  slow-clients   100 clients sending a byte a second; normal clients still served
  sigterm        SIGTERM under load; every request sent before it is answered
  malformed      >= 1000 malformed requests of >= 30 kinds; each gets its 4xx
                 (or a closed connection where the head is refused before it is
                 sent whole), and the server keeps serving
  resets         clients that reset (SO_LINGER 0) mid-body; no descriptor leaks
  access         --auth-token-file (401/200, probes open) and --metrics-port
  soak           mixed traffic for SOAK_SECONDS; RSS, descriptors, errors before/after
  framing        each request-framing case of docs/adr/0016 followed by a pipelined
                 request: its target answer, never a second parse
  pipelining     10 clients pipeline GET /healthz and never read: RSS peak < 64 MiB,
                 a normal client served meanwhile
  uploads        60 unauthenticated 1 MB uploads at once: RSS rise < 24 MiB; 401/413
                 when the head arrives, no 100 Continue, the whole answer read
  max-connections  past --max-connections the connection idle longest makes room
  drain          SIGTERM under 16 keep-alive clients: 0 requests lost, idle
                 connections open through the drain, exit 0 within it
  shutdown-delay --shutdown-delay-seconds serves normally before the drain
  rotation       several tokens a file; SIGHUP re-reads it, keeps the old tokens
                 when the file is unusable, logs either, never ends the process
  visibility     the adapter's own refusals and accept errors: a JSON line and a counter
                 each; process_cpu_seconds_total, process_open_fds, process_max_fds
  reason-phrases RFC 9110 reason phrases on every status the service sends
  stuck-replies  10 clients whose 1.9 MB replies are stuck go on sending: RSS peak < 64 MiB
  stuck-replies-no-token  the same from paced GET /playground.js, no token: RSS peak < 64 MiB
  memory-budget  81 0.99 MB /compose at once in a 128 MiB budget: RSS < 128 MiB, 200 or
                 503 Retry-After each; the derived limit for 128 MiB is in the thousands
  slowloris      100 slow heads at --max-connections 81: a normal client's p99 < 50 ms
  nagle, port-taken, token-fifo, rfc9112, metrics-drain, header-fields
                 the HTTP edges: TCP_NODELAY, a taken port, a FIFO token file, RFC 9112's
                 framing rules, /metrics through a drain, a head of 4000 fields (each
                 file's docstring says what it checks)
  idle-and-slow-uploads, connect-storm, probes-at-capacity, rfc9112-hosts
                 capacity (capacity.py): idle keep-alive and slow uploads make room,
                 a connect storm refuses nobody, probes answer past capacity, Host rules
  tiny-chunks    20 chunked uploads in 1-byte chunks that each end a read: the memory
                 charge covers what they hold, RSS < 128 MiB, a normal client and the
                 probes served; a body of 1,025 chunks gets 400 bad-framing
  non-readers, slow-uploads-fair, descriptors
                 the deployed settings beside an unattacked control (edge.py): clients
                 pipelining and never reading, thousands of 600 B/s uploads, thousands of
                 connections under RLIMIT_NOFILE 4,096; resident plus socket memory
                 (ss -tm) < 128 MiB, a normal client never refused, probes within 1 s

Every scenario also checks that no message text ever reaches the server's
stdout or stderr (the texts carry a marker that must never be logged).

Only 127.0.0.1; every loop is bounded in count and time. Standard library only.

    checks/resilience/resilience.py --binary .build/release/notification-text [--quick]
        [--soak-seconds N] [--only slow-clients,sigterm,...] [--list]
    checks/resilience/resilience.py --framing-table HOST:PORT   (any server's framing answers)

Exit status 0 when every check passed; figures are printed either way.

Layout (swift-nio's IntegrationTests are the model): one scenario per file,
tests/test_NN_<name>.py, each with its NAME and `run(binary, report, options)`;
client.py is the one HTTP client (one response parser); defines.py holds the
server under test, the report and what the scenarios share. This file finds
the scenarios and runs them in their files' order.
"""
import argparse
import glob
import importlib.util
import json
import os
import sys
import types

from defines import Failure, Report

HERE = os.path.dirname(os.path.abspath(__file__))


def load_scenarios():
    """{NAME: module} of tests/test_NN_*.py, in the files' order."""
    scenarios = {}
    for path in sorted(glob.glob(os.path.join(HERE, "tests", "test_[0-9][0-9]_*.py"))):
        spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        if module.NAME in scenarios:
            raise SystemExit(f"{path}: scenario {module.NAME} is defined twice")
        scenarios[module.NAME] = module
    return scenarios


def main():
    scenarios = load_scenarios()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary")
    parser.add_argument("--framing-table", metavar="HOST:PORT",
                        help="print each framing case's answer from the server at HOST:PORT, and run nothing else")
    parser.add_argument("--quick", action="store_true", help="the short version run by `make test`")
    parser.add_argument("--soak-seconds", type=float,
                        default=float(os.environ.get("SOAK_SECONDS", "0") or 0) or None)
    parser.add_argument("--only", default=",".join(scenarios))
    parser.add_argument("--list", action="store_true", help="print the scenarios' names, in order, and run nothing")
    parser.add_argument("--json", help="write the figures to this file")
    arguments = parser.parse_args()
    if arguments.list:
        print("\n".join(scenarios))
        return 0
    if arguments.framing_table:
        scenarios["framing"].print_framing_table(arguments.framing_table)
        return 0
    if not arguments.binary:
        parser.error("--binary is required")
    options = types.SimpleNamespace(
        quick=arguments.quick, soak_seconds=arguments.soak_seconds or (10.0 if arguments.quick else 120.0))
    report = Report()
    for name in arguments.only.split(","):
        try:
            if name not in scenarios:
                raise Failure(f"unknown scenario {name}")
            scenarios[name].run(arguments.binary, report, options)
        except Failure as failure:
            report.check(False, f"{name}: {failure}")
    if arguments.json:
        with open(arguments.json, "w") as output:
            json.dump(report.figures, output, indent=1)
    print(f"resilience: {len(report.failures)} failed check(s)" if report.failures else "resilience: all checks passed")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
