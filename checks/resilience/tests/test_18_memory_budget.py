"""memory-budget: 81 0.99 MB /compose at once in a 128 MiB budget: RSS < 128 MiB, 200 or 503 Retry-
After each; the derived limit for 128 MiB is in the thousands

Run by resilience.py (--only memory-budget).
"""

import threading
import time

from client import read_response, request_bytes, connect, one_request
from defines import Server, body_request, MIB, RSSSampler, jemalloc_env, large_compose_body


NAME = "memory-budget"


def run(binary, report, options):
    """F2: in a 128 MiB budget, 81 clients (the limit set by hand) each send one 0.99 MB /compose at once
    and read late: what the budget cannot take is answered 503 with Retry-After, and memory stays
    under the limit. The derived limit for 128 MiB counts the reply."""
    print("memory-budget", flush=True)
    limit_bytes = 128 * MIB
    clients = 81
    read_after = 1.0 if options.quick else 3.0
    derived = Server(binary, ["--threads", "1", "--access-log", "off", "--memory-limit-bytes", str(limit_bytes)])
    derived_limit = derived.start_line.get("maxConnections")
    derived.stop()
    report.figure("memory-budget", "derived_max_connections_128_mib", derived_limit)
    report.check(isinstance(derived_limit, int) and derived_limit >= 1000,
                 f"memory-budget: the derived limit for 128 MiB is in the thousands, connections being charged "
                 f"for the bytes they hold (got {derived_limit}; 27 when each reserved its largest body and reply)")
    server = Server(binary, ["--threads", "1", "--access-log", "off", "--memory-limit-bytes", str(limit_bytes),
                             "--max-connections", str(clients)], env=jemalloc_env())
    sockets = []
    try:
        request = request_bytes("POST", "/compose", large_compose_body())
        sampler = RSSSampler(server)
        for _ in range(clients):
            sockets.append(connect(server.port, timeout=20.0))
        senders = [threading.Thread(target=lambda s=s: s.sendall(request), daemon=True) for s in sockets]
        for thread in senders:
            thread.start()
        time.sleep(read_after)
        answers = {}

        def read_one(sock):
            try:
                status, headers, _ = read_response(sock, time.monotonic() + 20)
                key = f"{status}" + (" Retry-After" if status == 503 and headers.get("retry-after") else "")
            except (OSError, ConnectionError) as error:
                key = "error: " + str(error)[:40]
            answers[key] = answers.get(key, 0) + 1

        readers = [threading.Thread(target=read_one, args=(sock,), daemon=True) for sock in sockets]
        for thread in readers:
            thread.start()
        for thread in readers + senders:
            thread.join(30)
        peak_kib = sampler.stop()
        report.figure("memory-budget", "answers", answers)
        report.figure("memory-budget", "rss_mib_peak", round(peak_kib / 1024, 1))
        report.check(peak_kib < limit_bytes // 1024,
                     f"memory-budget: resident memory peak {round(peak_kib / 1024, 1)} MiB with {clients} 0.99 MB "
                     f"/compose requests at once (< 128 MiB)")
        report.check(set(answers) <= {"200", "503 Retry-After"} and answers.get("200", 0) >= 16,
                     f"memory-budget: each request answered 200, or 503 with Retry-After when the budget is spent "
                     f"(got {answers})")
        for sock in sockets:
            sock.close()
        time.sleep(1.5)
        status, _, _ = one_request(server.port, "POST", "/body", body_request(1))
        report.check(server.alive() and status == 200, "memory-budget: server still serves afterwards")
    finally:
        for sock in sockets:
            sock.close()
        server.stop()
