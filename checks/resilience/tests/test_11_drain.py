"""drain: SIGTERM under 16 keep-alive clients: 0 requests lost, idle connections open through the
drain, exit 0 within it

Run by resilience.py (--only drain).
"""

import random
import signal
import subprocess
import threading
import time

from client import connect, exchange, closed_by_peer
from defines import Server, body_request


NAME = "drain"


def run(binary, report, options):
    """SIGTERM loses nothing: idle keep-alive connections stay open through the
    drain, each request on one is answered with Connection: close."""
    print("drain", flush=True)
    drain_seconds = 2.0
    # An idle connection that stays silent and one that sends a request after the signal.
    server = Server(binary, ["--threads", "2", "--access-log", "off", "--drain-seconds", str(drain_seconds)])
    silent, late = connect(server.port), connect(server.port)
    try:
        exchange(silent, "GET", "/healthz")
        exchange(late, "GET", "/healthz")
        closed_at = [None]

        def watch_silent():
            while time.monotonic() < signalled + drain_seconds + 2.0:
                if closed_by_peer(silent, 0.02):
                    closed_at[0] = time.monotonic() - signalled
                    return

        signalled = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        watcher = threading.Thread(target=watch_silent)
        watcher.start()
        time.sleep(0.5)
        status, headers = exchange(late, "POST", "/body", body_request(1))
        connection = headers.get("connection") if isinstance(headers, dict) else headers
        report.check(status == 200 and connection == "close" and closed_by_peer(late, 2.0),
                     f"drain: a request 0.5 s after SIGTERM on an idle keep-alive connection → 200, Connection: close, "
                     f"then closed (got {status}, {connection})")
        try:
            code = server.process.wait(max(0.1, signalled + drain_seconds + 2.0 - time.monotonic()))
        except subprocess.TimeoutExpired:
            code = None
        exited_at = time.monotonic() - signalled
        watcher.join(drain_seconds + 3)
        closed_at = closed_at[0]
        report.figure("drain", "silent_connection_closed_after_s", closed_at and round(closed_at, 2))
        report.check(closed_at is not None and drain_seconds - 0.3 <= closed_at <= drain_seconds + 1.0,
                     f"drain: a silent keep-alive connection stays open through the drain and is closed at its end "
                     f"({closed_at and round(closed_at, 2)} s after SIGTERM, drain {drain_seconds:g} s)")
        report.check(code == 0 and exited_at <= drain_seconds + 1.0,
                     f"drain: exit status 0 within the drain time (status {code} after {exited_at:.2f} s)")
    finally:
        silent.close()
        late.close()
        server.kill()

    # Rounds of SIGTERM under 16 keep-alive clients that pause between requests.
    rounds = 3 if options.quick else 10
    clients = 16
    drain_seconds = 5.0
    totals = {"requests": 0, "lost": 0, "refused": 0}
    worst_exit = 0.0
    for round_index in range(rounds):
        server = Server(binary, ["--threads", "2", "--access-log", "off", "--drain-seconds", str(drain_seconds)])
        signalled_at = [None]
        counts = {"requests": 0, "lost": 0, "refused": 0}
        lost_examples = []
        lock = threading.Lock()

        def client(worker):
            rng = random.Random(round_index * 100 + worker)
            sock = None
            index = 0
            while True:
                if signalled_at[0] is not None and time.monotonic() > signalled_at[0] + drain_seconds + 2:
                    break
                index += 1
                if sock is None:
                    try:
                        sock = connect(server.port)
                    except OSError:
                        with lock:
                            counts["refused"] += 1
                        if signalled_at[0] is not None:
                            break
                        continue
                status, headers = exchange(sock, "POST", "/body", body_request(index), timeout=10)
                with lock:
                    counts["requests"] += 1
                    if status != 200:
                        counts["lost"] += 1
                        lost_examples.append(str(headers) if status is None else f"status {status}")
                if status != 200 or headers.get("connection", "").lower() == "close":
                    sock.close()
                    sock = None
                    if signalled_at[0] is not None:
                        break  # the next connection would go to another instance
                time.sleep(rng.uniform(0.0, 0.03))
            if sock is not None:
                sock.close()

        threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
        for thread in threads:
            thread.start()
        time.sleep(0.8 + 0.13 * round_index)
        signalled_at[0] = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        try:
            code = server.process.wait(drain_seconds + 5)
        except subprocess.TimeoutExpired:
            code = None
        exited_after = time.monotonic() - signalled_at[0]
        worst_exit = max(worst_exit, exited_after)
        for thread in threads:
            thread.join(drain_seconds + 10)
        server.kill()
        stop_event = server.stop_event()
        for name in totals:
            totals[name] += counts[name]
        report.check(counts["lost"] == 0, f"drain round {round_index + 1}: {counts['lost']} of {counts['requests']} "
                                          f"requests lost {sorted(set(lost_examples))[:2]}")
        report.check(code == 0 and exited_after <= drain_seconds + 0.5 and (stop_event or {}).get("reason") == "SIGTERM",
                     f"drain round {round_index + 1}: exit status 0 within the drain time, stop line names SIGTERM "
                     f"(status {code} after {exited_after:.2f} s)")
    report.figure("drain", "rounds_clients", [rounds, clients])
    report.figure("drain", "requests_lost_refused", [totals["requests"], totals["lost"], totals["refused"]])
    report.figure("drain", "slowest_exit_seconds", round(worst_exit, 2))
