"""slow-clients: 100 clients sending a byte a second; normal clients still served

Run by resilience.py (--only slow-clients).
"""

import threading
import time

from client import request_bytes, connect, one_request
from defines import Server, body_request, check_no_marker


NAME = "slow-clients"


def run(binary, report, options):
    """100 clients sending one byte a second must not stop normal clients."""
    print("slow-clients", flush=True)
    slow_count = 100
    seconds = 6.0 if options.quick else 15.0
    server = Server(binary, ["--threads", "2", "--access-log", "off"])
    try:
        slow_request = request_bytes("POST", "/body", body_request(0))
        slow = []
        for _ in range(slow_count):
            sock = connect(server.port)
            sock.setblocking(False)
            slow.append(sock)
        # How each slow client ended: still open, answered (with its status), or closed.
        outcome = {}
        normal = {"ok": 0, "failed": 0, "latencies": []}
        stop = threading.Event()

        def normal_client():
            index = 0
            while not stop.is_set():
                index += 1
                started = time.monotonic()
                try:
                    status, _, _ = one_request(server.port, "POST", "/body", body_request(index), timeout=5.0)
                    if status == 200:
                        normal["ok"] += 1
                        normal["latencies"].append(time.monotonic() - started)
                    else:
                        normal["failed"] += 1
                except (OSError, ConnectionError):
                    normal["failed"] += 1
                time.sleep(0.02)

        workers = [threading.Thread(target=normal_client) for _ in range(4)]
        for worker in workers:
            worker.start()
        begin = time.monotonic()
        sent = 0
        while time.monotonic() - begin < seconds and sent < len(slow_request):
            for index, sock in enumerate(slow):
                if index in outcome:
                    continue
                try:
                    sock.send(slow_request[sent:sent + 1])
                except OSError:
                    outcome[index] = f"closed after {round(time.monotonic() - begin)} s"
                    continue
                try:
                    data = sock.recv(4096)
                    if not data:
                        outcome[index] = f"closed after {round(time.monotonic() - begin)} s"
                    else:
                        outcome[index] = "answered " + data.split(b" ", 2)[1].decode(errors="replace")
                except BlockingIOError:
                    pass
                except OSError:
                    outcome[index] = f"closed after {round(time.monotonic() - begin)} s"
            sent += 1
            time.sleep(1.0)
        stop.set()
        for worker in workers:
            worker.join(15)
        for index, sock in enumerate(slow):
            if index not in outcome:
                outcome[index] = "still open"
            sock.close()
        latencies = sorted(normal["latencies"])
        summary = {}
        for value in outcome.values():
            summary[value] = summary.get(value, 0) + 1
        report.figure("slow-clients", "duration_seconds", round(seconds, 1))
        report.figure("slow-clients", "slow_client_outcomes", summary)
        report.figure("slow-clients", "normal_requests_ok", normal["ok"])
        report.figure("slow-clients", "normal_requests_failed", normal["failed"])
        if latencies:
            report.figure("slow-clients", "normal_latency_ms_p50_p99_max", [
                round(latencies[len(latencies) // 2] * 1000, 1),
                round(latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000, 1),
                round(latencies[-1] * 1000, 1)])
        report.check(normal["ok"] >= 20 and normal["failed"] == 0,
                     f"slow-clients: normal clients served while {slow_count} slow clients trickle (ok {normal['ok']}, failed {normal['failed']})")
        report.check(server.alive(), "slow-clients: server still running")
        check_no_marker(report, server, "slow-clients")
    finally:
        server.stop()
