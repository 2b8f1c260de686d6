"""descriptors: the deployed settings under `RLIMIT_NOFILE` 4,096 (as `prlimit --nofile=4096`), beside
an unattacked control server: thousands of connections opened as fast as this client can, half kept
idle after one request (a relay's pool), half silent (sending nothing, so each new one past the limit
refuses the oldest silent one), with slow uploads among them: no `accept` error (EMFILE; the
`accept_error` counter stays 0), /healthz and /readyz 200 within 1 s every time, a normal client
never refused.

Run by resilience.py (--only descriptors).
"""

import resource
import time
import urllib.request

from client import exchange
from defines import MIB
from edge import (MemorySampler, Normal, Probes, close_all, deployed_server, nonblocking_connect,
                  raise_open_files)

NAME = "descriptors"
DESCRIPTOR_LIMIT = 4096


def limit_descriptors():
    resource.setrlimit(resource.RLIMIT_NOFILE, (DESCRIPTOR_LIMIT, DESCRIPTOR_LIMIT))


def accept_errors(port):
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    for line in text.splitlines():
        if line.startswith('notification_text_connections_rejected_total{reason="accept_error"}'):
            return int(float(line.split()[-1]))
    return None


def flood(port, count, seconds):
    """Opens `count` connections as fast as it can, in turn idle (one request answered, then kept),
    silent, and an upload trickling 60 B a second; then keeps them (replacing closed ones) for the
    rest of `seconds`. Returns (sockets, opened, failed to open)."""
    sockets, opened, failed = [], 0, 0
    upload_head = (b"POST /body HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                   b"Content-Length: 60000\r\n\r\n")
    end = time.monotonic() + seconds

    def open_one(kind):
        nonlocal opened, failed
        try:
            sock = nonblocking_connect(port)
        except OSError:
            failed += 1
            return None
        opened += 1
        try:
            if kind == 0:
                sock.setblocking(True)
                exchange(sock, "GET", "/healthz", timeout=2.0)
                sock.setblocking(False)
            elif kind == 2:
                sock.send(upload_head)
        except (OSError, ConnectionError):
            pass
        return sock

    for index in range(count):
        if time.monotonic() > end:
            break
        sockets.append((index % 3, open_one(index % 3)))
    while time.monotonic() < end:
        for index, (kind, sock) in enumerate(sockets):
            if sock is None:
                continue
            try:
                if sock.recv(1, 2) == b"":  # MSG_PEEK: closed by the server
                    sock.close()
                    sockets[index] = (kind, open_one(kind))
                    continue
            except BlockingIOError:
                pass
            except OSError:
                sock.close()
                sockets[index] = (kind, open_one(kind))
                continue
            if kind == 2:
                try:
                    sock.send(b"  ")
                except OSError:
                    pass
        time.sleep(0.05)
    return [sock for _, sock in sockets if sock is not None], opened, failed


def run(binary, report, options):
    print("descriptors", flush=True)
    raise_open_files()
    count = 6000 if options.quick else 9000
    seconds = 10.0 if options.quick else 30.0
    server = deployed_server(binary, preexec_fn=limit_descriptors)
    control = deployed_server(binary, preexec_fn=limit_descriptors)
    sockets = []
    try:
        limit = server.start_line.get("maxConnections") or server.start_line.get("max_connections")
        sampler = MemorySampler(server)
        normal, probes = Normal(server.port), Probes(server.port)
        control_normal, control_probes = Normal(control.port), Probes(control.port)
        sockets, opened, failed = flood(server.port, count, seconds)
        peak_descriptors = server.fd_count()
        for client in (normal, probes, control_normal, control_probes):
            client.stop()
        sampler.stop()
        errors = accept_errors(server.port)
        report.figure(NAME, "connection_limit_opened_failed", [limit, opened, failed])
        report.figure(NAME, "descriptors_at_end_of_flood", peak_descriptors)
        report.figure(NAME, "accept_errors", errors)
        report.figure(NAME, "peak_rss_socket_total_mib",
                      [round(value / MIB, 1) for value in (sampler.peak_rss, sampler.peak_socket, sampler.peak_total)])
        report.figure(NAME, "normal_ok_refused_p99_ms", [normal.ok, len(normal.refused), normal.p99_ms()])
        report.figure(NAME, "control_ok_refused_p99_ms",
                      [control_normal.ok, len(control_normal.refused), control_normal.p99_ms()])
        report.figure(NAME, "probes_answered_missed", [probes.answered, len(probes.misses)])
        report.check(errors == 0,
                     f"descriptors: no accept error under RLIMIT_NOFILE {DESCRIPTOR_LIMIT} with {opened} connections "
                     f"opened (accept_error {errors})")
        report.check(not probes.misses and probes.answered >= 10,
                     f"descriptors: /healthz and /readyz 200 within 1 s ({probes.answered} answered, "
                     f"misses {probes.misses[:3]}; control misses {control_probes.misses[:3]})")
        report.check(not normal.refused and normal.ok >= 20,
                     f"descriptors: a normal client never refused ({normal.ok} ok, refused {normal.refused[:3]})")
    finally:
        close_all(sockets)
        server.stop()
        control.stop()
