"""non-readers: clients pipelining `POST /body` as fast as the kernel takes it and never reading
an answer, against the deployed settings (one thread, 128 MiB), beside an unattacked control
server: resident memory plus the kernel's socket memory of the server's port (`ss -tm`, skmem
r + t) stays under 128 MiB, a normal client's requests are all answered, /healthz and /readyz
answer within 1 s; the memory charge (`notification_text_memory_charged_bytes`) is reported.

Run by resilience.py (--only non-readers).
"""

import time

from client import request_bytes
from defines import MIB, body_request
from edge import (MemorySampler, Normal, POD_MEMORY_BYTES, Probes, charged_bytes, close_all, deployed_server,
                  nonblocking_connect, raise_open_files)

NAME = "non-readers"


def pipeline(port, clients, seconds, sampler):
    """`clients` connections each sending pipelined requests whenever the kernel takes them, never
    reading; a connection the server closes is replaced. Returns how many it closed."""
    burst = request_bytes("POST", "/body", body_request(0)) * 64
    sockets = []
    for _ in range(clients):
        try:
            sockets.append(nonblocking_connect(port))
        except OSError:
            pass
    closed = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for index, sock in enumerate(sockets):
            try:
                sock.send(burst)
            except BlockingIOError:
                continue
            except OSError:
                closed += 1
                sock.close()
                try:
                    sockets[index] = nonblocking_connect(port)
                except OSError:
                    pass
        time.sleep(0.01)
    sampler.sample()
    return sockets, closed


def run(binary, report, options):
    print("non-readers", flush=True)
    raise_open_files()
    clients = 300 if options.quick else 1000
    seconds = 8.0 if options.quick else 30.0
    server = deployed_server(binary)
    control = deployed_server(binary)
    sockets = []
    try:
        sampler = MemorySampler(server)
        normal, probes = Normal(server.port), Probes(server.port)
        control_normal, control_probes = Normal(control.port), Probes(control.port)
        charges = []
        sockets, closed = pipeline(server.port, clients, seconds, sampler)
        try:
            charges.append(charged_bytes(server.port))
        except OSError:
            pass
        for client in (normal, probes, control_normal, control_probes):
            client.stop()
        sampler.stop()
        report.figure(NAME, "clients_seconds", [clients, seconds])
        report.figure(NAME, "peak_rss_socket_total_mib",
                      [round(value / MIB, 1) for value in (sampler.peak_rss, sampler.peak_socket, sampler.peak_total)])
        report.figure(NAME, "charged_mib_at_end", [round(c / MIB, 1) for c in charges if c is not None])
        report.figure(NAME, "closed_by_server", closed)
        report.figure(NAME, "normal_ok_refused_p99_ms", [normal.ok, len(normal.refused), normal.p99_ms()])
        report.figure(NAME, "control_ok_refused_p99_ms",
                      [control_normal.ok, len(control_normal.refused), control_normal.p99_ms()])
        report.figure(NAME, "probes_answered_missed", [probes.answered, len(probes.misses)])
        report.check(sampler.peak_total < POD_MEMORY_BYTES,
                     f"non-readers: resident plus socket memory peak {round(sampler.peak_total / MIB, 1)} MiB "
                     f"(resident {round(sampler.peak_rss / MIB, 1)}, sockets {round(sampler.peak_socket / MIB, 1)}) "
                     f"under {clients} pipelining non-readers (< 128 MiB)")
        report.check(not normal.refused and normal.ok >= 20,
                     f"non-readers: a normal client's requests all answered ({normal.ok} ok, "
                     f"refused {normal.refused[:3]}; control {control_normal.ok} ok)")
        report.check(not probes.misses and probes.answered >= 10,
                     f"non-readers: /healthz and /readyz 200 within 1 s ({probes.answered} answered, "
                     f"misses {probes.misses[:3]}; control misses {control_probes.misses[:3]})")
    finally:
        close_all(sockets)
        server.stop()
        control.stop()
