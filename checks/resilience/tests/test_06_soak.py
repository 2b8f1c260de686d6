"""soak: mixed traffic for SOAK_SECONDS; RSS, descriptors, errors before/after

Run by resilience.py (--only soak).
"""

import socket
import struct
import threading
import time

from client import read_response, request_bytes, connect, one_request
from defines import Server, body_request, compose_request, check_no_marker, malformed_kinds, classify


NAME = "soak"


def run(binary, report, options):
    """Mixed traffic for a bounded time; RSS, descriptors and errors before and after."""
    print("soak", flush=True)
    server = Server(binary, ["--threads", "2"])
    try:
        # Warm up so that one-time allocations (caches, buffers, thread stacks) are in the baseline.
        for index in range(200):
            one_request(server.port, "POST", "/body", body_request(index))
            one_request(server.port, "POST", "/compose", compose_request(index, 20))
        time.sleep(0.3)
        before = {"rss_kib": server.rss_kib(), "fds": server.fd_count()}
        counts = {"requests": 0, "errors": 0, "malformed": 0, "resets": 0}
        samples = []
        lock = threading.Lock()
        stop = threading.Event()
        kinds = malformed_kinds()

        def keep_alive_client(worker):
            sock = None
            index = 0
            while not stop.is_set():
                index += 1
                heavy = index % 5 == 0
                data = request_bytes("POST", "/compose" if heavy else "/body",
                                     compose_request(index, 100) if heavy else body_request(index))
                try:
                    if sock is None:
                        sock = connect(server.port)
                    sock.sendall(data)
                    status, _, _ = read_response(sock, time.monotonic() + 10)
                    ok = status == 200
                except (OSError, ConnectionError):
                    ok = False
                    if sock is not None:
                        sock.close()
                    sock = None
                with lock:
                    counts["requests"] += 1
                    counts["errors"] += 0 if ok else 1
                if index % 50 == 0 and sock is not None:
                    sock.close()
                    sock = None
            if sock is not None:
                sock.close()

        def hostile_client():
            index = 0
            linger = struct.pack("ii", 1, 0)
            while not stop.is_set():
                index += 1
                name, raw, _ = kinds[index % len(kinds)]
                if name in ("body-too-large", "deep-nesting", "compose-too-many"):
                    continue  # large bodies are covered by `malformed`; keep the soak about churn
                classify(server.port, raw, timeout=5)
                with lock:
                    counts["malformed"] += 1
                try:
                    sock = connect(server.port)
                    sock.sendall(request_bytes("POST", "/body", b"", {"Content-Length": "5000"}) + b'{"te')
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
                    sock.close()
                    with lock:
                        counts["resets"] += 1
                except OSError:
                    pass
                time.sleep(0.005)

        threads = [threading.Thread(target=keep_alive_client, args=(n,)) for n in range(4)]
        threads.append(threading.Thread(target=hostile_client))
        for thread in threads:
            thread.start()
        started = time.monotonic()
        while time.monotonic() - started < options.soak_seconds:
            time.sleep(min(5.0, options.soak_seconds / 4))
            samples.append((round(time.monotonic() - started), server.rss_kib(), server.fd_count()))
        stop.set()
        for thread in threads:
            thread.join(30)
        time.sleep(0.5)
        after = {"rss_kib": server.rss_kib(), "fds": server.fd_count()}
        report.figure("soak", "seconds", options.soak_seconds)
        report.figure("soak", "counts", counts)
        report.figure("soak", "before", before)
        report.figure("soak", "after", after)
        report.figure("soak", "samples_seconds_rss_kib_fds", samples)
        report.check(counts["errors"] == 0, f"soak: no errors on well-formed requests ({counts['errors']} of {counts['requests']})")
        report.check(after["fds"] <= before["fds"], f"soak: descriptors back to {before['fds']} (now {after['fds']})")
        # A leak of even 100 bytes per request would show as many megabytes here;
        # allocator caches settle within the first samples.
        growth_kib = after["rss_kib"] - before["rss_kib"]
        report.check(growth_kib < 64 * 1024, f"soak: resident memory grew {growth_kib} KiB (< 64 MiB)")
        check_no_marker(report, server, "soak")
    finally:
        code = server.stop()
        report.check(code == 0, f"soak: clean exit after SIGTERM (status {code})")
