"""metrics-drain: The metrics listener drains with the main server (ADR 0017): its idle keep-alive
connections close as the drain starts, not after the main port's drain has run its course.

Run by resilience.py (--only metrics-drain).
"""

import signal
import time

from client import connect, exchange, closed_by_peer
from defines import Server


NAME = "metrics-drain"


def run(binary, report, options):
    """The metrics listener drains with the main server (ADR 0017): its idle
    keep-alive connections close as the drain starts, not after the main
    port's drain has run its course."""
    print("metrics-drain", flush=True)
    server = Server(binary, ["--threads", "1", "--access-log", "off", "--metrics-port", "0", "--drain-seconds", "3"])
    try:
        metrics_port = server.start_line["metricsPort"]
        main_idle = connect(server.port)
        status, _ = exchange(main_idle, "GET", "/healthz")
        report.check(status == 200, f"metrics-drain: a main-port keep-alive connection is served (got {status})")
        scraper = connect(metrics_port)
        status, _ = exchange(scraper, "GET", "/metrics")
        report.check(status == 200, f"metrics-drain: a scrape on a keep-alive connection is served (got {status})")
        signalled = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        closed_after = None
        while time.monotonic() - signalled < 5.0:
            if closed_by_peer(scraper, 0.05):
                closed_after = time.monotonic() - signalled
                break
        report.figure("metrics-drain", "scrape_connection_closed_after_s",
                      None if closed_after is None else round(closed_after, 2))
        report.check(closed_after is not None and closed_after < 1.0,
                     f"metrics-drain: the idle scrape connection closes as the drain starts "
                     f"(after {closed_after if closed_after is None else round(closed_after, 2)} s; the main drain runs 3 s)")
        scraper.close()
        main_idle.close()
    finally:
        server.stop()
