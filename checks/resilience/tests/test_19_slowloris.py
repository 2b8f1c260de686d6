"""slowloris: 100 slow heads at --max-connections 81: a normal client's p99 < 50 ms

Run by resilience.py (--only slowloris).
"""

import threading
import time

from client import connect, one_request
from defines import Server, jemalloc_env


NAME = "slowloris"


def run(binary, report, options):
    """F3: 100 connections trickle a head at a byte a second (reconnecting when closed) against
    --max-connections 81; a normal client's p99 stays under 50 ms, and a slow head is closed early."""
    print("slowloris", flush=True)
    slow_count = 100
    seconds = 8.0 if options.quick else 20.0
    server = Server(binary, ["--threads", "1", "--access-log", "off", "--max-connections", "81"], env=jemalloc_env())
    head_bytes = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: " + b"a" * 2000 + b"\r\n\r\n"
    slow = []
    lifetimes = []
    latencies = []
    failures = []
    stop = threading.Event()

    def open_slow():
        sock = connect(server.port, timeout=1.0)
        sock.setblocking(False)
        return [sock, 0, time.monotonic()]

    def normal():
        while not stop.is_set():
            started = time.monotonic()
            try:
                status, _, _ = one_request(server.port, "GET", "/healthz", timeout=15.0)
                if status == 200:
                    latencies.append(time.monotonic() - started)
                else:
                    failures.append(f"status {status}")
            except (OSError, ConnectionError) as error:
                failures.append(str(error)[:40])
            stop.wait(0.05)

    try:
        for _ in range(slow_count):
            slow.append(open_slow())
        worker = threading.Thread(target=normal, daemon=True)
        worker.start()
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for state in slow:
                sock = state[0]
                try:
                    if sock.recv(4096) == b"":
                        raise ConnectionError
                except BlockingIOError:
                    pass
                except OSError:
                    lifetimes.append(time.monotonic() - state[2])
                    sock.close()
                    try:
                        state[:] = open_slow()
                    except OSError:
                        pass
                    continue
                try:
                    sock.send(head_bytes[state[1]:state[1] + 1])
                    state[1] = (state[1] + 1) % len(head_bytes)
                except OSError:
                    pass
            time.sleep(1.0)
        stop.set()
        worker.join(20)
        latencies.sort()
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000 if latencies else None
        lifetimes.sort()
        report.figure("slowloris", "normal_ok_failed", [len(latencies), len(failures)])
        report.figure("slowloris", "normal_latency_ms_p50_p99_max", latencies and [
            round(latencies[len(latencies) // 2] * 1000, 1), round(p99, 1), round(latencies[-1] * 1000, 1)])
        report.figure("slowloris", "slow_closed_lifetime_s_median", [len(lifetimes), lifetimes and round(lifetimes[len(lifetimes) // 2], 1)])
        report.check(p99 is not None and p99 < 50 and not failures and len(latencies) >= seconds * 5,
                     f"slowloris: a normal client's p99 under 50 ms beside {slow_count} slow heads at the limit of 81 "
                     f"(p99 {p99 and round(p99, 1)} ms, ok {len(latencies)}, failed {len(failures)} {failures[:2]})")
        report.check(lifetimes and lifetimes[len(lifetimes) // 2] < 5.0,
                     f"slowloris: slow heads are closed before the read timeout (median lifetime "
                     f"{lifetimes and round(lifetimes[len(lifetimes) // 2], 1)} s)")
    finally:
        stop.set()
        for state in slow:
            state[0].close()
        server.stop()
