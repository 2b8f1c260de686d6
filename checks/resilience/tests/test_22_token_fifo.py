"""token-fifo: SIGHUP with a FIFO at the token path: the file is opened without blocking and refused
(not a regular file), the tokens in force stay, and a SIGTERM after it is handled at once (before,
the control thread hung in fopen() until something opened the FIFO for writing).

Run by resilience.py (--only token-fifo).
"""

import os
import signal
import time

from defines import MARKER, Server, check_no_marker, token_file, authorized_status, await_event


NAME = "token-fifo"


def run(binary, report, options):
    """SIGHUP with a FIFO at the token path: the file is opened without
    blocking and refused (not a regular file), the tokens in force stay, and a
    SIGTERM after it is handled at once (before, the control thread hung in
    fopen() until something opened the FIFO for writing)."""
    print("token-fifo", flush=True)
    path = token_file("tok-" + MARKER)
    server = Server(binary, ["--threads", "1", "--access-log", "off", "--auth-token-file", path])
    try:
        os.unlink(path)
        os.mkfifo(path)
        server.process.send_signal(signal.SIGHUP)
        time.sleep(0.5)
        failed = await_event(server, ["auth-tokens-reload-failed"], 0)
        report.check(failed is not None and "not a regular file" in failed.get("detail", ""),
                     f"token-fifo: SIGHUP with a FIFO is refused as not a regular file (got {failed})")
        status = authorized_status(server.port, "tok-" + MARKER)
        report.check(status == 200, f"token-fifo: the token in force still works (got {status})")
        started = time.monotonic()
        code = server.stop(timeout=5.0)
        seconds = time.monotonic() - started
        report.figure("token-fifo", "sigterm_exit_seconds", round(seconds, 2))
        report.check(code == 0 and seconds < 3.0,
                     f"token-fifo: SIGTERM after it exits 0 at once (exit {code} after {seconds:.2f} s)")
        check_no_marker(report, server, "token-fifo")
    finally:
        server.kill()
        if os.path.exists(path):
            os.unlink(path)
