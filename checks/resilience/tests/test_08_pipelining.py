"""pipelining: 10 clients pipeline GET /healthz and never read: RSS peak < 64 MiB, a normal client
served meanwhile

Run by resilience.py (--only pipelining).
"""

import socket
import threading
import time

from client import connect, one_request
from defines import Server, body_request, MIB, RSSSampler, NormalTraffic


NAME = "pipelining"


def run(binary, report, options):
    """Clients that pipeline GET /healthz and never read a reply: memory stays bounded, others are served."""
    print("pipelining", flush=True)
    clients = 10
    seconds = 4.0 if options.quick else 10.0
    server = Server(binary, ["--threads", "2", "--access-log", "off"])
    try:
        one_request(server.port, "GET", "/healthz")
        baseline_kib = server.rss_kib()
        pipeline = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n" * 2000
        accepted = [0] * clients
        ends = {}
        stop = threading.Event()

        def flooder(index):
            try:
                sock = connect(server.port)
            except OSError as error:
                ends[index] = f"connect failed: {error}"
                return
            sock.settimeout(0.2)
            view = memoryview(pipeline)
            offset = 0
            with sock:
                while not stop.is_set():
                    try:
                        sent = sock.send(view[offset:])
                    except socket.timeout:
                        continue
                    except OSError:
                        ends[index] = f"closed by the server after {accepted[index] // MIB} MiB"
                        return
                    accepted[index] += sent
                    offset = (offset + sent) % len(pipeline)
            ends[index] = "open"

        sampler = RSSSampler(server)
        normal = NormalTraffic(server.port)
        threads = [threading.Thread(target=flooder, args=(n,), daemon=True) for n in range(clients)]
        for thread in threads:
            thread.start()
        started = time.monotonic()
        sampler.exceeded.wait(seconds)
        elapsed = time.monotonic() - started
        stop.set()
        for thread in threads:
            thread.join(10)
        worst_ms = normal.stop()
        peak_kib = sampler.stop()
        summary = {}
        for value in ends.values():
            summary[value] = summary.get(value, 0) + 1
        report.figure("pipelining", "clients_seconds", [clients, round(elapsed, 1)])
        if sampler.exceeded.is_set():
            print(f"  (stopped after {elapsed:.1f} s: past the {sampler.cutoff_kib // 1024} MiB cut-off)", flush=True)
        report.figure("pipelining", "rss_mib_baseline_peak", [round(baseline_kib / 1024, 1), round(peak_kib / 1024, 1)])
        report.figure("pipelining", "bytes_accepted_per_client_mib_max", round(max(accepted) / MIB, 1))
        report.figure("pipelining", "flooder_ends", summary)
        report.figure("pipelining", "normal_ok_failed_worst_ms", [normal.ok, len(normal.failed), worst_ms and round(worst_ms, 1)])
        report.check(peak_kib < 64 * 1024,
                     f"pipelining: resident memory peak {round(peak_kib / 1024, 1)} MiB with {clients} never-reading "
                     f"pipelining clients for {elapsed:.1f} s (< 64 MiB)")
        report.check(normal.ok >= max(3, int(elapsed * 5)) and not normal.failed,
                     f"pipelining: a normal client is served meanwhile (ok {normal.ok}, failed {len(normal.failed)} {normal.failed[:2]})")
        status, _, _ = one_request(server.port, "POST", "/body", body_request(1))
        report.check(server.alive() and status == 200, "pipelining: server still serves afterwards")
    finally:
        server.stop()
