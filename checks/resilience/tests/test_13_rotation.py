"""rotation: several tokens a file; SIGHUP re-reads it, keeps the old tokens when the file is unusable,
logs either, never ends the process

Run by resilience.py (--only rotation).
"""

import json
import os
import signal
import time

from client import one_request
from defines import Failure, Server, token_file, authorized_status, await_event


RELOADED = "auth-tokens-reloaded"


RELOAD_FAILED = "auth-tokens-reload-failed"


NAME = "rotation"


def run(binary, report, options):
    """A token file with several tokens; SIGHUP re-reads it, keeps the old tokens
    when the file became unusable, logs either outcome, and never ends the process."""
    print("rotation", flush=True)
    old, new, other = ("tok-" + os.urandom(12).hex() for _ in range(3))
    path = token_file(old, new)
    outputs = []
    try:
        try:
            server = Server(binary, ["--threads", "1", "--access-log", "off", "--auth-token-file", path])
        except Failure as failure:
            report.check(False, f"rotation: a token file with two tokens, one a line, is accepted ({failure})")
        else:
            try:
                statuses = [authorized_status(server.port, token) for token in (old, new, other)]
                report.check(statuses == [200, 200, 401],
                             f"rotation: with two tokens in the file each is accepted, another is not "
                             f"({statuses}, expected [200, 200, 401])")
            finally:
                server.stop()
                outputs.append(server.output_text())

        with open(path, "w") as file:
            file.write(old + "\n")
        server = Server(binary, ["--threads", "1", "--access-log", "off", "--auth-token-file", path])
        try:
            steps = [
                ("both tokens", old + "\n" + new + "\n", RELOADED, 2, [200, 200]),
                ("the new token only", new + "\n", RELOADED, 1, [401, 200]),
                ("an empty file", "", RELOAD_FAILED, None, [401, 200]),
                ("a missing file", None, RELOAD_FAILED, None, [401, 200]),
            ]
            for what, contents, expected_event, token_count, expected in steps:
                if contents is None:
                    if os.path.exists(path):
                        os.unlink(path)
                else:
                    with open(path, "w") as file:
                        file.write(contents)
                seen = len(server.events(RELOADED, RELOAD_FAILED))
                if server.alive():
                    server.process.send_signal(signal.SIGHUP)
                event = await_event(server, (RELOADED, RELOAD_FAILED), seen)
                time.sleep(0.1)
                report.check(server.alive(), f"rotation: still running after SIGHUP with {what} (exit status {server.process.poll()})")
                good_event = event is not None and event.get("event") == expected_event and (
                    token_count is None or event.get("tokens") == token_count)
                shape = {"event": expected_event, **({} if token_count is None else {"tokens": token_count})}
                report.check(good_event, f"rotation: SIGHUP with {what} logs {json.dumps(shape)} (got {event})")
                statuses = [authorized_status(server.port, token) for token in (old, new)]
                report.check(statuses == expected, f"rotation: after SIGHUP with {what}, the old and new tokens get "
                                                   f"{statuses} (expected {expected})")
        finally:
            code = server.stop()
            outputs.append(server.output_text())
        report.check(code == 0 and (server.stop_event() or {}).get("reason") == "SIGTERM",
                     f"rotation: SIGTERM after the SIGHUPs still drains and exits 0 (status {code}, stop {server.stop_event()})")

        server = Server(binary, ["--threads", "1", "--access-log", "off"])
        try:
            server.process.send_signal(signal.SIGHUP)
            time.sleep(0.5)
            try:
                status = one_request(server.port, "GET", "/healthz", timeout=3)[0]
            except (OSError, ConnectionError):
                status = None
            report.check(server.alive() and status == 200,
                         f"rotation: SIGHUP without --auth-token-file leaves the server serving (status {status}, "
                         f"exit status {server.process.poll()})")
        finally:
            server.stop()
            outputs.append(server.output_text())
        text = "".join(outputs)
        report.check(not any(token in text for token in (old, new, other)), "rotation: no token ever appears in the server's output")
    finally:
        if os.path.exists(path):
            os.unlink(path)
