"""slow-uploads-fair: thousands of `POST /body` uploads of 60 KB, each at 600 B/s (above the 500 B/s
minimum, so none is closed for its rate), reconnecting when closed, against the deployed settings
(one thread, 128 MiB), beside an unattacked control server: a normal client on new connections is
never refused and its p99 stays within 5x the control's (and 50 ms more, for this shared host's
noise), /healthz and /readyz answer 200 within 1 s every time, resident plus socket memory < 128 MiB.

Run by resilience.py (--only slow-uploads-fair).
"""

import time

from client import request_bytes
from defines import MIB
from edge import (MemorySampler, Normal, POD_MEMORY_BYTES, Probes, close_all, deployed_server,
                  nonblocking_connect, raise_open_files)

NAME = "slow-uploads-fair"

BODY_BYTES = 60_000
RATE_BYTES_PER_SECOND = 600
TICK_SECONDS = 0.1


def uploads(port, count, seconds):
    """`count` uploads each sending what keeps it at 600 B/s since its head, every 0.1 s or as often
    as this loop comes round; a closed one is replaced. (open sockets, opened, closed by the server,
    slowest pass over them in seconds)."""
    head = request_bytes("POST", "/body", headers={"Content-Type": "application/json"}).replace(
        b"Content-Length: 0", f"Content-Length: {BODY_BYTES}".encode())
    uploads_open = []  # [socket or None, opened at, body bytes sent]
    opened = closed = 0
    slowest_pass = 0.0

    def open_one():
        nonlocal opened
        sock = nonblocking_connect(port)
        sock.send(head)
        opened += 1
        return [sock, time.monotonic(), 0]

    for _ in range(count):
        try:
            uploads_open.append(open_one())
        except OSError:
            uploads_open.append([None, 0.0, 0])
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        tick = time.monotonic()
        for index, upload in enumerate(uploads_open):
            sock, since, sent = upload
            due = min(BODY_BYTES - 1, int((tick - since) * RATE_BYTES_PER_SECOND)) - sent
            try:
                if sock is None:
                    raise OSError("not open")
                if due > 0:
                    upload[2] += sock.send(b" " * due)
                continue
            except BlockingIOError:
                continue
            except OSError:
                pass
            if sock is not None:
                closed += 1
                sock.close()
            try:
                uploads_open[index] = open_one()
            except OSError:
                uploads_open[index] = [None, 0.0, 0]
        slowest_pass = max(slowest_pass, time.monotonic() - tick)
        time.sleep(max(0.0, TICK_SECONDS - (time.monotonic() - tick)))
    return [upload[0] for upload in uploads_open if upload[0] is not None], opened, closed, slowest_pass


def run(binary, report, options):
    print("slow-uploads-fair", flush=True)
    raise_open_files()
    count = 1500 if options.quick else 4000
    seconds = 10.0 if options.quick else 30.0
    server = deployed_server(binary)
    control = deployed_server(binary)
    sockets = []
    try:
        sampler = MemorySampler(server)
        normal, probes = Normal(server.port), Probes(server.port)
        control_normal, control_probes = Normal(control.port), Probes(control.port)
        sockets, opened, closed, slowest_pass = uploads(server.port, count, seconds)
        for client in (normal, probes, control_normal, control_probes):
            client.stop()
        sampler.stop()
        p99, control_p99 = normal.p99_ms(), control_normal.p99_ms()
        report.figure(NAME, "uploads_seconds", [count, seconds])
        report.figure(NAME, "uploads_opened_closed_by_server", [opened, closed])
        report.figure(NAME, "slowest_pass_seconds", round(slowest_pass, 2))
        report.figure(NAME, "peak_rss_socket_total_mib",
                      [round(value / MIB, 1) for value in (sampler.peak_rss, sampler.peak_socket, sampler.peak_total)])
        report.figure(NAME, "normal_ok_refused_p99_ms", [normal.ok, len(normal.refused), p99])
        report.figure(NAME, "control_ok_refused_p99_ms", [control_normal.ok, len(control_normal.refused), control_p99])
        report.figure(NAME, "probes_answered_missed", [probes.answered, len(probes.misses)])
        report.check(not normal.refused and normal.ok >= 20,
                     f"slow-uploads-fair: a normal client never refused beside {count} uploads at 600 B/s "
                     f"({normal.ok} ok, refused {normal.refused[:3]})")
        report.check(p99 is not None and control_p99 is not None and p99 <= 5 * control_p99 + 50,
                     f"slow-uploads-fair: the normal client's p99 {p99} ms within 5x the control's "
                     f"{control_p99} ms (+ 50 ms)")
        report.check(not probes.misses and probes.answered >= 10,
                     f"slow-uploads-fair: /healthz and /readyz 200 within 1 s ({probes.answered} answered, "
                     f"misses {probes.misses[:3]}; control misses {control_probes.misses[:3]})")
        report.check(sampler.peak_total < POD_MEMORY_BYTES,
                     f"slow-uploads-fair: resident plus socket memory peak {round(sampler.peak_total / MIB, 1)} MiB "
                     f"(< 128 MiB)")
    finally:
        close_all(sockets)
        server.stop()
        control.stop()
