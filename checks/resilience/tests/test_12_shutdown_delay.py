"""shutdown-delay: --shutdown-delay-seconds serves normally before the drain

Run by resilience.py (--only shutdown-delay).
"""

import signal
import subprocess
import time

from client import connect, one_request, exchange
from defines import Server, body_request


NAME = "shutdown-delay"


def run(binary, report, options):
    """--shutdown-delay-seconds: after SIGTERM the server keeps serving normally, then drains."""
    print("shutdown-delay", flush=True)
    delay, drain = 1.0, 2.0
    server = Server(binary, ["--threads", "2", "--access-log", "off", "--shutdown-delay-seconds", str(delay),
                             "--drain-seconds", str(drain)])
    kept = connect(server.port)
    try:
        exchange(kept, "GET", "/healthz")
        signalled = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        time.sleep(0.3)
        try:
            status, headers, _ = one_request(server.port, "POST", "/body", body_request(1), timeout=3)
        except (OSError, ConnectionError) as error:
            status, headers = None, {"error": str(error)[:60]}
        report.check(status == 200, f"shutdown-delay: a new connection 0.3 s after SIGTERM is served (got {status} {headers.get('error', '')})")
        try:
            readiness, _, _ = one_request(server.port, "GET", "/readyz", timeout=3)
        except (OSError, ConnectionError):
            readiness = None
        report.figure("shutdown-delay", "readyz_during_delay", readiness)
        status, headers = exchange(kept, "POST", "/body", body_request(2))
        connection = headers.get("connection") if isinstance(headers, dict) else headers
        report.check(status == 200 and connection != "close",
                     f"shutdown-delay: keep-alive served without Connection: close during the delay (got {status}, {connection})")
        time.sleep(max(0.0, signalled + delay + 0.4 - time.monotonic()))
        status, headers = exchange(kept, "POST", "/body", body_request(3))
        connection = headers.get("connection") if isinstance(headers, dict) else headers
        report.check(status == 200 and connection == "close",
                     f"shutdown-delay: once the drain starts, the next request → 200 with Connection: close (got {status}, {connection})")
        try:
            code = server.process.wait(delay + drain + 2)
        except subprocess.TimeoutExpired:
            code = None
        exited_at = time.monotonic() - signalled
        report.figure("shutdown-delay", "exit_seconds_after_sigterm", round(exited_at, 2))
        report.check(code == 0 and delay - 0.1 <= exited_at <= delay + drain + 1.0,
                     f"shutdown-delay: exit status 0 after the delay and within delay + drain (status {code} after {exited_at:.2f} s)")
    finally:
        kept.close()
        server.kill()
